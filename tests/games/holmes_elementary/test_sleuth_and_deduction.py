"""Solving a case, guessing a spot right and wrong, and the alternatives to a guess."""

from __future__ import annotations

import json
from itertools import combinations

from games.holmes_elementary import rules
from games.holmes_elementary.rules.cases import case_problem, every_case
from tests.games.holmes_elementary.helpers import act, hand, make_state, refused, seen_by, types

CASE = ["X01", "S02", "H03", "A05", "M06", "C07", "L10"]


def test_it_solves_a_case_for_a_token_and_shows_it_to_all():
    state = make_state([[*CASE, "X02"], ["H01"]], phase="sleuth")

    state, events = act(state, 0, {"type": "solve", "cards": list(reversed(CASE))})

    assert events[0].type == "case_solved" and events[0].audience == "all"
    assert events[0].data == {"player": 0, "cards": CASE, "tokens": 1}
    assert hand(state, 0) == ["X02"] and set(CASE) <= set(state["discard"])
    assert state["players"][0]["cases"] == 1 and state["supply"] == 24
    assert state["phase"] == "deduction"
    assert not [a for a in rules.legal_actions(state, 0) if a["type"] == "solve"]


def test_it_solves_from_the_action_phase_passing_it():
    state = make_state([[*CASE], ["H01"]])

    state, _ = act(state, 0, {"type": "solve", "cards": CASE})

    assert state["phase"] == "deduction"
    assert refused(state, 0, {"type": "solve", "cards": CASE}) == "wrong_phase"


def test_it_refuses_what_is_no_case():
    state = make_state([[*CASE, "X02", "S01"], ["H01"]], phase="sleuth")

    def code(cards):
        return refused(state, 0, {"type": "solve", "cards": cards})

    assert code(CASE[:6]) == "wrong_count"
    assert code([*CASE[:6], "X01"]) == "duplicate_card"
    assert code([*CASE[:6], "L03"]) == "card_not_in_hand"
    assert code(["X01", "X02", *CASE[2:]]) == "case_needs_every_suit"
    assert code(["X01", "S01", *CASE[2:]]) == "case_ranks_repeat"
    assert code("X01") == "malformed_action"


def test_it_lists_every_case_of_a_hand():
    held = [*CASE, "X04", "S04", "H04", "A04", "M04"]

    cases = every_case(held)

    assert len(cases) == len({tuple(c) for c in cases}) == 6  # only one 4 at a time
    assert cases[0] == CASE
    rich = ["X01", "X02", "S03", "S04", "H05", "H06", "A07", "A08", "M09", "M10", "C01", "L02"]
    brute = [list(c) for c in combinations(rich, 7) if case_problem(list(c)) is None]
    assert every_case(rich) == brute and len(brute) <= 32


def test_it_rewards_a_right_guess_and_empties_the_spot():
    state = make_state([["X01"], ["H01"]], phase="deduction")

    state, events = act(state, 0, {"type": "guess", "suit": "C", "rank": 6})

    assert events[0].data == {
        "player": 0, "suit": "C", "rank": 6, "correct": True, "card": "C06", "tokens": 1,
    }  # fmt: skip
    assert state["emptied_by"] == {"C": 0} and "C06" in state["discard"]
    spot = rules.view(state, 1)["spots"][5]
    assert (spot["open"], spot["emptied_by"], spot["card"]["id"]) == (False, 0, "C06")
    assert state["players"][0]["correct"] == ["C"]
    assert state["current"] == 1
    later = make_state([["X01"], ["H01"]], phase="deduction", emptied_by={"C": 0})
    assert refused(later, 0, {"type": "guess", "suit": "C", "rank": 6}) == "spot_empty"


