"""``apply`` copies only what an action changes and shares the rest with its input, so
these playouts check the sharing: no action may change its input state, nor any earlier
state of the game, and every new state stays JSON."""

import json
import random

import pytest

from games.base import SYSTEM, Refusal
from games.holmes_elementary import rules
from games.holmes_elementary.rules.cards import ALL_CARDS, canonical
from games.holmes_elementary.rules.state import add_ids


def snapshot(state: dict) -> dict:
    return json.loads(json.dumps(state))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_no_action_changes_its_input_or_an_earlier_state(players):
    applied = sum(play_and_check(seed, players) for seed in range(1, 7))

    assert applied > 300


def play_and_check(seed: int, players: int) -> int:
    """One game of random listed actions (the timer now and then); how many applied."""
    chance = random.Random(seed)
    names = [f"p{n}" for n in range(players)]
    state = rules.setup({"max_rounds": 15}, names, seed)
    history = [(state, snapshot(state))]
    for _ in range(400):
        if rules.is_over(state):
            break
        before = history[-1][1]
        waiting = rules.waiting_for(state)
        seat = waiting[0]
        legal = rules.legal_actions(state, seat)
        # Several listed actions, tried on the same state: none may leave a trace in it.
        for action in chance.sample(legal, min(6, len(legal))):
            assert not isinstance(rules.apply(state, seat, action), Refusal)
            assert state == before, f"applying {action} changed its input"
        actor = SYSTEM if chance.random() < 0.05 else seat
        action = chance.choice(rules.legal_actions(state, actor))
        result = rules.apply(state, actor, action)
        assert not isinstance(result, Refusal), result
        state = result[0]
        assert state == snapshot(state), "the new state does not survive JSON"
        history.append((state, snapshot(state)))
    for number, (earlier, copy) in enumerate(history):
        assert earlier == copy, f"state {number} changed after later actions"
    return len(history) - 1


def test_adding_ids_to_a_seen_string_keeps_it_canonical():
    chance = random.Random(7)
    for _ in range(300):
        held = chance.sample(ALL_CARDS, chance.randrange(0, 40))
        new = chance.sample(ALL_CARDS, chance.randrange(0, 8)) + held[:2]
        text = "".join(canonical(held))

        assert add_ids(text, new) == "".join(canonical(set(held) | set(new)))
