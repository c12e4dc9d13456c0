"""The state's vocabulary and the small moves every part of the engine makes with cards.

The state is a plain JSON-able dict built by ``setup.py``. Nothing here checks whether a
move is allowed: callers have done that. Functions that take a state change it in place,
so callers hand them a fresh ``clone``.
"""

from __future__ import annotations

from games.base import EVERYONE, Event
from games.holmes_elementary.rules.cards import SUITS, canonical, suit_of
from games.rng import below, shuffled

NAME = "holmes_elementary"

# The phases a turn shows. Investigate runs by itself when a turn starts, and Retire only
# shows while its player chooses what to discard.
ACTION = "action"
SLEUTH = "sleuth"
DEDUCTION = "deduction"
RETIRE = "retire"
OVER = "over"
PHASE_ORDER = (ACTION, SLEUTH, DEDUCTION, RETIRE)

HAND_LIMIT = 9
TOKENS_TO_WIN = 5
# One more token than six players can hold without anyone reaching five.
TOKEN_SUPPLY = 25
DEFAULT_MAX_ROUNDS = 40


def clone(state: dict) -> dict:
    """A copy that the engine may change: every container it changes in place is copied
    (a generic deep copy would cost most of an action): the top level, each player's
    entry and the deck. Everything else is shared with the input, so the engine only
    ever replaces it whole: hands, the discard pile, the spots emptied, a player's
    correct guesses, the last look, a pending choice, the result. The tests check that
    ``apply`` never changes its input, nor any earlier state of a game."""
    new = state.copy()
    new["players"] = [player.copy() for player in state["players"]]
    new["deck"] = list(state["deck"])
    return new


def seats(state: dict) -> range:
    return range(len(state["players"]))


def hand(state: dict, seat: int) -> list[str]:
    return state["players"][seat]["hand"]


def is_seat(state: dict, value: object) -> bool:
    return type(value) is int and 0 <= value < len(state["players"])


# --- what players have seen -----------------------------------------------------------------


# Some sets of cards are kept as one string of ids ("X01S05..."): a seat's notes, the
# spot cards it saw, its wrong guesses (the ids it named). The server copies and
# serialises the whole state many times per action, and one string costs far less to
# copy and serialise than a list of seventy, or a dict per guess.
ID_LENGTH = 3


# With the suits' letters turned into a..g, ids sort as plain strings in canonical order.
_SORTABLE = str.maketrans("".join(SUITS), "abcdefg")


def split_ids(text: str) -> list[str]:
    return [text[start : start + ID_LENGTH] for start in range(0, len(text), ID_LENGTH)]


def seen_cards(player: dict) -> list[str]:
    """The ids a seat has held or been shown, in canonical order."""
    return split_ids(player["seen"])


def barred_suits(player: dict) -> list[str]:
    """The spots a seat guessed wrong, and may no longer guess, in the order it did."""
    return [suit_of(guess) for guess in split_ids(player["wrong"])]


def spot_is_open(state: dict, suit: str) -> bool:
    return suit not in state["emptied_by"]


def show(state: dict, audience, cards) -> None:
    """Record that the seats in ``audience`` (or everyone) have now seen ``cards``."""
    who = seats(state) if audience == EVERYONE else audience
    cards = list(cards)
    for seat in who:
        player = state["players"][seat]
        player["seen"] = add_ids(player["seen"], cards)


def add_ids(text: str, cards) -> str:
    """``text`` (ids in canonical order, each once) with ``cards`` added where they belong,
    each once. No id is split apart: a search for an id only finds whole ids (an id is a
    letter then two digits)."""
    for card in cards:
        if card in text:
            continue
        key = card.translate(_SORTABLE)
        keys = text.translate(_SORTABLE)
        low, high = 0, len(text) // ID_LENGTH
        while low < high:
            middle = (low + high) // 2
            start = middle * ID_LENGTH
            if keys[start : start + ID_LENGTH] < key:
                low = middle + 1
            else:
                high = middle
        cut = low * ID_LENGTH
        text = text[:cut] + card + text[cut:]
    return text


# --- moving cards ---------------------------------------------------------------------------


def give(state: dict, seat: int, cards) -> None:
    """Put ``cards`` in a seat's hand (which remembers having held them)."""
    player = state["players"][seat]
    player["hand"] = canonical([*player["hand"], *cards])
    show(state, (seat,), cards)


def take(state: dict, seat: int, cards) -> None:
    player = state["players"][seat]
    gone = set(cards)
    player["hand"] = [card for card in player["hand"] if card not in gone]


def to_discard(state: dict, cards) -> None:
    state["discard"] = canonical([*state["discard"], *cards])


def draw(state: dict, seat: int, count: int, reason: str) -> tuple[list[str], list[Event]]:
    """Draw ``count`` cards into a seat's hand, reshuffling the discard pile when the deck
    runs out; the draw stops short when both are empty."""
    drawn: list[str] = []
    events: list[Event] = []
    while len(drawn) < count:
        if not state["deck"]:
            if not state["discard"]:
                break
            events.append(reshuffle(state))
        drawn.append(state["deck"].pop(0))
    give(state, seat, drawn)
    events.append(Event("drew", EVERYONE, {"player": seat, "count": len(drawn), "reason": reason}))
    if drawn:
        events.append(Event("drew_cards", (seat,), {"cards": canonical(drawn), "reason": reason}))
    return drawn, events


def reshuffle(state: dict) -> Event:
    """The discard pile, shuffled, becomes the deck; what anyone saw of it is now stale."""
    count = len(state["discard"])
    state["deck"], state["rng"] = shuffled(canonical(state["discard"]), state["rng"])
    state["discard"] = []
    for player in state["players"]:
        player["discard_looked"] = 0
    return Event("reshuffled", EVERYONE, {"count": count})


def random_cards(state: dict, seat: int, count: int) -> list[str]:
    """``count`` cards picked at random from a seat's hand (not removed)."""
    left = list(hand(state, seat))
    picked = []
    for _ in range(min(count, len(left))):
        index, state["rng"] = below(state["rng"], len(left))
        picked.append(left.pop(index))
    return canonical(picked)


def discard_from_hand(state: dict, seat: int, cards, reason: str) -> list[Event]:
    """A seat throws ``cards`` away: everyone learns how many, only the seat which."""
    cards = canonical(cards)
    take(state, seat, cards)
    to_discard(state, cards)
    data = {"player": seat, "count": len(cards), "reason": reason}
    events = [Event("discarded", EVERYONE, data)]
    if cards:
        events.append(Event("discarded_cards", (seat,), {"cards": cards, "reason": reason}))
    return events
