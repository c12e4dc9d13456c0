"""The Sleuth phase: a case is seven cards, one of each suit, no two of the same rank."""

from __future__ import annotations

from games.base import EVERYONE, Event
from games.holmes_elementary.rules.cards import SUITS, canonical, rank_of, suit_of
from games.holmes_elementary.rules.state import (
    DEDUCTION,
    show,
    take,
    to_discard,
)
from games.holmes_elementary.rules.turns import finish, gain_token, won

CASE_SIZE = len(SUITS)


def case_problem(cards: list[str]) -> tuple[str, str] | None:
    """Why seven distinct cards from a hand are no case, or ``None`` when they are."""
    if {suit_of(card) for card in cards} != set(SUITS):
        return "case_needs_every_suit", "A case holds one card of each of the seven suits."
    if len({rank_of(card) for card in cards}) != CASE_SIZE:
        return "case_ranks_repeat", "No two cards of a case may share a rank."
    return None


def every_case(held: list[str]) -> list[list[str]]:
    """Every case the hand can make, in canonical order (depth first: suit order, then
    rank). A hand of at most 12 cards makes at most 32."""
    by_suit = [[card for card in held if suit_of(card) == suit] for suit in SUITS]
    found: list[list[str]] = []

    def extend(chosen: list[str], ranks: set[int]) -> None:
        if len(chosen) == CASE_SIZE:
            found.append(list(chosen))
            return
        for card in by_suit[len(chosen)]:
            if rank_of(card) not in ranks:
                extend([*chosen, card], ranks | {rank_of(card)})

    extend([], set())
    return found


def solve(state: dict, seat: int, cards: list[str]) -> list[Event]:
    cards = canonical(cards)
    take(state, seat, cards)
    to_discard(state, cards)
    show(state, EVERYONE, cards)
    player = state["players"][seat]
    player["cases"] += 1
    gain_token(state, seat)
    data = {"player": seat, "cards": cards, "tokens": player["tokens"]}
    events = [Event("case_solved", EVERYONE, data)]
    if won(state, seat):
        return events + finish(state, "five_tokens")
    state["phase"] = DEDUCTION
    return events
