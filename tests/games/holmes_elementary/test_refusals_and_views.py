"""Refusals of junk and of the wrong actor; what each view shows and hides."""

from __future__ import annotations

import json

import pytest

from games.base import SYSTEM
from games.holmes_elementary import GAME, rules
from tests.games.holmes_elementary.helpers import act, make_state, refused


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (None, "malformed_action"),
        ("pass", "malformed_action"),
        ({}, "malformed_action"),
        ({"type": 3}, "malformed_action"),
        ({"type": "visit"}, "unknown_action"),
        ({"type": "timeout"}, "system_only"),
        ({"type": "pass", "x": 1}, "malformed_action"),
        ({"type": "discard", "cards": ["X01"]}, "no_choice_pending"),
        ({"type": "keep", "card": "X01"}, "no_choice_pending"),
    ],
)
def test_it_refuses_junk_with_a_code_and_a_sentence(action, code):
    state = make_state([["X01"], ["H01"]])
    before = json.dumps(state, sort_keys=True)

    assert refused(state, 0, action) == code
    assert json.dumps(state, sort_keys=True) == before


def test_it_refuses_unknown_players_and_turn_actions_from_the_server():
    state = make_state([["X01"], ["H01"]])

    assert refused(state, 5, {"type": "pass"}) == "unknown_player"
    assert refused(state, True, {"type": "pass"}) == "unknown_player"
    assert refused(state, SYSTEM, {"type": "pass"}) == "system_only"
    assert refused(state, SYSTEM, {"type": "timeout", "x": 1}) == "malformed_action"
    assert rules.legal_actions(state, 7) == [] and rules.legal_actions(state, 1) == []


def test_it_never_shows_a_hidden_spot_card_to_anyone():
    state = rules.setup(GAME.example_config(4), list("abcd"), 11)
    hidden = [f'"{card}"' for card in state["spots"].values()]

    for viewer in (0, 1, 2, 3, None):
        text = json.dumps(rules.view(state, viewer))
        assert not any(card in text for card in hidden)
    assert "rng" not in json.dumps(rules.view(state, 0))
    assert state["deck"][0] not in json.dumps(rules.view(state, None))


def test_it_shows_a_seat_its_hand_as_cards_and_others_their_sizes():
    state = make_state([["X01", "L10"], ["H01"]])

    view = rules.view(state, 0)

    assert view["you"]["hand"][1] == {
        "id": "L10", "suit": "L", "rank": 10, "name": "Lauriston Gardens",
    }  # fmt: skip
    assert [p["hand_count"] for p in view["players"]] == [2, 1]
    assert set(view) >= {
        "engine", "viewer", "round", "player", "phase", "waiting_for", "pending",
        "deck_count", "discard_count", "supply", "spots", "players", "wrong_guesses",
        "result", "you",
    }  # fmt: skip
    assert rules.view(state, None)["you"] is None


def test_it_keeps_private_items_to_what_only_that_seat_knows():
    state = make_state([["M02", "X01"], ["H01", "H02"]])
    assert GAME.private_items(state, 1) == {'"H01"', '"H02"'}

    state, _ = act(state, 0, {"type": "play", "card": "M02", "target": 1})

    assert GAME.private_items(state, 1) == set()  # seat 0 has seen seat 1's hand
    assert GAME.private_items(state, 0) == {'"X01"'}


def test_it_counts_a_wrongly_seen_spot_card_as_private_until_the_end():
    state = make_state([["X01"], ["H01"]], phase="deduction")

    state, _ = act(state, 0, {"type": "guess", "suit": "L", "rank": 1})

    assert '"L09"' in GAME.private_items(state, 0)
