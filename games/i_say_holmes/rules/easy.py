"""The easy computer player: a newcomer who keeps the story going and little else.

It plays the way a first-time player does: the first card in its hand that follows the
Current card, with no thought for what anyone has seen. So it never counters (its
Alibis and Masterminds stay in hand), never plays the second card the Deduction rule
allows, and plays an I Say card only when nothing else follows and the card earns a
token. Targets, secret choices and accusations are picked at random. Its choices come
from ``seed``, so the same view and seed give the same move.
"""

from __future__ import annotations

import random

from games.i_say_holmes.rules import cards


def easy_action(view: dict, seat: int, legal_actions: list[dict], seed: int = 0) -> dict:
    if len(legal_actions) == 1:
        return legal_actions[0]
    rng = random.Random(seed)
    kinds = {action["type"] for action in legal_actions}
    if "allow" in kinds:
        return {"type": "allow"}  # a newcomer lets every card happen
    if "choose" in kinds or "accuse" in kinds:
        return rng.choice(legal_actions)
    if "end_turn" in kinds:
        return {"type": "end_turn"}  # it does not know the Deduction rule's second card
    return _take_turn(legal_actions, rng)


def _take_turn(legal: list[dict], rng: random.Random) -> dict:
    """The first card in hand that follows, else an I Say card that earns a token, else
    a draw (or keeping the drawn card)."""
    plays = [action for action in legal if action["type"] == "play"]
    story = [action for action in plays if not cards.is_i_say(action["card"])]
    earning = [action for action in plays if cards.is_i_say(action["card"]) and "token" in action]
    for group in (story, earning):
        if group:
            first = group[0]["card"]
            return rng.choice([action for action in group if action["card"] == first])
    others = [action for action in legal if action["type"] != "play"]
    return others[0] if others else rng.choice(legal)
