"""The end of the game and its tie-breaks; what the timer does to each wait."""

from __future__ import annotations

import json

import pytest

from games.base import SYSTEM
from games.holmes_elementary import GAME, rules
from tests.games.holmes_elementary.helpers import act, hand, make_state, refused, types

CASE = ["X01", "S02", "H03", "A05", "M06", "C07", "L10"]
TIMEOUT = {"type": "timeout"}


def with_tokens(state: dict, tokens: list[int]) -> dict:
    for seat, count in enumerate(tokens):
        state["players"][seat]["tokens"] = count
        state["players"][seat]["cases"] = count
    state["supply"] = 25 - sum(tokens)
    return state


def test_it_ends_at_once_on_a_fifth_token_from_a_case():
    state = with_tokens(make_state([CASE, ["H01"]], phase="sleuth"), [4, 3])

    state, events = act(state, 0, {"type": "solve", "cards": CASE})

    assert rules.is_over(state) and types(events) == ["case_solved", "game_over"]
    assert rules.outcome(state) == {
        "reason": "five_tokens",
        "winners": [0],
        "scores": {"0": 5, "1": 3},
        "tokens": [5, 3],
        "ranking": [0, 1],
    }
    assert events[1].data["spots"]["C"] == "C06"
    assert rules.legal_actions(state, 0) == rules.legal_actions(state, SYSTEM) == []
    assert rules.waiting_for(state) == [] and rules.turn(state) is None
    assert refused(state, 0, {"type": "pass"}) == "game_over"
    assert refused(state, SYSTEM, TIMEOUT) == "game_over"


def test_it_ends_at_once_on_a_fifth_token_from_a_guess_and_reveals_the_spots():
    state = with_tokens(make_state([["X01"], ["H01"]], phase="deduction"), [4, 0])

    state, _ = act(state, 0, {"type": "guess", "suit": "X", "rank": 8})

    assert rules.outcome(state)["winners"] == [0]
    spots = rules.view(state, None)["spots"]
    assert [spot["card"]["id"] for spot in spots] == [
        "X08",
        "S05",
        "H07",
        "A04",
        "M05",
        "C06",
        "L09",
    ]
    assert '"X01"' not in json.dumps(rules.view(state, 1))  # hands stay hidden


def test_it_ends_after_the_last_turn_of_the_round_limit():
    state = make_state([["X01"], ["H01"]], current=1, phase="deduction", round=3, max_rounds=3)

    state, events = act(state, 1, {"type": "pass"})

    assert rules.outcome(state)["reason"] == "round_limit"
    assert types(events) == ["passed", "game_over"]


@pytest.mark.parametrize(
    ("tokens", "correct", "wrong", "winners", "ranking"),
    [
        ([2, 3, 1], [[], [], []], ["", "", ""], [1], [1, 0, 2]),
        ([2, 2, 1], [["X"], [], []], ["", "", ""], [0], [0, 1, 2]),
        ([2, 2, 0], [["X"], ["S"], []], ["H01", "", ""], [1], [1, 0, 2]),
        ([2, 2, 2], [[], [], []], ["", "", ""], [0, 1, 2], [1, 2, 0]),
    ],
)
def test_it_ranks_by_tokens_then_right_then_fewest_wrong_guesses(
    tokens, correct, wrong, winners, ranking
):
    state = make_state([["X01"], ["H01"], ["C01"]], phase="deduction", max_rounds=1)
    state["first"] = 1
    state = with_tokens(state, tokens)
    for seat in range(3):
        state["players"][seat]["correct"] = correct[seat]
        state["players"][seat]["wrong"] = wrong[seat]

    state, _ = act(state, 0, {"type": "pass"})

    assert rules.outcome(state)["winners"] == winners
    assert rules.outcome(state)["ranking"] == ranking


def test_it_times_out_a_turn_by_passing_it_and_retiring_at_random():
    held = ["X01", "X02", "X03", "X04", "X05", "X06", "X07", "X09", "X10", "S01", "S02"]
    state = make_state([held, ["H01"]])

    assert rules.legal_actions(state, SYSTEM) == [TIMEOUT]
    state, events = act(state, SYSTEM, TIMEOUT)

    assert events[0].data == {"player": 0, "kind": "turn"}
    assert events[1].data == {"player": 0, "count": 2, "reason": "retire"}
    assert len(hand(state, 0)) == 9 and state["current"] == 1


def test_it_times_out_an_action_target_with_random_discards():
    state = make_state([["A02", "S02"], ["X01", "X02", "X03"]])
    state, _ = act(state, 0, {"type": "play", "card": "A02", "target": 1})

    state, events = act(state, SYSTEM, TIMEOUT)

    assert events[0].data == {"player": 1, "kind": "action"}
    assert events[1].data == {"player": 1, "count": 2, "reason": "action"}
    assert len(hand(state, 1)) == 1 and state["phase"] == "sleuth"
    assert rules.waiting_for(state) == [0]


def test_it_times_out_a_locale_choice_by_keeping_the_first_card_drawn():
    state = make_state([["L02", "S02"], ["X01"]], deck=["C03", "C01", "C02", "C04"])
    state, _ = act(state, 0, {"type": "play", "card": "L02"})

    state, events = act(state, SYSTEM, TIMEOUT)

    assert hand(state, 0) == ["S02", "C03"] and state["phase"] == "sleuth"


def test_it_times_out_a_draw_and_discard_by_throwing_back_the_drawn_card():
    state = make_state([["X01", "S02"], ["H01"]], deck=["C01", "C02", "C03"], phase="deduction")
    state, _ = act(state, 0, {"type": "draw_discard"})

    state, events = act(state, SYSTEM, TIMEOUT)

    assert hand(state, 0) == ["X01", "S02"] and state["current"] == 1


def test_it_times_out_retire_with_random_discards_and_ends_the_turn():
    held = ["X01", "X02", "X03", "X04", "X05", "X06", "X07", "X09", "X10", "S01", "S02"]
    state = make_state([held, ["H01"]], phase="deduction")
    state, _ = act(state, 0, {"type": "pass"})

    state, events = act(state, SYSTEM, TIMEOUT)

    assert events[0].data == {"player": 0, "kind": "retire"}
    assert len(hand(state, 0)) == 9 and state["current"] == 1


def test_it_sets_no_deadline_of_its_own_and_always_allows_notes():
    state = make_state([["X01"], ["H01"]])

    assert GAME.rules.deadline_seconds(state) is None
    assert GAME.rules.may_write_notes(state, 1) is True
