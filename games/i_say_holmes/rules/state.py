"""The engine's vocabulary: constants, seat arithmetic, copying, drawing and bookkeeping.

Shape of the state (a JSON-able dict, built by ``setup.py``)::

    engine, players, options        name; display names by seat; the table's options (setup.py)
    rng                             the shared generator's state (a hex string)
    phase                           playing / over
    case, cases_closed, max_cases   this case's number (from 1), cases closed, the limit
    pool, holdings[seat]            tokens not yet taken; tokens in front of each seat
    hands[seat], draw, discard      card ids; the draw pile's top is index 0
    set_aside                       ``afoot`` once replaced as the Current card
    current                         {card, holder}: the Current card and the seat it faces
    location, travel                the Location Marker (city/country); the Travel Marker
    hand_epoch[seat], seen[seat]    moves out of each hand this case; what each seat saw
    turn                            {seat, step, deduction, count}; step is play / drawn / more
                                    or None while something else is open
    drawn                           the card drawn this turn, in step drawn
    resume                          what follows once nothing is open: "more" / "next" / None
    pending                         the open window, choice or accusation
    impromptu                       {arrester, countered} while an Impromptu Arrest goes on
    last_case, result               how the last case closed; the end of the game
"""

from __future__ import annotations

from games.base import Event
from games.i_say_holmes.rules import cards

NAME = "i_say_holmes"

PLAYING = "playing"
OVER = "over"

# Steps of the seat on turn.
PLAY = "play"
DRAWN = "drawn"
MORE = "more"

# Kinds of pending decision.
WINDOW = "window"
CHOOSE = "choose"
ACCUSE = "accuse"
# A game saved between two cases when the closer dealt the next: it still waits for them.
NEXT_CASE = "next_case"

MAX_TURNS_PER_CASE = 500
DEDUCTION_HAND = 7
HARD_CASE_LIMIT = 20


def clone(value):
    """A deep copy of a JSON-like value (much quicker than ``copy.deepcopy``)."""
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value


class Draft(dict):
    """The state one ``apply`` works on: a shallow copy of its input that shares every
    list and dict with it until the engine asks to change one (copy on write).

    Whatever the engine changes in place it first takes with ``owned`` / ``owned_in``,
    which copy a shared container once (remembering the copy's ``id``) and put the copy in
    its place; containers the engine builds afresh may simply be assigned. So ``apply``
    never changes its input, and copies only what an action changes. Outside ``apply``
    (``setup``, a plain dict) nothing is shared and nothing is copied.
    """

    __slots__ = ("fresh",)
    fresh: set[int]  # the ids of the containers copied so far


def draft(state: dict) -> Draft:
    """A ``Draft`` of ``state``, for one ``apply`` to change."""
    copy = Draft(state)
    copy.fresh = set()
    return copy


def owned_in(state: dict, container, key):
    """``container[key]`` (a list or dict), safe to change in place; ``container`` must
    itself be owned (or be the state)."""
    value = container[key]
    if type(state) is not Draft or id(value) in state.fresh:
        return value
    value = value.copy()
    container[key] = value
    state.fresh.add(id(value))
    return value


def owned(state: dict, key: str):
    """``state[key]`` (a list or dict), safe to change in place."""
    value = state[key]
    if type(state) is not Draft or id(value) in state.fresh:
        return value
    value = state[key] = value.copy()
    state.fresh.add(id(value))
    return value


def owned_hand(state: dict, seat: int) -> list[str]:
    return owned_in(state, owned(state, "hands"), seat)


def owned_holdings(state: dict, seat: int, part: str | None = None):
    """``seat``'s holdings (or one list of them, ``part``), safe to change in place."""
    held = owned_in(state, owned(state, "holdings"), seat)
    return held if part is None else owned_in(state, held, part)


def owned_pool(state: dict, kind: str) -> list[str]:
    return owned_in(state, owned(state, "pool"), kind)


def option(state: dict, name: str):
    """One of the table's options. A game begun before the options took the rules' own
    names stored only ``cases``, ``window_seconds`` and ``fast_play``: its turns had no
    timer and its secret choices ran on the window's."""
    options = state["options"]
    if name in options:
        return options[name]
    if name == "choice_seconds":
        return options["window_seconds"]
    if name == "turn_seconds":
        return 0
    raise KeyError(name)


