"""Carrying out a card's instruction.

An instruction with a target first opens a response window (``responses.py``) and is
carried out only once every target has allowed it. Dense Fog, Irene Adler and a
Constabulary that gives nothing open none.
"""

from __future__ import annotations

from games import rng as rngs
from games.base import Event
from games.i_say_holmes.rules import arrests, cards, choices, tokens
from games.i_say_holmes.rules.state import (
    WINDOW,
    audience,
    draw_cards,
    opponents_from_left,
    owned,
    owned_hand,
    owned_holdings,
    owned_pool,
    saw,
    shuffled,
    took_out,
)

SINGLE_TARGET = (
    "DRAW1",
    "DRAW2",
    "GIFT",
    "CLUE",
    "SHOW",
    "WIRE",
    "ARREST",
    "GIVE",
    "LOOK",
    "LOOK+",
    "SWAP",
)
EVERY_OPPONENT = ("ALLDRAW", "IRREG")


def start(state: dict, seat: int, card: str, params: dict) -> list[Event]:
    """After ``card`` is on the table: open its window, or carry it out at once."""
    code = cards.row(card).instruction
    if code == "FOG":
        return choices.open_choice(
            state, choices.FOG, seat, opponents_from_left(state, seat) + [seat]
        )
    if code == "DROP":
        return _drop(state, seat, params.get("villain"))
    if code in SINGLE_TARGET and "target" in params:
        return _open_window(state, seat, card, [params["target"]], params)
    if code in EVERY_OPPONENT:
        return _open_window(state, seat, card, opponents_from_left(state, seat), params)
    return []


def _open_window(state: dict, seat: int, card: str, targets: list[int], params: dict):
    row = cards.row(card)
    window = {
        "kind": WINDOW,
        "instruction": row.instruction,
        "card": card,
        "player": seat,
        "targets": targets,
        "alibi": row.counter == cards.ALIBI_OR_MASTERMIND,
        "answers": {},
        "effect": {key: value for key, value in params.items() if key != "card"},
    }
    state["pending"] = window
    return [Event("window", data=arrests.public_window(window))]


def carry_out(state: dict, window: dict) -> list[Event]:
    """The instruction of a window nobody countered."""
    seat, effect = window["player"], window["effect"]
    target = effect.get("target")
    code = window["instruction"]
    if code in ("DRAW1", "DRAW2"):
        return draw_cards(state, target, 1 if code == "DRAW1" else 2)[1]
    if code == "GIFT":
        return [tokens.take_i_say(state, target, effect["token"], effect.get("token_from"))]
    if code == "CLUE":
        mixed, state["rng"] = shuffled(state["hands"][target], state["rng"])
        return arrests.examine(state, seat, target, mixed[:2], "clue")
    if code == "SHOW":
        return choices.open_choice(state, choices.SHOW, seat, [target])
    if code == "WIRE":
        return _wire(state, target, effect.get("token_from"))
    if code == "ARREST":
        return arrests.arrest(state, seat, target, penalty=True, how="arrest")
    if code == "GIVE":
        return _give(state, seat, target, effect["give"])
    if code == "LOOK":
        return arrests.examine(state, seat, target, list(state["hands"][target]), "look")
    if code == "LOOK+":
        return arrests.arrest(state, seat, target, penalty=False, how="look")
    if code == "SWAP":
        return _swap(state, seat, target)
    if code == "ALLDRAW":
        return [event for other in window["targets"] for event in draw_cards(state, other, 1)[1]]
    if code == "IRREG":
        events = draw_cards(state, seat, 1)[1]
        return events + choices.open_choice(state, choices.IRREG, seat, window["targets"])
    raise AssertionError(f"no instruction {code}")


def _drop(state: dict, seat: int, villain: str | None) -> list[Event]:
    if villain is None:
        return []
    owned_hand(state, seat).remove(villain)
    took_out(state, seat)
    owned(state, "discard").append(villain)
    return [Event("dropped", data={"seat": seat, "villain": villain})]


def _wire(state: dict, target: int, source: int | None) -> list[Event]:
    if state["pool"]["telegrams"]:
        token = owned_pool(state, "telegrams").pop(0)
    elif source is not None:
        held = owned_holdings(state, source, "telegrams")
        pick, state["rng"] = rngs.below(state["rng"], len(held))
        token = held.pop(pick)
    else:
        return []
    owned_holdings(state, target, "telegrams").append(token)
    return [Event("token", data={"seat": target, "token": "telegram", "token_from": source})]


def _give(state: dict, seat: int, target: int, card: str) -> list[Event]:
    owned_hand(state, seat).remove(card)
    took_out(state, seat)
    owned_hand(state, target).append(card)
    saw(state, seat, target, [card], "give")
    return [
        Event("moved", data={"how": "give", "seat": seat, "to": target, "count": 1}),
        Event(
            "moved",
            audience(seat, target),
            {"how": "give", "seat": seat, "to": target, "cards": [card]},
        ),
    ]


def _swap(state: dict, seat: int, target: int) -> list[Event]:
    hands = owned(state, "hands")
    mine, theirs = hands[seat], hands[target]
    hands[seat], hands[target] = theirs, mine
    took_out(state, seat)
    took_out(state, target)
    saw(state, seat, target, mine, "swap")
    saw(state, target, seat, theirs, "swap")
    public = {"how": "swap", "seat": seat, "to": target, "counts": [len(theirs), len(mine)]}
    return [
        Event("moved", data=public),
        Event("moved", audience(seat, target), {**public, "gave": mine, "got": theirs}),
    ]
