"""Random playouts (Hypothesis chooses the seed, the table and every move) that check the
game's invariants after every action."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import SYSTEM, Refusal, events_for
from games.holmes_elementary import GAME, rules
from games.holmes_elementary.rules.cards import canonical
from games.holmes_elementary.rules.state import barred_suits
from tests.games.holmes_elementary.helpers import conserved

MAX_STEPS = 1500


def dumped(value) -> str:
    return json.dumps(value, sort_keys=True)


def check_invariants(state: dict, before_turn: int, before: dict) -> None:
    players = state["players"]
    assert conserved(state)
    # Tokens.
    tokens = [player["tokens"] for player in players]
    assert sum(tokens) + state["supply"] == 25
    for player in players:
        assert player["tokens"] == player["cases"] + len(player["correct"]) <= 5
    result = rules.outcome(state)
    assert (result is not None and result["reason"] == "five_tokens") == (tokens.count(5) == 1)
    # Hands.
    for seat, player in enumerate(players):
        assert player["hand"] == canonical(player["hand"])
        limit = 13 if seat == state["current"] and not rules.is_over(state) else 9
        assert len(player["hand"]) <= limit, (seat, len(player["hand"]))
    assert state["discard"] == canonical(state["discard"])
    if before_turn != state["current"] and not rules.is_over(before):
        assert len(players[before_turn]["hand"]) <= 9  # the hand limit after Retire
    # Spots.
    for suit in state["spots"]:
        right = [seat for seat, player in enumerate(players) if suit in player["correct"]]
        assert (suit in state["emptied_by"]) == (len(right) == 1)
    for player in players:
        assert len(barred_suits(player)) == len(set(barred_suits(player)))
        assert not set(barred_suits(player)) & set(player["correct"])
    assert state["round"] <= state["max_rounds"]


def check_waits(state: dict) -> None:
    seats = range(len(state["players"]))
    waiting = rules.waiting_for(state)
    for seat in seats:
        assert bool(rules.legal_actions(state, seat)) == (seat in waiting)
    assert (rules.legal_actions(state, SYSTEM) == [{"type": "timeout"}]) == bool(waiting)


def check_no_leak(state: dict, events: list) -> None:
    seats = range(len(state["players"]))
    private = {seat: GAME.private_items(state, seat) for seat in seats}
    for viewer in [*seats, None]:
        text = dumped(rules.view(state, viewer))
        text += dumped([event.to_dict() for event in events_for(events, viewer)])
        assert "rng" not in text
        for owner, items in private.items():
            if owner != viewer:
                assert not any(item in text for item in items), (viewer, owner)


def play(seed: int, players: int, options: dict, chooser: random.Random):
    state = rules.setup({"options": options}, [f"p{n}" for n in range(players)], seed)
    moves = []
    for _ in range(MAX_STEPS):
        if rules.is_over(state):
            return state, moves
        check_waits(state)
        actor = rules.waiting_for(state)[0]
        legal = rules.legal_actions(state, actor)
        if chooser.random() < 0.05:
            actor, action = SYSTEM, {"type": "timeout"}
        else:
            action = chooser.choice(legal)
        frozen = dumped(state)
        result = rules.apply(state, actor, action)
        assert not isinstance(result, Refusal), result
        assert dumped(state) == frozen, "apply changed its input"
        new_state, events = result
        check_invariants(new_state, state["current"], state)
        check_no_leak(new_state, events)
        moves.append((actor, action, [event.to_dict() for event in events]))
        state = new_state
    raise AssertionError("the game did not end")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    max_rounds=st.integers(1, 8),
    first=st.sampled_from(["0", "1", "random"]),
    chooser=st.randoms(use_true_random=False),
)
def test_it_keeps_its_invariants_in_random_playouts(seed, players, max_rounds, first, chooser):
    options = {"first_player": first, "max_rounds": max_rounds}

    state, moves = play(seed, players, options, chooser)

    assert rules.is_over(state)
    # Same seed, same moves: the same game, event for event.
    replay = rules.setup({"options": options}, [f"p{n}" for n in range(players)], seed)
    for actor, action, events in moves:
        replay, replayed = rules.apply(replay, actor, action)
        assert [event.to_dict() for event in replayed] == events
    assert replay == state


def test_it_ends_every_full_length_random_game_within_the_step_limit():
    for players, seed in ((2, 5), (6, 6)):
        chooser = random.Random(seed)
        state = rules.setup(GAME.example_config(players), ["p"] * players, seed)
        for _ in range(MAX_STEPS):
            if rules.is_over(state):
                break
            actor = rules.waiting_for(state)[0]
            state, _ = rules.apply(state, actor, chooser.choice(rules.legal_actions(state, actor)))
        assert rules.is_over(state)
