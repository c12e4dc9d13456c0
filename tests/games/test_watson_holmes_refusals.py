"""A player's mistake is never an exception: every one gets a code and a plain sentence."""

import pytest

from games.base import SYSTEM, Refusal
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import ALICE, BOB, DONE, new_game, play, refusal, visit

MALFORMED = [
    None,
    "visit",
    [],
    {},
    {"type": 3},
    {"type": "visit"},
    {"type": "visit", "location": "2"},
    {"type": "visit", "location": 2.5},
    {"type": "visit", "location": True},
    {"type": "visit", "location": 2, "carriages": -1},
    {"type": "visit", "location": 2, "carriages": "two"},
    {"type": "visit", "location": 2, "carriages": True},
    {"type": "visit", "location": 2, "call_off": "yes"},
    {"type": "visit", "location": 2, "character": "moriarty"},
    {"type": "visit", "location": 2, "character": ["toby"]},
    {"type": "visit", "location": [2]},
    {"type": "fly", "location": 2},
    {"type": "answer"},
    {"type": "answer", "answers": ["x"]},
    {"type": "answer", "answers": {"culprit": 1, "place": 2}},
    {"type": "note", "text": "the notebook is the server's"},
    {"type": "holmes_check", "question": "culprit", "answer": None},
    {"type": "holmes_consult", "target": "alice"},
    {"type": "character"},
    {"type": "character", "character": {"name": "toby"}},
    {"type": "watson_read", "location": {}},
    {"type": "place_police", "location": None},
    {"type": "mycroft_read", "location": None},
    {"type": "rule", "request": "x", "verdict": 1},
    {"type": "judged"},
    {"type": "watson_read", "location": "2"},
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
@pytest.mark.parametrize("player", [ALICE, BOB, SYSTEM, -1, 9, None, "alice", True])
def test_it_refuses_malformed_actions_without_raising(action, player):
    result = engine.apply(new_game(2), player, action)
    assert isinstance(result, Refusal)
    assert result.code and result.message.endswith((".", "!", ")"))


def test_it_refuses_a_move_in_the_wrong_phase():
    state, _ = play(new_game(2), (ALICE, visit(2)), (BOB, visit(8)))
    assert refusal(state, ALICE, visit(3)).code == "wrong_phase"
    assert refusal(new_game(2), ALICE, DONE).code == "wrong_phase"


def test_it_refuses_a_move_out_of_turn_naming_whose_turn_it_is():
    found = refusal(new_game(2), BOB, visit(2))
    assert found.code == "not_your_turn"
    assert found.message == "It is alice's turn to choose a location."


def test_it_refuses_every_action_once_the_game_is_over():
    from tests.games.watson_holmes_helpers import BAKER_STREET, CARRIAGE_STOP, answers, judge

    state, _ = play(new_game(1), (ALICE, BAKER_STREET), (ALICE, answers()))
    state, _ = judge(state, ALICE, "correct", "correct")
    assert refusal(state, ALICE, CARRIAGE_STOP).code == "game_over"
    assert refusal(state, SYSTEM, {"type": "timeout"}).code == "game_over"
    assert engine.legal_actions(state, ALICE) == []


def test_it_turns_refusals_into_plain_dicts():
    assert refusal(new_game(2), BOB, visit(2)).to_dict()["code"] == "not_your_turn"
