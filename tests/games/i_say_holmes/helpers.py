"""Helpers for the I Say, Holmes! tests: tables built card by card, and short cuts."""

from __future__ import annotations

import json

from games.base import Refusal
from games.i_say_holmes import rules
from games.i_say_holmes.rules import cards

NAMES = ["alice", "bob", "charlie", "dana", "eve", "frank", "grace", "heidi"]


def new_game(players: int = 4, seed: int = 1, **options) -> dict:
    return rules.setup({"options": options}, NAMES[:players], seed)


def table(
    hands: list[list[str]],
    *,
    current: str = "london-1",
    turn: int = 0,
    holder: int | None = None,
    draw_top: tuple[str, ...] = (),
    discard: tuple[str, ...] = (),
    location: str | None = None,
    seed: int = 1,
    **options,
) -> dict:
    """A game in step play for ``turn``, with exactly these hands and Current card.

    Every other card goes to the draw pile (``draw_top`` first, the rest in ledger order),
    so the 125 cards stay conserved.
    """
    state = new_game(len(hands), seed, **options)
    used = [card for hand in hands for card in hand] + [current, *draw_top, *discard]
    assert len(used) == len(set(used)), "a card twice"
    rest = [card for card in cards.LEDGER_ORDER if card not in set(used)]
    state.update(
        hands=[list(hand) for hand in hands],
        draw=[*draw_top, *rest],
        discard=list(discard),
        set_aside=[],
        current={"card": current, "holder": turn if holder is None else holder},
        location=location or cards.side(current) or "city",
        travel=cards.row(current).travel,
        pending=None,
        impromptu=None,
        resume=None,
        drawn=None,
    )
    state["turn"] = {
        "seat": turn,
        "step": "play",
        "deduction": len(hands[turn]) >= 7,
        "count": 1,
    }
    return state


def act(state: dict, player, action: dict) -> tuple[dict, list]:
    """Apply an action that must be legal; returns the new state and events."""
    assert action in rules.legal_actions(state, player), (
        action,
        rules.legal_actions(state, player),
    )
    result = rules.apply(state, player, action)
    assert not isinstance(result, Refusal), result
    return result


def refused(state: dict, player, action) -> str:
    result = rules.apply(state, player, action)
    assert isinstance(result, Refusal), f"{action} applied"
    listed = [json.dumps(a, sort_keys=True) for a in rules.legal_actions(state, player)]
    assert json.dumps(action, sort_keys=True) not in listed
    return result.code


def play(state: dict, seat: int, card: str, **fields) -> dict:
    return act(state, seat, {"type": "play", "card": card, **fields})[0]


def allow(state: dict, *seats: int) -> dict:
    for seat in seats:
        state = act(state, seat, {"type": "allow"})[0]
    return state


def all_cards(state: dict) -> list[str]:
    found = [card for hand in state["hands"] for card in hand]
    found += state["draw"] + state["discard"] + state["set_aside"]
    if state["current"]:
        found.append(state["current"]["card"])
    return found
