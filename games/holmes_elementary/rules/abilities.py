"""The Action phase: a card played for its suit's ability.

The card is shown to everyone and goes to the discard pile before its ability resolves,
so the ability's own draws may reshuffle it back into the deck. The phase ends when the
ability has resolved, a target's or the actor's choice included.
"""

from __future__ import annotations

from games.base import EVERYONE, Event
from games.holmes_elementary.rules.cards import canonical, suit_of
from games.holmes_elementary.rules.state import (
    SLEUTH,
    discard_from_hand,
    draw,
    give,
    hand,
    random_cards,
    show,
    take,
    to_discard,
)
from games.holmes_elementary.rules.turns import ask

DECK_LOOK = 5
ACTION_DISCARDS = 2
LOCALE_DRAW = 3


def play(state: dict, seat: int, card: str, target: int | None) -> list[Event]:
    take(state, seat, [card])
    to_discard(state, [card])
    show(state, EVERYONE, [card])
    events = [Event("played", EVERYONE, {"player": seat, "card": card, "target": target})]
    events += _ABILITIES[suit_of(card)](state, seat, target)
    if state["pending"] is None:
        state["phase"] = SLEUTH
    return events


def _mystery(state: dict, seat: int, target: None) -> list[Event]:
    return draw(state, seat, 2, "mystery")[1]


def _sherlock(state: dict, seat: int, target: None) -> list[Event]:
    """A look at the top of the deck: nothing moves, and an empty deck is not refilled."""
    cards = state["deck"][:DECK_LOOK]
    show(state, (seat,), cards)
    state["players"][seat]["last_look"] = {"kind": "deck", "target": None, "cards": cards}
    return [
        Event("deck_looked", EVERYONE, {"player": seat, "count": len(cards)}),
        Event("deck_top", (seat,), {"cards": cards}),
    ]


def _help(state: dict, seat: int, target: int) -> list[Event]:
    events = draw(state, seat, 1, "help")[1]
    lost = random_cards(state, target, 1)
    return events + discard_from_hand(state, target, lost, "help")


def _action(state: dict, seat: int, target: int) -> list[Event]:
    """The target chooses two cards to discard, unless it holds no more than that."""
    held = hand(state, target)
    if len(held) <= ACTION_DISCARDS:
        return discard_from_hand(state, target, held, "action") if held else []
    return ask(state, "action", target, ACTION_DISCARDS)


def _method(state: dict, seat: int, target: int) -> list[Event]:
    cards = list(hand(state, target))
    show(state, (seat,), cards)
    state["players"][seat]["last_look"] = {"kind": "hand", "target": target, "cards": cards}
    return [
        Event("hand_looked", EVERYONE, {"player": seat, "target": target}),
        Event("hand_shown", (seat,), {"target": target, "cards": cards}),
    ]


def _clue(state: dict, seat: int, target: int) -> list[Event]:
    stolen = random_cards(state, target, 1)
    take(state, target, stolen)
    give(state, seat, stolen)
    data = {"player": seat, "target": target, "count": len(stolen)}
    events = [Event("stole", EVERYONE, data)]
    if stolen:
        events.append(Event("stolen_card", tuple(sorted((seat, target))), {"card": stolen[0]}))
    return events


def _locale(state: dict, seat: int, target: None) -> list[Event]:
    """Draw three and keep one: the drawn cards wait in the hand while the actor chooses."""
    drawn, events = draw(state, seat, LOCALE_DRAW, "locale")
    if len(drawn) > 1:
        return events + ask(state, "locale", seat, 1, options=drawn)
    if drawn:
        events.append(Event("kept", EVERYONE, {"player": seat}))
    return events


def keep(state: dict, seat: int, card: str) -> list[Event]:
    """The Locale card kept; the other drawn cards go to the discard pile."""
    others = [option for option in state["pending"]["options"] if option != card]
    state["pending"] = None
    state["phase"] = SLEUTH
    events = [Event("kept", EVERYONE, {"player": seat})]
    return events + discard_from_hand(state, seat, canonical(others), "locale")


_ABILITIES = {
    "X": _mystery,
    "S": _sherlock,
    "H": _help,
    "A": _action,
    "M": _method,
    "C": _clue,
    "L": _locale,
}
