"""Reading and changing the state: steps, seats, markers, tokens and the clue deck.

The state is a plain JSON-able dict (its shape is laid out in ``setup.py``). Functions
named as verbs (``draw_clue``, ``gain_tokens``...) change the state they are given: only
``apply`` calls them, on a fresh copy.
"""

from __future__ import annotations

import json

from games.base import Event, Refusal
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


def clone(state: dict) -> dict:
    """A deep copy for ``apply`` to change (a JSON round trip: the state is small, and this
    also proves it stays JSON)."""
    return json.loads(json.dumps(state))


def refuse(code: str, message: str) -> Refusal:
    return Refusal(code, message)


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
    return next((card for card in state["board"] if card["id"] == character), None)


def marker_on(state: dict, seat: int, character: str) -> dict | None:
    """``seat``'s action marker on ``character``, if any (never more than one)."""
    return next((m for m in state["markers"][seat] if m["on"] == character), None)


def standing_marker_on(state: dict, seat: int, character: object) -> dict | None:
    marker = marker_on(state, seat, character) if isinstance(character, str) else None
    return marker if marker and marker["standing"] else None


def standing_characters(state: dict, seat: int) -> list[str]:
    """Characters holding a standing marker of ``seat``, in board order."""
    return [card["id"] for card in state["board"] if standing_marker_on(state, seat, card["id"])]


def open_targets(state: dict, seat: int) -> list[str]:
    """Face-up characters without ``seat``'s colour, in board order: where it may move."""
    return [
        card["id"]
        for card in state["board"]
        if card["face_up"] and not marker_on(state, seat, card["id"])
    ]


def colours_on(state: dict, character: str) -> set[int]:
    return {seat for seat in (0, 1) if marker_on(state, seat, character)}


# --- Investigation markers ("tokens") ----------------------------------------------------


def gain_tokens(state: dict, seat: int, amount: int) -> int:
    """Give ``seat`` up to ``amount`` markers from the reserve; how many it got."""
    gained = max(0, min(amount, state["reserve"]))
    state["reserve"] -= gained
    state["tokens"][seat] += gained
    return gained


def pay_tokens(state: dict, seat: int, amount: int) -> int:
    """Return up to ``amount`` of ``seat``'s markers to the reserve; how many went."""
    paid = max(0, min(amount, state["tokens"][seat]))
    state["tokens"][seat] -= paid
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
    state["visible"][seat] = canonical(state["visible"][seat] + list(cards))


def real_clues(state: dict, seat: int) -> list[str]:
    """Every clue of ``seat`` that counts at the end except wildcards: visible and hidden."""
    return [c for c in state["visible"][seat] + state["hidden"][seat] if kind_of(c) != "wild"]
