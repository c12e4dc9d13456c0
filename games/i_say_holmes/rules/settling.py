"""Settling after every action: escapes, Impromptu Arrests, then the turn goes on.

Once no window or choice is open the engine looks, from the seat on turn clockwise, for a
hand that escapes (Villains and Interrupts only), then for a hand that must make an
Impromptu Arrest (empty, or Interrupts only). With neither, what the last card left due
(``state["resume"]``) happens: step ``more`` for the same player, or the next turn.
"""

from __future__ import annotations

from games.base import Event
from games.i_say_holmes.rules import cards, closing
from games.i_say_holmes.rules.state import (
    ACCUSE,
    DEDUCTION_HAND,
    MAX_TURNS_PER_CASE,
    MORE,
    OVER,
    PLAY,
    clockwise_from,
    may_escape,
    owned,
)


def settle(state: dict) -> list[Event]:
    """Settle until nothing is left to do: a case that closes here (an escape, a cold
    case) deals the next, whose first turn then begins."""
    events = []
    while more := _settle_once(state):
        events += more
    return events


def _settle_once(state: dict) -> list[Event]:
    if state["pending"] or state["phase"] == OVER:
        return []
    # Hands of Villains and Interrupts only (or empty), clockwise from the seat on turn:
    # the first with a Villain escapes; else the first (all Interrupts) must arrest.
    cornered = [
        seat for seat, held in enumerate(state["hands"]) if cards.ESCAPING_CARDS.issuperset(held)
    ]
    if cornered:
        first, count = state["turn"]["seat"], len(state["hands"])
        cornered.sort(key=lambda seat: (seat - first) % count)
        escaper = next((seat for seat in cornered if may_escape(state, seat)), None)
        if escaper is not None:
            return closing.close_escape(state, escaper)
        if state["impromptu"] is None:
            state["impromptu"] = {"arrester": cornered[0], "countered": []}
    if state["impromptu"] is not None:
        return open_accusation(state)
    return resume(state)


def resume(state: dict) -> list[Event]:
    due, state["resume"] = state["resume"], None
    if due == MORE:
        owned(state, "turn")["step"] = MORE
        return [Event("step", data={"seat": state["turn"]["seat"], "step": MORE})]
    if due == "next":
        return begin_turn(state, state["current"]["holder"])
    return []


def begin_turn(state: dict, seat: int) -> list[Event]:
    count = state["turn"]["count"] + 1
    if count >= MAX_TURNS_PER_CASE:
        return closing.close_cold(state, "too_long")
    deduction = len(state["hands"][seat]) >= DEDUCTION_HAND
    state["turn"] = {"seat": seat, "step": PLAY, "deduction": deduction, "count": count}
    return [Event("turn", data={"seat": seat, "deduction": deduction})]


def accusable(state: dict) -> list[int]:
    """Whom the Impromptu arrester may name: another seat holding a card that has not
    countered this arrest, or any such seat once they all have."""
    arrester = state["impromptu"]["arrester"]
    holding = [seat for seat in clockwise_from(state, arrester)[1:] if state["hands"][seat]]
    fresh = [seat for seat in holding if seat not in state["impromptu"]["countered"]]
    return fresh or holding


def open_accusation(state: dict) -> list[Event]:
    arrester = state["impromptu"]["arrester"]
    if not accusable(state):
        return closing.close_cold(state, "nobody_to_accuse")
    state["pending"] = {"kind": ACCUSE, "seat": arrester}
    return [Event("impromptu", data={"seat": arrester})]
