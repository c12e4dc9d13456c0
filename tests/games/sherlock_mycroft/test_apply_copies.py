"""``apply`` copies only what an action changes and shares the rest with its input, so
these playouts check the sharing: no action may change its input state, nor any earlier
state of the game, and every new state stays JSON."""

import json
import random

import pytest

from games.base import SYSTEM, Refusal
from games.sherlock_mycroft import rules
from games.sherlock_mycroft.rules import characters

ALL_VARIANTS = {"reserve_card": True, "moriarty": True, "moran": True}


def snapshot(state: dict) -> dict:
    return json.loads(json.dumps(state))


@pytest.mark.parametrize("variants", [{}, ALL_VARIANTS], ids=["plain", "every_variant"])
def test_no_action_changes_its_input_or_an_earlier_state(variants):
    applied = sum(play_and_check(seed, variants) for seed in range(1, 9))

    assert applied > 300


def play_and_check(seed: int, variants: dict) -> int:
    """One game of random listed actions (the timer now and then); how many applied."""
    chance = random.Random(seed)
    state = rules.setup({"options": variants, "first": "random"}, ["a", "b"], seed)
    history = [(state, snapshot(state))]
    applied = 0
    while not rules.is_over(state):
        before = history[-1][1]
        seat = rules.turn(state)
        legal = rules.legal_actions(state, seat)
        # Every listed action, tried on the same state: none may leave a trace in it.
        for action in chance.sample(legal, min(6, len(legal))):
            assert not isinstance(rules.apply(state, seat, action), Refusal)
            assert state == before, f"applying {action} changed its input"
        actor = SYSTEM if chance.random() < 0.1 else seat
        action = chance.choice(rules.legal_actions(state, actor))
        result = rules.apply(state, actor, action)
        assert not isinstance(result, Refusal), result
        state = result[0]
        assert state == snapshot(state), "the new state does not survive JSON"
        history.append((state, snapshot(state)))
        applied += 1
    for number, (earlier, copy) in enumerate(history):
        assert earlier == copy, f"state {number} changed after later actions"
    return applied


def test_the_usable_abilities_are_the_candidates_check_ability_accepts():
    """``legal_actions`` lists ``usable_abilities`` without checking each candidate."""
    compared = 0
    for seed in range(1, 7):
        chance = random.Random(seed)
        state = rules.setup({"options": ALL_VARIANTS, "first": "random"}, ["a", "b"], seed)
        while not rules.is_over(state):
            # The prices are the limits that matter: try few markers too.
            for tokens in (None, 0, 1, 2, 3, 6):
                trial = state if tokens is None else {**state, "tokens": [tokens, tokens]}
                compared += compare_abilities(trial)
            seat = rules.turn(state)
            action = chance.choice(rules.legal_actions(state, seat))
            state = rules.apply(state, seat, action)[0]
    assert compared > 1000


def compare_abilities(state: dict) -> int:
    compared = 0
    for seat in (0, 1):
        for character in [card["id"] for card in state["board"]]:
            candidates = characters.candidate_abilities(state, seat, character)
            accepted = [a for a in candidates if accepts(state, seat, character, a)]
            assert characters.usable_abilities(state, seat, character) == accepted
            compared += 1
    return compared


def accepts(state: dict, seat: int, character: str, ability: dict) -> bool:
    return not isinstance(characters.check_ability(state, seat, character, ability), Refusal)
