"""Drawing: the reshuffle of the discard pile, short draws, and the hand limit."""

from __future__ import annotations

from games.holmes_elementary import rules
from tests.games.holmes_elementary.helpers import act, hand, make_state, refused, types


def test_it_reshuffles_the_discard_pile_when_the_deck_runs_out():
    state = make_state(
        [["X01", "S02"], ["H01"]],
        deck=["C01"],
        discard=["M01", "M02", "M03"],
    )
    state["players"][1]["discard_looked"] = 3

    state, events = act(state, 0, {"type": "play", "card": "X01"})

    assert types(events) == ["played", "reshuffled", "drew", "drew_cards"]
    assert events[1].data == {"count": 4}  # the Mystery card went to the pile first
    assert "C01" in hand(state, 0) and len(hand(state, 0)) == 3
    assert state["discard"] == [] and len(state["deck"]) == 3
    assert state["players"][1]["discard_looked"] == 0


def test_it_draws_short_when_deck_and_discard_are_empty():
    state = make_state([["X01", "S02"], ["H01"]], deck=[], discard=[])

    state, events = act(state, 0, {"type": "play", "card": "X01"})

    # The Mystery card itself is the only card left to draw.
    assert events[-2].data == {"player": 0, "count": 1, "reason": "mystery"}
    assert hand(state, 0) == ["X01", "S02"]


def test_it_refuses_draw_and_discard_with_nothing_to_draw():
    state = make_state([["X01", "S02"], ["H01"]], deck=[], discard=[], phase="deduction")

    assert refused(state, 0, {"type": "draw_discard"}) == "nothing_to_draw"
    assert {"type": "draw_discard"} not in rules.legal_actions(state, 0)


def test_it_keeps_the_hand_limit_after_retire():
    big = ["X01", "X02", "X03", "X04", "X05", "X06", "X07", "X09", "X10", "S01", "S02", "S03"]
    state = make_state([big, ["H01"]], phase="deduction")

    state, _ = act(state, 0, {"type": "pass"})
    assert state["pending"]["count"] == 3
    assert len(rules.legal_actions(state, 0)) == 220
    state, _ = act(state, 0, rules.legal_actions(state, 0)[-1])

    assert len(hand(state, 0)) == 9
