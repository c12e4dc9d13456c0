"""Random playouts from 3 to 8 seats, checking the rules' invariants after every action."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import SYSTEM
from games.i_say_holmes import GAME, rules
from games.i_say_holmes.rules import cards, tokens
from games.i_say_holmes.rules.state import may_escape, only_interrupts
from tests.games.i_say_holmes.helpers import NAMES, all_cards

MAX_STEPS = 5000


def check_cards(state: dict) -> None:
    found = all_cards(state)
    assert len(found) == 125 and set(found) == cards.ALL_CARDS
    if state["current"]:
        current = state["current"]["card"]
        assert cards.kind(current) not in (cards.VILLAIN, cards.I_SAY)
        assert cards.row(current).slug != "mastermind"


def check_tokens(state: dict) -> None:
    held = [h for h in state["holdings"]]
    telegrams = state["pool"]["telegrams"] + [t for h in held for t in h["telegrams"]]
    assert sorted(telegrams) == sorted(tokens.TELEGRAMS)
    for kind in tokens.I_SAY_TYPES:
        ids = state["pool"][kind] + [h[kind] for h in held if h[kind]]
        assert sorted(ids) == tokens.i_say_ids(kind)
    books = state["pool"]["books"] + [b for h in held for b in h["books"]]
    assert sorted(books) == sorted(name for name, _, _ in tokens.BOOKS)
    villains = state["pool"]["villains"] + [v for h in held for v in h["villains"]]
    assert sorted(villains) == sorted(tokens.VILLAIN_VP)


def check_settled(state: dict) -> None:
    """With nothing open, no hand may escape or owe an Impromptu Arrest."""
    if state["phase"] == "over" or state["pending"] or state["current"] is None:
        return
    for seat in range(len(state["players"])):
        assert not may_escape(state, seat)
        assert not only_interrupts(state, seat)
    assert state["turn"]["step"] in ("play", "drawn", "more")


def check_views(state: dict) -> None:
    count = len(state["players"])
    private = {seat: GAME.private_items(state, seat) for seat in range(count)}
    for viewer in [None, *range(count)]:
        seen = json.dumps(rules.view(state, viewer))
        assert '"vp": null' in seen or state["phase"] == "over"
        for owner, items in private.items():
            if owner != viewer:
                assert not any(item in seen for item in items)
    assert rules.view(state, None)["you"] is None


def play_out(players: int, seed: int, chooser: random.Random, **options) -> dict:
    state = rules.setup({"options": options}, NAMES[:players], seed)
    for step in range(MAX_STEPS):
        check_cards(state)
        check_tokens(state)
        check_settled(state)
        if step % 25 == 0:
            check_views(state)
        if rules.is_over(state):
            return state
        waiting = rules.waiting_for(state)
        assert waiting, "nobody is waited for, yet the game goes on"
        assert state["turn"]["count"] < 500 and state["case"] <= 20
        actor = chooser.choice(waiting + [SYSTEM] if chooser.random() < 0.05 else waiting)
        action = chooser.choice(rules.legal_actions(state, actor))
        before = json.dumps(state, sort_keys=True)
        state, _ = rules.apply(state, actor, action)
        assert json.dumps(state, sort_keys=True) != before or action["type"] == "choose"
    raise AssertionError("the game did not end")


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32), choices=st.randoms())
def test_it_keeps_every_invariant_in_random_games(players, seed, choices):
    state = play_out(players, seed, choices, max_cases=2)

    assert rules.outcome(state)["winners"]
    assert 1 <= state["cases_closed"] <= 2


@settings(max_examples=4, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32), choices=st.randoms())
def test_it_keeps_every_invariant_with_fast_play(players, seed, choices):
    state = play_out(players, seed, choices, max_cases=1, fast_play=True)

    assert state["cases_closed"] == 1


@settings(max_examples=3, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32))
def test_it_plays_a_full_game_of_computer_players_to_its_end(players, seed):
    state = rules.setup({}, NAMES[:players], seed)
    steps = 0
    while not rules.is_over(state):
        seat = rules.waiting_for(state)[0]
        legal = rules.legal_actions(state, seat)
        action = GAME.bot(rules.view(state, seat), seat, legal, seed)
        assert action in legal
        state, _ = rules.apply(state, seat, action)
        steps += 1
    assert steps < MAX_STEPS
    assert state["cases_closed"] <= (state["max_cases"] or 20)


def test_it_gives_the_same_states_and_events_for_the_same_seed_and_actions():
    first = play_out(5, 99, random.Random(3))
    second = play_out(5, 99, random.Random(3))

    assert first == second


@pytest.mark.parametrize("players", [6, 8])
def test_a_big_table_plays_until_his_last_bow_by_default(players):
    reasons = []
    for seed in range(1, 4):
        state = rules.setup({}, NAMES[:players], seed)
        while not rules.is_over(state):
            seat = rules.waiting_for(state)[0]
            legal = rules.legal_actions(state, seat)
            state, _ = rules.apply(state, seat, GAME.bot(rules.view(state, seat), seat, legal, 0))
        reasons.append(rules.outcome(state)["reason"])
        assert state["cases_closed"] <= 20

    # No number of cases cuts the game short: someone takes His Last Bow.
    assert "his_last_bow" in reasons
