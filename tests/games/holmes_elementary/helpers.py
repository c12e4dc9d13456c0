"""Building Elementary deck states by hand, and playing actions that must succeed."""

from __future__ import annotations

import json

from games.base import Refusal, events_for
from games.holmes_elementary import rules
from games.holmes_elementary.rules.cards import ALL_CARDS, canonical

NAMES = ["alice", "bob", "charlie", "dora", "ed", "fay"]
SPOTS = {"X": "X08", "S": "S05", "H": "H07", "A": "A04", "M": "M05", "C": "C06", "L": "L09"}


def make_state(
    hands: list[list[str]],
    *,
    deck: list[str] | None = None,
    discard: list[str] = (),
    spots: dict[str, str] | None = None,
    current: int = 0,
    phase: str = "action",
    **changes,
) -> dict:
    """A state mid-game with exactly these cards where they are: the deck, unless given,
    holds every other card in canonical order (top first). Every seat has seen its hand."""
    spots = dict(spots or SPOTS)
    state = rules.setup({}, NAMES[: len(hands)], 1)
    placed = {card for held in hands for card in held} | set(discard) | set(spots.values())
    if deck is None:
        deck = [card for card in ALL_CARDS if card not in placed]
    for seat, held in enumerate(hands):
        state["players"][seat]["hand"] = canonical(held)
        state["players"][seat]["seen"] = "".join(canonical(held))
    state.update(
        deck=list(deck),
        discard=canonical(discard),
        spots=spots,
        current=current,
        first=0,
        phase=phase,
        **changes,
    )
    return state


def act(state: dict, player, action) -> tuple[dict, list]:
    """Apply an action that the rules must accept (and list)."""
    if player != "system":
        assert action in rules.legal_actions(state, player) or action["type"] in (
            "solve",
            "discard",
        ), f"{action} is not listed"
    result = rules.apply(state, player, action)
    assert not isinstance(result, Refusal), result
    return result


def refused(state: dict, player, action) -> str:
    result = rules.apply(state, player, action)
    assert isinstance(result, Refusal), f"{action} applied"
    assert result.message.endswith(".")
    return result.code


def hand(state: dict, seat: int) -> list[str]:
    return state["players"][seat]["hand"]


def types(events) -> list[str]:
    return [event.type for event in events]


def seen_by(events, seat) -> str:
    return json.dumps([event.to_dict() for event in events_for(events, seat)])


def conserved(state: dict) -> bool:
    """Every card is in exactly one place: deck, discard, a hand or a spot still hiding it."""
    places = list(state["deck"]) + list(state["discard"])
    for player in state["players"]:
        places += player["hand"]
    places += [card for suit, card in state["spots"].items() if suit not in state["emptied_by"]]
    return sorted(places) == sorted(ALL_CARDS)
