"""The easy computer player: plays sensible cards without keeping notes.

It never reads what it has seen this case, so it neither hunts a villain it has found nor
hides one it holds from a player who saw it. On its turn it mostly plays its card of
highest case points, at a random target, and every other move is any legal move at all;
it counters an arrest only one time in four. Its choices come from ``seed``, so the same view
and seed give the same move.
"""

from __future__ import annotations

import random

from games.i_say_holmes.rules import cards

# How often it makes any legal move instead of its usual one.
WHIM = 0.5
# How often it counters an arrest or a look while it holds a villain.
CAUTION = 0.25
ARRESTS = ("ARREST", "LOOK+", "IMPROMPTU", "LOOK")


def easy_action(view: dict, seat: int, legal_actions: list[dict], seed: int = 0) -> dict:
    if len(legal_actions) == 1:
        return legal_actions[0]
    rng = random.Random(seed)
    kinds = {action["type"] for action in legal_actions}
    if "allow" in kinds:
        return _answer_window(view, legal_actions, rng)
    if "choose" in kinds or "accuse" in kinds:
        return rng.choice(legal_actions)
    if rng.random() < WHIM:
        return rng.choice(legal_actions)
    return _take_turn(legal_actions, rng)


def _answer_window(view: dict, legal: list[dict], rng: random.Random) -> dict:
    counters = [action for action in legal if action["type"] == "counter"]
    holds_villain = any(card["type"] == cards.VILLAIN for card in view["you"]["hand"])
    threatened = view["pending"]["instruction"] in ARRESTS
    if counters and holds_villain and threatened and rng.random() < CAUTION:
        return rng.choice(counters)
    return {"type": "allow"}


def _take_turn(legal: list[dict], rng: random.Random) -> dict:
    """Its highest card that follows (an I Say card only for a token), any fields."""
    plays = [action for action in legal if action["type"] == "play" and _worth(action)]
    if not plays:
        others = [action for action in legal if action["type"] != "play"]
        return others[0] if others else rng.choice(legal)
    top = max(cards.cp(action["card"]) for action in plays)
    return rng.choice([action for action in plays if cards.cp(action["card"]) == top])


def _worth(action: dict) -> bool:
    return not cards.is_i_say(action["card"]) or "token" in action