def test_it_punishes_a_wrong_guess_and_bars_the_spot():
    state = make_state([["X01", "S02"], ["H01"]], phase="deduction")

    state, events = act(state, 0, {"type": "guess", "suit": "C", "rank": 3})

    assert types(events)[:4] == ["guessed", "spot_seen", "discarded", "discarded_cards"]
    assert events[0].data == {"player": 0, "suit": "C", "rank": 3, "correct": False}
    assert events[1].audience == (0,) and events[1].data == {"suit": "C", "card": "C06"}
    assert events[2].data == {"player": 0, "count": 2, "reason": "wrong_guess"}
    assert '"C06"' not in seen_by(events, 1) + json.dumps(rules.view(state, 1))
    assert hand(state, 0) == []
    assert rules.view(state, 0)["you"]["seen_spots"] == {"C": "C06"}
    assert rules.view(state, 1)["spots"][5]["barred"] == [0]
    assert rules.view(state, None)["wrong_guesses"] == [{"player": 0, "suit": "C", "rank": 3}]
    # Back on turn, seat 0 may guess every open spot but that one.
    state, _ = act(state, 1, {"type": "pass"})
    state, _ = act(state, 1, {"type": "pass"})
    state, _ = act(state, 1, {"type": "pass"})
    guesses = {a["suit"] for a in rules.legal_actions(state, 0) if a["type"] == "guess"}
    assert guesses == set("XSHAML")
    assert refused(state, 0, {"type": "guess", "suit": "C", "rank": 6}) == "barred_from_spot"


def test_it_refuses_a_bad_guess():
    state = make_state([["X01"], ["H01"]], phase="deduction")

    assert refused(state, 0, {"type": "guess", "suit": "Q", "rank": 3}) == "unknown_suit"
    assert refused(state, 0, {"type": "guess", "suit": "C", "rank": 0}) == "bad_rank"
    assert refused(state, 0, {"type": "guess", "suit": "C", "rank": True}) == "bad_rank"
    assert refused(state, 0, {"type": "guess", "suit": "C", "rank": "6"}) == "bad_rank"
    assert refused(state, 0, {"type": "guess", "suit": "C"}) == "malformed_action"


def test_it_draws_one_and_waits_for_one_discard():
    state = make_state([["X01", "S02"], ["H01"]], deck=["C01", "C02"], phase="deduction")

    state, events = act(state, 0, {"type": "draw_discard"})

    assert state["pending"] == {"kind": "deduction", "player": 0, "count": 1, "drawn": "C01"}
    assert rules.view(state, 1)["pending"] == {"kind": "deduction", "player": 0, "count": 1}
    assert len(rules.legal_actions(state, 0)) == 3
    state, events = act(state, 0, {"type": "discard", "cards": ["S02"]})
    assert hand(state, 0) == ["X01", "C01"] and state["current"] == 1


def test_it_discards_the_drawn_card_at_once_from_an_empty_hand():
    state = make_state([[], ["H01"]], deck=["C01", "C02", "C03", "C04"], phase="deduction")

    state, events = act(state, 0, {"type": "draw_discard"})

    assert hand(state, 0) == [] and "C01" in state["discard"] and state["current"] == 1


def test_it_shows_the_discard_pile_to_the_looker_only():
    state = make_state([["X01"], ["H01"]], discard=["M02", "A01"], phase="deduction")

    state, events = act(state, 0, {"type": "view_discard"})

    assert events[0].data == {"player": 0, "count": 2} and events[0].audience == "all"
    assert events[1].audience == (0,) and events[1].data == {"cards": ["A01", "M02"]}
    you = rules.view(state, 0)["you"]
    assert you["discard_looked"] == 2 and {"A01", "M02"} <= set(you["seen"])
    assert '"M02"' not in seen_by(events, 1) + json.dumps(rules.view(state, 1))
    assert '"M02"' not in json.dumps(rules.view(state, None))


def test_it_lets_a_player_look_at_an_empty_discard_pile():
    state = make_state([["X01"], ["H01"]], discard=[], phase="deduction")

    state, events = act(state, 0, {"type": "view_discard"})

    assert events[1].data == {"cards": []}
