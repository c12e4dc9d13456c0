"""The Deduction phase: guess a spot's rank, or draw one and discard one, or look at the
discard pile, or nothing."""

from __future__ import annotations

from games.base import EVERYONE, Event
from games.holmes_elementary.rules.cards import card_id, rank_of
from games.holmes_elementary.rules.state import (
    barred_suits,
    discard_from_hand,
    draw,
    hand,
    show,
    spot_is_open,
    to_discard,
)
from games.holmes_elementary.rules.turns import after_deduction, ask, finish, gain_token, won


def may_guess(state: dict, seat: int, suit: str) -> bool:
    return spot_is_open(state, suit) and suit not in barred_suits(state["players"][seat])


def guess(state: dict, seat: int, suit: str, rank: int) -> list[Event]:
    card = state["spots"][suit]
    data = {"player": seat, "suit": suit, "rank": rank, "correct": rank_of(card) == rank}
    if data["correct"]:
        return _right_guess(state, seat, suit, data)
    return _wrong_guess(state, seat, suit, data)


def _right_guess(state: dict, seat: int, suit: str, data: dict) -> list[Event]:
    """The card is shown to all and discarded; the spot stays empty from now on."""
    card = state["spots"][suit]
    state["emptied_by"] = {**state["emptied_by"], suit: seat}
    to_discard(state, [card])
    show(state, EVERYONE, [card])
    player = state["players"][seat]
    player["correct"] = [*player["correct"], suit]
    gain_token(state, seat)
    events = [Event("guessed", EVERYONE, {**data, "card": card, "tokens": player["tokens"]})]
    if won(state, seat):
        return events + finish(state, "five_tokens")
    return events + after_deduction(state)


def _wrong_guess(state: dict, seat: int, suit: str, data: dict) -> list[Event]:
    """Only the guesser sees the card; it throws its hand away and may not guess here again."""
    card = state["spots"][suit]
    player = state["players"][seat]
    player["wrong"] += card_id(suit, data["rank"])
    player["seen_spots"] += card
    show(state, (seat,), [card])
    events = [
        Event("guessed", EVERYONE, data),
        Event("spot_seen", (seat,), {"suit": suit, "card": card}),
    ]
    events += discard_from_hand(state, seat, list(hand(state, seat)), "wrong_guess")
    return events + after_deduction(state)


def can_draw(state: dict) -> bool:
    return bool(state["deck"] or state["discard"])


def draw_discard(state: dict, seat: int) -> list[Event]:
    """Draw one card, then discard one (the engine waits for which, unless only one)."""
    drawn, events = draw(state, seat, 1, "deduction")
    held = hand(state, seat)
    if len(held) == 1:
        return events + discard_from_hand(state, seat, held, "deduction") + after_deduction(state)
    return events + ask(state, "deduction", seat, 1, drawn=drawn[0])


def view_discard(state: dict, seat: int) -> list[Event]:
    """One private look at the whole pile, in canonical order."""
    cards = list(state["discard"])
    player = state["players"][seat]
    show(state, (seat,), cards)
    player["last_look"] = {"kind": "discard", "target": None, "cards": cards}
    player["discard_looked"] = len(cards)
    events = [
        Event("discard_viewed", EVERYONE, {"player": seat, "count": len(cards)}),
        Event("discard_contents", (seat,), {"cards": cards}),
    ]
    return events + after_deduction(state)
