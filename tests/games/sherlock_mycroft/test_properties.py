"""Random playouts (Hypothesis) that check the game's invariants after every action."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import SYSTEM, Refusal, events_for
from games.sherlock_mycroft import private_items, rules
from games.sherlock_mycroft.rules.cards import CHARACTERS, NUMBERED

from .helpers import all_cards

variants = st.fixed_dictionaries(
    {"reserve_card": st.booleans(), "moriarty": st.booleans(), "moran": st.booleans()}
)


def playout(seed: int, chosen: dict, check) -> dict:
    """A game of random listed actions (the timer now and then), calling
    ``check(before, after, events, actor, action)`` at each step."""
    state = rules.setup({"options": chosen, "first": "random"}, ["a", "b"], seed)
    chance = random.Random(seed)
    for _ in range(400):
        if rules.is_over(state):
            return state
        seat = rules.turn(state)
        actor = SYSTEM if chance.random() < 0.1 else seat
        action = chance.choice(rules.legal_actions(state, actor))
        result = rules.apply(state, actor, action)
        assert not isinstance(result, Refusal), result
        after, events = result
        check(state, after, events, actor, action)
        state = after
    raise AssertionError("the game did not end")


def check_components(state: dict) -> None:
    assert sorted(all_cards(state)) == sorted(rules.CLUE_IDS)
    assert sum(state["tokens"]) + state["reserve"] == 24
    assert min(*state["tokens"], state["reserve"]) >= 0
    for seat in (0, 1):
        places = [m["on"] for m in state["markers"][seat] if m["on"] is not None]
        assert len(state["markers"][seat]) == 3 and len(places) == len(set(places))
        assert not any(card.startswith("wild-") for card in state["hidden"][seat])
    face_down = [c["id"] for c in state["board"] if not c["face_up"]]
    assert len(face_down) <= 3
    assert not any(CHARACTERS[c].permanent for c in face_down)


def check_turn(before, after, events, actor, action) -> None:
    check_components(after)
    for seat in (0, 1):
        grown = after["hidden"][seat][: len(before["hidden"][seat])]
        assert grown == before["hidden"][seat], "a hidden stack lost a card"
    if not rules.is_over(after):
        awaited = rules.waiting_for(after)
        assert len(awaited) == 1 and rules.legal_actions(after, awaited[0])
        assert rules.legal_actions(after, SYSTEM) == [{"type": "timeout"}]
    if after["step"] == "move":
        assert len(after["board"]) == 5 + after["day"] - 1
        if after["deck"] or after["discard"]:
            assert len(after["line"]) == 4
    for event in events:
        if event.type == "moved":
            target = next(c for c in before["board"] if c["id"] == event.data["to"])
            assert target["face_up"], "a marker was laid on a face-down character"
    check_privacy(after, events)


def check_privacy(state: dict, events: list) -> None:
    for owner in (0, 1):
        secrets = private_items(state, owner)
        if not secrets:
            continue
        for viewer in (1 - owner, None):
            seen = json.dumps(rules.view(state, viewer)) + json.dumps(
                [e.to_dict() for e in events_for(events, viewer)]
            )
            assert not any(secret in seen for secret in secrets)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), chosen=variants)
def test_it_keeps_every_invariant_through_random_games(seed, chosen):
    state = playout(seed, chosen, check_turn)

    assert rules.is_over(state) and state["day"] == 7
    result = rules.outcome(state)
    assert result["result"] in ("win", "draw")
    for kind in NUMBERED:
        assert min(result["breakdown"][0][kind], result["breakdown"][1][kind]) == 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), chosen=variants)
def test_it_makes_exactly_six_moves_a_day_or_four_with_moran(seed, chosen):
    moves: dict[int, int] = {}
    moran_days: set[int] = set()

    def count(before, after, events, actor, action):
        for event in events:
            if event.type == "moved":
                moves[before["day"]] = moves.get(before["day"], 0) + 1
            if event.type == "moran":
                moran_days.add(after["day"])

    playout(seed, chosen, count)

    assert sorted(moves) == list(range(1, 8))
    assert all(n == (4 if day in moran_days else 6) for day, n in moves.items())


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), chosen=variants)
def test_it_replays_the_same_game_from_the_same_seed_and_actions(seed, chosen):
    log = []
    first = playout(seed, chosen, lambda b, a, e, actor, action: log.append((actor, action)))

    state = rules.setup({"options": chosen, "first": "random"}, ["a", "b"], seed)
    for actor, action in log:
        state, _ = rules.apply(state, actor, action)

    assert state == first


def test_it_lays_every_day_out_on_the_board():
    state = playout(5, {"reserve_card": False, "moriarty": True, "moran": True}, lambda *a: None)

    spaces = [card["space"] for card in state["board"]]
    assert spaces[:5] == ["permanent"] * 3 + ["day1_left", "day1_right"]
    assert spaces[5:] == [f"day{day}" for day in range(2, 8)]
