"""Closing a case (a Guilty arrest, an escape or a cold case) and ending the game."""

from __future__ import annotations

from games.base import Event
from games.i_say_holmes.rules import cards, table, tokens
from games.i_say_holmes.rules.state import (
    HARD_CASE_LIMIT,
    OVER,
    clone,
    owned,
    owned_holdings,
    owned_pool,
    seat_count,
)


def close_guilty(state: dict, arrester: int, accused: int) -> list[Event]:
    """The arrester keeps the accused's Villains, everyone else's are discarded unseen,
    and the arrester takes the Case Closed token the grand total reaches."""
    hands = owned(state, "hands")
    discard = owned(state, "discard")
    arrested = [card for card in hands[accused] if cards.is_villain(card)]
    discard += hands[arrester]
    hands[arrester] = []
    for seat in range(seat_count(state)):
        if seat not in (arrester, accused):
            discard += [card for card in hands[seat] if cards.is_villain(card)]
        hands[seat] = [card for card in hands[seat] if not cards.is_villain(card)]
    hands[arrester] = arrested
    totals = [sum(cards.cp(card) for card in held) for held in hands]
    grand_total = sum(totals)
    book = max(
        (name for name in state["pool"]["books"] if tokens.BOOK_THRESHOLD[name] <= grand_total),
        key=tokens.BOOK_THRESHOLD.__getitem__,
    )
    owned_pool(state, "books").remove(book)
    owned_holdings(state, arrester, "books").append(book)
    summary = {
        "how": "guilty",
        "seat": arrester,
        "accused": accused,
        "villains": [cards.row(card).title for card in arrested],
        "totals": totals,
        "grand_total": grand_total,
        "book": book,
    }
    return finish_case(state, summary)


def close_escape(state: dict, seat: int) -> list[Event]:
    """``seat`` shows a hand of Villains and Interrupts and takes their Villain tokens."""
    held = state["hands"][seat]
    escaped = [cards.row(card).slug for card in held if cards.is_villain(card)]
    for slug in escaped:
        _take_villain_token(state, seat, slug)
    events = [Event("escape", data={"seat": seat, "hand": [cards.public_card(c) for c in held]})]
    summary = {
        "how": "escape",
        "seat": seat,
        "hand": [cards.row(card).title for card in held],
        "villains": [tokens.VILLAIN_NAMES[slug] for slug in escaped],
    }
    return events + finish_case(state, summary)


def _take_villain_token(state: dict, seat: int, slug: str) -> None:
    if slug in state["pool"]["villains"]:
        owned_pool(state, "villains").remove(slug)
    else:
        for other, held in enumerate(state["holdings"]):
            if slug in held["villains"]:
                owned_holdings(state, other, "villains").remove(slug)
    owned_holdings(state, seat, "villains").append(slug)


def close_cold(state: dict, why: str) -> list[Event]:
    """Nobody takes anything: no one left to accuse, or the case ran too long."""
    return finish_case(state, {"how": "cold", "seat": state["turn"]["seat"], "why": why})


def finish_case(state: dict, summary: dict) -> list[Event]:
    """Count the case, gather the cards, then end the game or deal the next case (its
    first turn begins as settling goes on)."""
    state["cases_closed"] += 1
    summary = {"case": state["case"], **summary}
    state["last_case"] = summary
    everything = [card for held in state["hands"] for card in held]
    everything += state["draw"] + state["discard"] + state["set_aside"]
    if state["current"]:
        everything.append(state["current"]["card"])
    state.update(
        draw=cards.in_ledger_order(everything),
        hands=[[] for _ in state["hands"]],
        discard=[],
        set_aside=[],
        current=None,
        drawn=None,
        resume=None,
        impromptu=None,
        pending=None,
    )
    owned(state, "turn")["step"] = None
    events = [Event("case_closed", data=dict(summary))]
    if summary.get("book") == tokens.LAST_BOW:
        return events + end_game(state, "his_last_bow")
    # max_cases 0: until His Last Bow, or the hard stop, whichever comes first.
    if state["cases_closed"] >= (state["max_cases"] or HARD_CASE_LIMIT):
        return events + end_game(state, "max_cases")
    return events + table.start_case(state)


def end_game(state: dict, reason: str) -> list[Event]:
    points = tokens.scores(state)
    count = seat_count(state)
    tie_break = [
        [
            len(state["holdings"][seat]["books"]),
            len(state["holdings"][seat]["villains"]),
            len(tokens.public_holdings(state, seat)["i_say"]),
        ]
        for seat in range(count)
    ]
    best = max((points[seat], *tie_break[seat]) for seat in range(count))
    winners = [seat for seat in range(count) if (points[seat], *tie_break[seat]) == best]
    state["phase"] = OVER
    state["result"] = {
        "winners": winners,
        "scores": {str(seat): points[seat] for seat in range(count)},
        "tie_break": {str(seat): tie_break[seat] for seat in range(count)},
        "reason": reason,
        "tokens": [tokens.revealed(state, seat) for seat in range(count)],
    }
    return [Event("game_over", data=clone(state["result"]))]
