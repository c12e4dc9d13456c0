"""Set-up, Investigate, moving through the phases, Retire and the turn order."""

from __future__ import annotations

import pytest

from games.holmes_elementary import GAME, rules
from tests.games.holmes_elementary.helpers import (
    act,
    conserved,
    hand,
    make_state,
    refused,
    types,
)


def test_it_hides_one_card_per_suit_and_deals_five_to_each():
    state = rules.setup(GAME.example_config(4), ["a", "b", "c", "d"], 3)

    assert sorted(state["spots"]) == sorted("XSHAMCL")
    assert all(card[0] == suit for suit, card in state["spots"].items())
    assert [len(p["hand"]) for p in state["players"]] == [7, 5, 5, 5]  # seat 0 has drawn two
    assert conserved(state)


@pytest.mark.parametrize("players", [[], ["solo"], list("abcdefg")])
def test_it_refuses_a_table_of_the_wrong_size(players):
    with pytest.raises(ValueError):
        rules.setup({}, players, 1)


@pytest.mark.parametrize(
    "options", [{"first_player": "7"}, {"first_player": "x"}, {"max_rounds": 0}]
)
def test_it_refuses_bad_options(options):
    with pytest.raises(ValueError):
        rules.setup({"options": options}, ["a", "b", "c"], 1)


def test_it_lets_the_table_name_the_first_player():
    state = rules.setup({"options": {"first_player": "2", "max_rounds": 40}}, list("abc"), 1)

    assert state["current"] == state["first"] == 2
    assert len(hand(state, 2)) == 7


def test_it_draws_the_first_player_at_random_when_asked():
    firsts = {
        rules.setup({"options": {"first_player": "random"}}, list("abcd"), seed)["first"]
        for seed in range(30)
    }

    assert firsts == {0, 1, 2, 3}


def test_it_draws_three_on_a_small_hand_and_two_otherwise():
    four = make_state([["X01"], ["X03", "S01", "S03", "S04"]], phase="deduction")
    five = make_state([["X01"], ["X03", "S01", "S03", "S04", "S06"]], phase="deduction")

    assert len(hand(act(four, 0, {"type": "pass"})[0], 1)) == 4 + 3
    assert len(hand(act(five, 0, {"type": "pass"})[0], 1)) == 5 + 2


def test_it_moves_through_the_phases_on_pass():
    state = make_state([["X01", "S02"], ["X03"]])

    state, events = act(state, 0, {"type": "pass"})
    assert state["phase"] == "sleuth" and events[0].data == {"player": 0, "phase": "action"}
    state, _ = act(state, 0, {"type": "pass"})
    assert state["phase"] == "deduction"
    state, events = act(state, 0, {"type": "pass"})
    assert types(events)[:2] == ["passed", "turn_started"]
    assert (state["current"], state["phase"]) == (1, "action")


def test_it_passes_earlier_phases_when_a_later_action_comes():
    state = make_state([["X01", "S02"], ["X03"]])

    state, events = act(state, 0, {"type": "view_discard"})

    assert "passed" not in types(events)
    assert state["current"] == 1


def test_it_refuses_an_action_whose_phase_is_over():
    state = make_state([["X01", "S02"], ["X03"]], phase="deduction")

    assert refused(state, 0, {"type": "play", "card": "X01"}) == "wrong_phase"
    assert refused(state, 1, {"type": "pass"}) == "not_your_turn"


def test_it_asks_for_the_excess_at_retire():
    held = ["X01", "X02", "X03", "X04", "X05", "X06", "X07", "X09", "X10", "S01", "S02"]
    state = make_state([held, ["H01"]], phase="deduction")

    state, events = act(state, 0, {"type": "pass"})

    assert state["phase"] == "retire"
    assert state["pending"] == {"kind": "retire", "player": 0, "count": 2}
    assert len(rules.legal_actions(state, 0)) == 55  # 11 choose 2
    assert refused(state, 0, {"type": "discard", "cards": ["X01"]}) == "wrong_count"
    state, events = act(state, 0, {"type": "discard", "cards": ["S01", "X01"]})
    assert len(hand(state, 0)) == 9 and state["current"] == 1
    assert events[0].data == {"player": 0, "count": 2, "reason": "retire"}


def test_it_counts_rounds_from_the_first_player_and_wraps():
    state = make_state([["X01"], ["X02"], ["X03"]], current=2, phase="deduction")

    state, events = act(state, 2, {"type": "pass"})

    assert state["current"] == 0 and state["round"] == 2
    assert events[1].data == {"player": 0, "round": 2}


def test_it_clears_a_players_last_look_when_its_next_turn_starts():
    state = make_state([["X01", "S02"], ["X03"]])
    state, _ = act(state, 0, {"type": "play", "card": "S02"})
    assert rules.view(state, 0)["you"]["last_look"]["kind"] == "deck"
    state, _ = act(state, 0, {"type": "pass"})
    state, _ = act(state, 0, {"type": "pass"})
    assert rules.view(state, 0)["you"]["last_look"] is not None
    state, _ = act(state, 1, {"type": "view_discard"})

    assert rules.view(state, 0)["you"]["last_look"] is None
