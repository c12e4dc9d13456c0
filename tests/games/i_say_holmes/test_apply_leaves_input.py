"""``apply`` shares what an action leaves alone with its input (copy on write): it must
never change that input, whatever the action, and the 125 cards stay conserved.

Seeded random playouts at 3, 5 and 8 seats (fast play too), with the server's timeouts
and a few of the computer player's moves mixed in: after each apply the input still
equals a JSON snapshot taken before it, and the result survives JSON.
"""

import json
import random
from collections import Counter

import pytest

from games.base import SYSTEM, Refusal
from games.i_say_holmes import rules
from games.i_say_holmes.rules import cards
from games.i_say_holmes.rules.bot import bot_action

from .helpers import NAMES

STEPS = 400


def snapshot(state: dict) -> dict:
    return json.loads(json.dumps(state))


def card_count(state: dict) -> Counter:
    """Every card the state holds, wherever it is."""
    held = [card for hand in state["hands"] for card in hand]
    held += state["draw"] + state["discard"] + state["set_aside"]
    if state["current"]:
        held.append(state["current"]["card"])
    return Counter(held)


def a_move(state: dict, rng: random.Random) -> tuple[object, dict]:
    waiting = rules.waiting_for(state)
    if not waiting or rng.random() < 0.05:
        return SYSTEM, rng.choice(rules.legal_actions(state, SYSTEM))
    seat = rng.choice(waiting)
    legal = rules.legal_actions(state, seat)
    if rng.random() < 0.3:
        return seat, bot_action(rules.view(state, seat), seat, legal, 0)
    return seat, rng.choice(legal)


@pytest.mark.parametrize("players", [3, 5, 8])
@pytest.mark.parametrize("fast_play", [False, True])
def test_apply_never_changes_its_input_and_the_cards_stay_conserved(players, fast_play):
    rng = random.Random(players * 10 + fast_play)
    everything = Counter(cards.LEDGER_ORDER)
    assert sum(everything.values()) == 125
    applied, games = 0, 0
    while applied < STEPS:
        games += 1
        state = rules.setup({"options": {"fast_play": fast_play}}, NAMES[:players], games)
        while not rules.is_over(state) and applied < STEPS:
            before = snapshot(state)
            actor, action = a_move(state, rng)
            result = rules.apply(state, actor, action)
            assert not isinstance(result, Refusal), (actor, action, result)
            assert state == before, f"applying {action!r} for {actor!r} changed its input"
            new_state, events = result
            assert snapshot(new_state) == new_state
            assert json.loads(json.dumps([event.to_dict() for event in events]))
            assert card_count(new_state) == everything
            # Applying again to the same input gives the same result: nothing leaked
            # from the first result back into the input.
            assert rules.apply(state, actor, action)[0] == new_state
            state = new_state
            applied += 1
