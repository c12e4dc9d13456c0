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
    marker_on,
    revealed,
)


def is_over(state: dict) -> bool:
    return state["step"] == OVER


def turn(state: dict) -> int | None:
    return None if is_over(state) else state["turn"]


def waiting_for(state: dict) -> list[int]:
    return [] if is_over(state) else [state["turn"]]


def deadline_seconds(state: dict) -> int | None:
    """No response window of its own: only a table's turn timer hurries a player."""
    return None


def may_write_notes(state: dict, seat: int) -> bool:
    return True


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
        "board": [board_entry(state, card) for card in state["board"]],
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


def board_entry(state: dict, card: dict) -> dict:
    character = CHARACTERS[card["id"]]
    markers = [
        {"seat": seat, "standing": marker["standing"]}
        for seat in (0, 1)
        if (marker := marker_on(state, seat, card["id"]))
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
    public = [public_cards(state, s) for s in (0, 1)]
    table = []
    for kind in KINDS:
        counts = [count_kind(public[s], kind.id) for s in (0, 1)]
        if revealed(state) and kind.id in VALUE:
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
        if seat is not None:
            own = state["visible"][seat] + state["hidden"][seat]
            entry["your_count"] = count_kind(own, kind.id)
        table.append(entry)
    return table


def public_cards(state: dict, seat: int) -> list[str]:
    if revealed(state):
        return state["visible"][seat] + state["hidden"][seat]
    return state["visible"][seat]


def count_kind(cards: list[str], kind: str) -> int:
    return sum(1 for card in cards if kind_of(card) == kind)


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
