"""The easy bot: the normal bot's notes and hand-keeping, with less initiative.

It solves a case as soon as it holds one and guesses only spots its notes narrow to a
single rank, like the normal bot. But in the Action phase it plays only the cards that
simply draw (Mystery, Locale), never one aimed at an opponent or one that shows it
cards, and in the Deduction phase it never looks at the discard pile: without a sure
guess it draws one card and discards one. So it learns the hidden cards mostly from
what passes through its own hand.
"""

from __future__ import annotations

from games.holmes_elementary.rules.bot import bot_action, decide, spare_cards
from games.holmes_elementary.rules.cards import suit_of

DRAWING_SUITS = ("L", "X")


def easy_action(view: dict, seat: int, legal: list[dict], seed: int) -> dict:
    action = _decide(view, seat, legal)
    return action if action in legal else bot_action(view, seat, legal, seed)


def _decide(view: dict, seat: int, legal: list[dict]) -> dict:
    usual = decide(view, seat, legal)
    if view["pending"] is not None or usual["type"] in ("solve", "guess"):
        return usual
    if view["phase"] == "action":
        if any(action["type"] == "solve" for action in legal):
            return {"type": "pass"}
        return _draw_card(view) or {"type": "draw_discard"}
    return {"type": "draw_discard"}


def _draw_card(view: dict) -> dict | None:
    spare = spare_cards([card["id"] for card in view["you"]["hand"]])
    for suit in DRAWING_SUITS:
        cards = [card for card in spare if suit_of(card) == suit]
        if cards:
            return {"type": "play", "card": cards[-1]}
    return None
