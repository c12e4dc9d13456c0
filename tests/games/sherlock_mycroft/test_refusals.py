"""The refusals every action meets before its own rules: shape, who, when, fields."""

import pytest

from games.base import SYSTEM
from games.sherlock_mycroft import rules

from .helpers import ALICE, BOB, move, refused, stacked


@pytest.mark.parametrize("action", [None, "move", 3, [], {}, {"type": None}, {"type": 5}])
def test_it_refuses_an_action_that_is_no_object_with_a_type(action):
    assert refused(stacked(), ALICE, action) == "malformed_action"


def test_it_refuses_an_unknown_action_type():
    assert refused(stacked(), ALICE, {"type": "visit"}) == "unknown_action"


def test_it_refuses_a_timeout_from_a_seat():
    assert refused(stacked(), ALICE, {"type": "timeout"}) == "system_only"


@pytest.mark.parametrize("player", [SYSTEM, 2, -1, "0", True, None])
def test_it_refuses_a_move_from_anyone_but_the_two_seats(player):
    assert refused(stacked(), player, move("watson")) == "unknown_player"


def finished() -> dict:
    state = stacked()
    while not rules.is_over(state):
        state, _ = rules.apply(state, SYSTEM, {"type": "timeout"})
    return state


def test_it_refuses_a_timeout_when_nobody_is_awaited():
    state = finished()

    assert refused(state, SYSTEM, {"type": "timeout"}) == "nothing_to_time_out"
    assert rules.legal_actions(state, SYSTEM) == []


def test_it_refuses_every_move_after_the_end():
    state = finished()

    assert refused(state, ALICE, move("watson")) == "game_over"
    assert rules.legal_actions(state, ALICE) == rules.legal_actions(state, BOB) == []


def test_it_refuses_a_seat_whose_turn_it_is_not():
    assert refused(stacked(), BOB, move("watson")) == "not_your_turn"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "keep", "card": "map-1"},
        {"type": "von_kramm_reply", "pay": True},
        {"type": "moriarty", "give": "markers"},
        {"type": "moran", "marker": "watson"},
        {"type": "reserve", "card": None},
        {"type": "assign_wildcards", "assign": {}},
    ],
)
def test_it_refuses_a_choice_the_game_is_not_waiting_for(action):
    assert refused(stacked(), ALICE, action) == "wrong_step"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "move", "to": "watson", "ability": None},
        {"type": "move", "from": None, "to": "watson"},
        {"type": "move", "from": None, "to": "watson", "ability": None, "x": 1},
        {"type": "move", "from": 3, "to": "watson", "ability": None},
        {"type": "move", "from": None, "to": None, "ability": None},
        {"type": "move", "from": None, "to": "watson", "ability": []},
    ],
)
def test_it_refuses_a_move_with_a_missing_unknown_or_mistyped_field(action):
    assert refused(stacked(), ALICE, action) == "malformed_action"


def test_it_refuses_a_timeout_with_fields():
    assert refused(stacked(), SYSTEM, {"type": "timeout", "now": True}) == "malformed_action"


def test_it_never_changes_the_state_it_refuses():
    state = stacked()
    before = repr(state)
    for action in [None, {}, move("gregson"), move("watson", {"take": ["x"]})]:
        refused(state, ALICE, action)

    assert repr(state) == before
