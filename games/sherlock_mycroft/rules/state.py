"""Reading and changing the state: steps, seats, markers, tokens and the clue deck.

The state is a plain JSON-able dict (its shape is laid out in ``setup.py``). Functions
named as verbs (``draw_clue``, ``gain_tokens``...) change the state they are given: only
``apply`` calls them, on a fresh copy.
"""

from __future__ import annotations

from games.base import Event
from games.rng import shuffled
from games.sherlock_mycroft.rules.cards import LINE_SIZE, MARKER_GAINS, canonical, kind_of

# Steps: what the game waits for.
MOVE = "move"
KEEP = "keep"
VON_KRAMM = "von_kramm"
MORIARTY = "moriarty"
MORAN = "moran"
RESERVE = "reserve"
ASSIGN = "assign"
OVER = "over"

# The action type each step accepts.
ACTION_OF_STEP = {
    MOVE: "move",
    KEEP: "keep",
    VON_KRAMM: "von_kramm_reply",
    MORIARTY: "moriarty",
    MORAN: "moran",
    RESERVE: "reserve",
    ASSIGN: "assign_wildcards",
}


# The lists that the engine changes in place (pops, appends, removals): ``clone`` copies
# them. Everything else in the state is shared between a state and the one ``apply``
# makes from it, so it is only ever replaced whole, never changed: the per-seat pairs
# through ``set_seat``, the board and the markers through new lists and entries, the
# character deck, the villains and the queue through new lists.
CHANGED_IN_PLACE = ("line", "deck", "discard")


def clone(state: dict) -> dict:
    """A copy for ``apply`` to change: the top level and the lists changed in place (a deep
    copy cost most of an action). ``apply`` never changes its input: the tests check it,
    and every earlier state of a game, after every action."""
    new = state.copy()
    for name in CHANGED_IN_PLACE:
        new[name] = list(state[name])
    return new


def set_seat(state: dict, name: str, seat: int, value: object) -> None:
    """``state[name][seat] = value`` on a new pair: the old pair may be shared."""
    pair = list(state[name])
    pair[seat] = value
    state[name] = pair


def is_seat(player: object) -> bool:
    return type(player) is int and player in (0, 1)


def rival(seat: int) -> int:
    return 1 - seat


def second_player(state: dict) -> int:
    return rival(state["first"])


def revealed(state: dict) -> bool:
    """From the wildcard assignment on, every hidden clue is public."""
    return state["step"] in (ASSIGN, OVER)


# --- The board and the action markers ----------------------------------------------------


def board_card(state: dict, character: str) -> dict | None:
    for card in state["board"]:
        if card["id"] == character:
            return card
    return None


def marker_on(state: dict, seat: int, character: str) -> dict | None:
    """``seat``'s action marker on ``character``, if any (never more than one)."""
    for marker in state["markers"][seat]:
        if marker["on"] == character:
            return marker
    return None


def standing_marker_on(state: dict, seat: int, character: object) -> dict | None:
    if not isinstance(character, str):
        return None
    for marker in state["markers"][seat]:
        if marker["on"] == character:
            return marker if marker["standing"] else None
    return None


def standing_characters(state: dict, seat: int) -> list[str]:
    """Characters holding a standing marker of ``seat``, in board order."""
    standing = {m["on"] for m in state["markers"][seat] if m["standing"] and m["on"] is not None}
    return [card["id"] for card in state["board"] if card["id"] in standing]


def open_targets(state: dict, seat: int) -> list[str]:
    """Face-up characters without ``seat``'s colour, in board order: where it may move."""
    taken = {m["on"] for m in state["markers"][seat]}
    return [card["id"] for card in state["board"] if card["face_up"] and card["id"] not in taken]


def colours_on(state: dict, character: str) -> set[int]:
    return {seat for seat in (0, 1) if marker_on(state, seat, character)}


def replace_marker(state: dict, seat: int, old: dict, on: str | None, standing: bool) -> None:
    """Put a new marker in the place of ``old``: markers are shared between states (see
    ``clone``), so they are replaced, never changed."""
    new = {"on": on, "standing": standing}
    markers = [new if marker is old else marker for marker in state["markers"][seat]]
    set_seat(state, "markers", seat, markers)


# --- Investigation markers ("tokens") ----------------------------------------------------


def gain_tokens(state: dict, seat: int, amount: int) -> int:
    """Give ``seat`` up to ``amount`` markers from the reserve; how many it got."""
    gained = max(0, min(amount, state["reserve"]))
    state["reserve"] -= gained
    set_seat(state, "tokens", seat, state["tokens"][seat] + gained)
    return gained


def pay_tokens(state: dict, seat: int, amount: int) -> int:
    """Return up to ``amount`` of ``seat``'s markers to the reserve; how many went."""
    paid = max(0, min(amount, state["tokens"][seat]))
    set_seat(state, "tokens", seat, state["tokens"][seat] - paid)
    state["reserve"] += paid
    return paid


def toby_gain(state: dict, seat: int) -> int:
    """Toby pays one marker per kind among the visible clues; wildcards are no kind."""
    return len({kind_of(card) for card in state["visible"][seat]} - {"wild"})


def fixed_gain(character: str) -> int:
    return MARKER_GAINS[character]


# --- Clues ------------------------------------------------------------------------------


def cards_left(state: dict) -> int:
    """Cards that can still be drawn: the deck, and the discard pile once reshuffled."""
    return len(state["deck"]) + len(state["discard"])


def draw_clue(state: dict, events: list[Event]) -> str | None:
    """The top card of the deck, reshuffling the discard pile into a new deck when the
    deck is empty; ``None`` when both are empty."""
    if not state["deck"]:
        if not state["discard"]:
            return None
        state["deck"], state["rng"] = shuffled(canonical(state["discard"]), state["rng"])
        state["discard"] = []
        events.append(Event("deck_reshuffled", data={"count": len(state["deck"])}))
    return state["deck"].pop(0)


def refill_line(state: dict, events: list[Event]) -> None:
    """Bring the line back to four cards, new ones at its end."""
    added = []
    while len(state["line"]) < LINE_SIZE:
        card = draw_clue(state, events)
        if card is None:
            break
        state["line"].append(card)
        added.append(card)
    if added:
        events.append(Event("line_refilled", data={"added": added, "line": state["line"]}))


def add_visible(state: dict, seat: int, cards: list[str]) -> None:
    set_seat(state, "visible", seat, canonical(state["visible"][seat] + list(cards)))


def remove_visible(state: dict, seat: int, card: str) -> None:
    set_seat(state, "visible", seat, [c for c in state["visible"][seat] if c != card])


def add_hidden(state: dict, seat: int, card: str, known: bool = False) -> None:
    """A clue onto ``seat``'s hidden stack (``known``: the rival knows which, too)."""
    set_seat(state, "hidden", seat, [*state["hidden"][seat], card])
    if known:
        set_seat(state, "hidden_known", seat, [*state["hidden_known"][seat], card])


def real_clues(state: dict, seat: int) -> list[str]:
    """Every clue of ``seat`` that counts at the end except wildcards: visible and hidden."""
    return [c for c in state["visible"][seat] + state["hidden"][seat] if kind_of(c) != "wild"]
