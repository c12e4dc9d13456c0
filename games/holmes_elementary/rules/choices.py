"""Answering a pending choice (a discard, Locale's keep), and what the timer does.

Pending kinds: ``action`` (the target of an Action card discards two), ``locale`` (the
actor keeps one of the cards it drew), ``deduction`` (draw one, discard one) and
``retire`` (discard down to the hand limit).
"""

from __future__ import annotations

from games.base import EVERYONE, Event
from games.holmes_elementary.rules.abilities import keep
from games.holmes_elementary.rules.state import SLEUTH, discard_from_hand, random_cards
from games.holmes_elementary.rules.turns import after_deduction, end_turn, retire_at_random


def discard(state: dict, seat: int, cards: list[str]) -> list[Event]:
    kind = state["pending"]["kind"]
    state["pending"] = None
    events = discard_from_hand(state, seat, cards, kind)
    return events + _after_choice(state, kind)


def _after_choice(state: dict, kind: str) -> list[Event]:
    if kind == "action":
        state["phase"] = SLEUTH  # the actor's turn goes on
        return []
    if kind == "deduction":
        return after_deduction(state)
    return end_turn(state)  # retire


def timeout(state: dict) -> list[Event]:
    """The timer settles the current wait only, the default way."""
    pending = state["pending"]
    if pending is None:
        return _turn_timeout(state)
    seat, kind = pending["player"], pending["kind"]
    events = [Event("timeout", EVERYONE, {"player": seat, "kind": kind})]
    if kind == "locale":
        return events + keep(state, seat, pending["options"][0])
    if kind == "deduction":
        return events + discard(state, seat, [pending["drawn"]])
    return events + discard(state, seat, random_cards(state, seat, pending["count"]))


def _turn_timeout(state: dict) -> list[Event]:
    """The player on turn passes the rest of it; Retire throws any excess at random."""
    seat = state["current"]
    events = [Event("timeout", EVERYONE, {"player": seat, "kind": "turn"})]
    return events + retire_at_random(state)
