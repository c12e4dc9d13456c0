"""House rules of the Elementary deck that change what a player may do."""

from games.base import Refusal
from games.holmes_elementary import GAME
from games.holmes_elementary.rules import apply, legal_actions, setup, waiting_for


def deduction_state(look: bool) -> dict:
    config = GAME.example_config(3)
    config["options"]["discard_look"] = look
    state = setup(config, ["alice", "bob", "charlie"], 7)
    # Pass through the first phases until the player to move may deduce.
    for _ in range(20):
        seat = waiting_for(state)[0]
        legal = legal_actions(state, seat)
        if any(action["type"] == "guess" for action in legal):
            return state
        passing = next(action for action in legal if action["type"] == "pass")
        state = apply(state, seat, passing)[0]
    raise AssertionError("never reached the Deduction phase")


def test_it_lets_a_player_look_at_the_discard_pile_by_default():
    state = deduction_state(True)
    seat = waiting_for(state)[0]
    assert {"type": "view_discard"} in legal_actions(state, seat)


def test_a_table_may_take_the_look_at_the_discard_pile_away():
    state = deduction_state(False)
    seat = waiting_for(state)[0]
    assert {"type": "view_discard"} not in legal_actions(state, seat)
    refused = apply(state, seat, {"type": "view_discard"})
    assert isinstance(refused, Refusal) and refused.code == "no_discard_look"
