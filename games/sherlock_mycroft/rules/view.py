"""What a seat (or a spectator) sees, and the small read-only questions about a state.

Public: the board and every action marker, the line, each player's markers, visible clues,
hidden-clue count, reserved clue and the Sherlock/Mycroft card, the reserve and the
counts of the decks. Private to a seat: the ids of its own hidden clues and the cards of
its pending Pike look (under ``private``). Nobody sees the deck order or the discards.
From the wildcard assignment on, every hidden clue is public.
"""

from __future__ import annotations

from games.sherlock_mycroft.rules.cards import (
    CHARACTERS,
    DAYS,
    KINDS,
    NAME,
    VALUE,
    WILD,
    canonical,
    kind_of,
)
from games.sherlock_mycroft.rules.scoring import kind_points
from games.sherlock_mycroft.rules.state import (
    KEEP,
    OVER,
    VON_KRAMM,
    is_seat,
    revealed,
)


def is_over(state: dict) -> bool:
    return state["step"] == OVER


def turn(state: dict) -> int | None:
    return None if is_over(state) else state["turn"]


def waiting_for(state: dict) -> list[int]:
    return [] if is_over(state) else [state["turn"]]


def outcome(state: dict) -> dict | None:
    result = state["result"]
    if result is None:
        return None
    return {
        "result": result["result"],
        "winners": list(result["winners"]),
        "decided_by": result["decided_by"],
        "scores": {str(seat): result["scores"][seat] for seat in (0, 1)},
        "breakdown": result["breakdown"],
        "tokens": list(result["tokens"]),
    }


def view(state: dict, player: object) -> dict:
    seat = player if is_seat(player) else None
    placed = markers_by_character(state)
    return {
        "game": NAME,
        "you": seat,
        "day": state["day"],
        "days": DAYS,
        "step": state["step"],
        "turn": turn(state),
        "waiting_for": waiting_for(state),
        "first": state["first"],
        "roles": list(state["roles"]),
        "variants": dict(state["variants"]),
        "board": [board_entry(state, card, placed) for card in state["board"]],
        "line": list(state["line"]),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "character_deck_count": len(state["character_deck"]),
        "villains_discarded": list(state["villains_discarded"]),
        "reserve": state["reserve"],
        "players": [player_entry(state, s) for s in (0, 1)],
        "kinds": kind_table(state, seat),
        "pending": public_pending(state),
        "private": private_part(state, seat),
        "result": state["result"],
    }


def markers_by_character(state: dict) -> list[dict[str, dict]]:
    """Per seat, its markers on the board by character."""
    return [
        {marker["on"]: marker for marker in markers if marker["on"] is not None}
        for markers in state["markers"]
    ]


def board_entry(state: dict, card: dict, placed: list[dict] | None = None) -> dict:
    character = CHARACTERS[card["id"]]
    if placed is None:
        placed = markers_by_character(state)
    markers = [
        {"seat": seat, "standing": marker["standing"]}
        for seat in (0, 1)
        if (marker := placed[seat].get(card["id"]))
    ]
    return {
        "id": card["id"],
        "name": character.name,
        "cost": character.cost,
        "space": card["space"],
        "permanent": character.permanent,
        "face_up": card["face_up"],
        "markers": markers,
    }


def player_entry(state: dict, seat: int) -> dict:
    entry = {
        "seat": seat,
        "name": state["players"][seat],
        "role": state["roles"][seat],
        "tokens": state["tokens"][seat],
        "visible": list(state["visible"][seat]),
        "hidden_count": len(state["hidden"][seat]),
        "hidden_known": canonical(state["hidden_known"][seat]),
        "reserved": state["reserved"][seat],
        "holds_card": state["card_holder"] == seat,
        "moves_left": state["moves_left"][seat],
        "markers_in_hand": sum(1 for m in state["markers"][seat] if m["on"] is None),
        "assigned": state["assigned"][seat],
    }
    if revealed(state):
        entry["hidden"] = canonical(state["hidden"][seat])
    return entry


def kind_table(state: dict, seat: int | None) -> list[dict]:
    """Per kind, what a page draws: each player's count as the table sees it (visible
    clues; every clue and assigned wildcard once revealed), what each would score on it
    now and who leads; ``your_count`` adds the viewer's own hidden clues."""
    public = [kind_counts(public_cards(state, s)) for s in (0, 1)]
    own = None if seat is None else kind_counts(state["visible"][seat] + state["hidden"][seat])
    is_revealed = revealed(state)
    table = []
    for kind in KINDS:
        counts = [public[s].get(kind.id, 0) for s in (0, 1)]
        if is_revealed and kind.id in VALUE:
            counts = [
                c + (1 if kind.id in (state["assigned"][s] or {}).values() else 0)
                for s, c in enumerate(counts)
            ]
        entry = {
            "kind": kind.id,
            "name": kind.name,
            "value": kind.value,
            "copies": kind.copies,
            "counts": counts,
            "points": None,
            "leader": None,
        }
        if kind.id != WILD:
            entry["points"] = [kind_points(kind.id, counts[s], counts[1 - s]) for s in (0, 1)]
        if kind.id in VALUE and counts[0] != counts[1]:
            entry["leader"] = 0 if counts[0] > counts[1] else 1
        if own is not None:
            entry["your_count"] = own.get(kind.id, 0)
        table.append(entry)
    return table


def public_cards(state: dict, seat: int) -> list[str]:
    if revealed(state):
        return state["visible"][seat] + state["hidden"][seat]
    return state["visible"][seat]


def kind_counts(cards: list[str]) -> dict[str, int]:
    """How many of ``cards`` are of each kind (kinds with none left out)."""
    counts: dict[str, int] = {}
    for card in cards:
        kind = kind_of(card)
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def public_pending(state: dict) -> dict:
    """The open choice as everyone may know it: Pike's look is only a count."""
    if state["step"] == KEEP:
        return {"looking_count": len(state["pending"]["looking"])}
    if state["step"] == VON_KRAMM:
        return {"active": state["pending"]["active"]}
    return {}


def private_part(state: dict, seat: int | None) -> dict | None:
    if seat is None:
        return None
    looking = []
    if state["step"] == KEEP and state["turn"] == seat:
        looking = list(state["pending"]["looking"])
    return {"hidden": canonical(state["hidden"][seat]), "looking": looking}