def seat_count(state: dict) -> int:
    return len(state["players"])


def left_of(state: dict, seat: int) -> int:
    return (seat + 1) % len(state["players"])


def right_of(state: dict, seat: int) -> int:
    return (seat - 1) % len(state["players"])


def clockwise_from(state: dict, seat: int) -> list[int]:
    """Every seat, starting with ``seat`` (a seat at this table) and going left."""
    return [*range(seat, len(state["players"])), *range(seat)]


def opponents_from_left(state: dict, seat: int) -> list[int]:
    return [*range(seat + 1, len(state["players"])), *range(seat)]


def is_seat(state: dict, value: object) -> bool:
    return type(value) is int and 0 <= value < len(state["players"])


def hand(state: dict, seat: int) -> list[str]:
    return state["hands"][seat]


def holds_villain(state: dict, seat: int) -> bool:
    return not cards.VILLAIN_CARDS.isdisjoint(state["hands"][seat])


def only_interrupts(state: dict, seat: int) -> bool:
    """Empty, or nothing but Interrupts: the hand that forces an Impromptu Arrest."""
    return cards.INTERRUPT_CARDS.issuperset(state["hands"][seat])


def may_escape(state: dict, seat: int) -> bool:
    """A hand of Villains and Interrupts only, with at least one Villain."""
    held = state["hands"][seat]
    return cards.ESCAPING_CARDS.issuperset(held) and not cards.VILLAIN_CARDS.isdisjoint(held)


def highest_cards(state: dict, seat: int) -> list[str]:
    """The cards of highest CP in ``seat``'s hand, in hand order."""
    held = state["hands"][seat]
    if not held:
        return []
    points = [cards.cp(card) for card in held]
    top = max(points)
    return [card for card, cp in zip(held, points, strict=True) if cp == top]


_MASK = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def shuffled(items: list, rng: str) -> tuple[list, str]:
    """Exactly ``games.rng.shuffled`` (Fisher-Yates driven by splitmix64), in one loop
    with the generator's state kept as a number: dealing a case shuffles ~125 cards.
    ``test_shuffle.py`` holds it to the original."""
    result = list(items)
    if len(result) < 2:
        return result, rng
    counter = int(rng, 16)
    for index in range(len(result) - 1, 0, -1):
        counter = (counter + _GOLDEN_GAMMA) & _MASK
        z = ((counter ^ (counter >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        other = (z ^ (z >> 31)) % (index + 1)
        result[index], result[other] = result[other], result[index]
    return result, format(counter, "016x")


def draw_cards(state: dict, seat: int, count: int) -> tuple[list[str], list[Event]]:
    """``seat`` draws up to ``count`` cards, reshuffling the discard when the pile runs out."""
    drawn, events = [], []
    pile = owned(state, "draw")
    for _ in range(count):
        if not pile and state["discard"]:
            pile, state["rng"] = shuffled(state["discard"], state["rng"])
            state["draw"] = pile  # a new list: this draft's own
            state["discard"] = []
            events.append(Event("reshuffled", data={"draw_count": len(pile)}))
        if not pile:
            break
        drawn.append(pile.pop(0))
    if drawn:
        owned_hand(state, seat).extend(drawn)
    events.append(Event("drew", data={"seat": seat, "count": len(drawn)}))
    if drawn:
        events.append(Event("drew", (seat,), {"seat": seat, "count": len(drawn), "cards": drawn}))
    return drawn, events


def took_out(state: dict, seat: int) -> None:
    """A card left ``seat``'s hand other than by being played: its hand changed unseen."""
    owned(state, "hand_epoch")[seat] += 1


def saw(state: dict, seat: int, source: int | None, shown: list[str], how: str) -> None:
    """Record in ``seat``'s notes that ``shown`` are (or went) in ``source``'s hand."""
    epoch = state["hand_epoch"][source] if source is not None else None
    entry = {"from": source, "cards": list(shown), "how": how, "epoch": epoch}
    owned_in(state, owned(state, "seen"), seat).append(entry)


def audience(*seats: int) -> tuple[int, ...]:
    return tuple(sorted(set(seats)))
