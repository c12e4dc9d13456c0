"""``view``: what one player (or a spectator) may see. Everything the server sends a player
is built from this.

Public: hand sizes and how often each hand changed unseen (``hand_epoch``), the Current
card and its holder, both markers, the draw pile's size, the discard, token holdings (by
type and count, never ids or values before the end), the seat on turn and its step, the
open window or choice and who has answered. Private (under ``"you"``): the seat's hand,
the card it drew and what it has seen this case.
"""

from __future__ import annotations

from games.i_say_holmes.rules import arrests, cards, choices, settling, tokens
from games.i_say_holmes.rules.decision import open_decision, waiting_for
from games.i_say_holmes.rules.state import (
    ACCUSE,
    CHOOSE,
    DRAWN,
    MORE,
    NAME,
    OVER,
    PLAY,
    WINDOW,
    clone,
    is_seat,
    option,
    seat_count,
)


def view(state: dict, player: int | None = None) -> dict:
    viewer = player if is_seat(state, player) else None
    current = state["current"]
    return {
        "engine": NAME,
        "viewer": viewer,
        "case": state["case"],
        "cases_closed": state["cases_closed"],
        "max_cases": state["max_cases"],
        "fast_play": state["options"]["fast_play"],
        "phase": state["phase"],
        "seats": [_public_seat(state, seat) for seat in range(seat_count(state))],
        "pool": tokens.public_pool(state),
        "current": {"card": cards.public_card(current["card"]), "holder": current["holder"]}
        if current
        else None,
        "location": state["location"],
        "travel": state["travel"],
        "draw_count": len(state["draw"]),
        "discard": [cards.public_card(card) for card in state["discard"]],
        "set_aside": [cards.public_card(card) for card in state["set_aside"]],
        "turn": _turn(state),
        "pending": _pending(state),
        "waiting_for": waiting_for(state),
        "last_case": _copy(state["last_case"]),
        "result": _copy(state["result"]),
        "you": _private(state, viewer) if viewer is not None else None,
    }


def _copy(value):
    return clone(value) if value is not None else None


def _public_seat(state: dict, seat: int) -> dict:
    result = state["result"]
    return {
        "seat": seat,
        "name": state["players"][seat],
        "hand_count": len(state["hands"][seat]),
        "hand_epoch": state["hand_epoch"][seat],
        **tokens.public_holdings(state, seat),
        "vp": result["scores"][str(seat)] if result else None,
    }


def _turn(state: dict) -> dict:
    turn = state["turn"]
    decision, _ = open_decision(state)
    return {
        "seat": turn["seat"],
        "step": turn["step"],
        "deduction": turn["deduction"],
        "count": turn["count"],
        "open": decision,
    }


def _pending(state: dict) -> dict | None:
    """The open window, choice or accusation; ``seconds``: how long the table's option
    gives it (``None``: no limit of the game's own)."""
    pending = state["pending"]
    if pending is None:
        return None
    waiting = {"waiting_for": waiting_for(state), "seconds": deadline_seconds(state)}
    if pending["kind"] == WINDOW:
        return {**arrests.public_window(pending), **waiting}
    if pending["kind"] == CHOOSE:
        return {**choices.public_choice(pending), **waiting}
    if pending["kind"] == ACCUSE:
        return {
            "kind": ACCUSE,
            "seat": pending["seat"],
            "accusable": settling.accusable(state),
            "countered": list(state["impromptu"]["countered"]),
            **waiting,
        }
    return {"kind": pending["kind"], "seat": pending["seat"], **waiting}


def _private(state: dict, seat: int) -> dict:
    drawn = state["drawn"] if state["turn"]["seat"] == seat else None
    return {
        "seat": seat,
        "hand": [cards.public_card(card) for card in state["hands"][seat]],
        "drawn": cards.public_card(drawn) if drawn else None,
        "seen": [
            {**entry, "cards": [cards.public_card(card) for card in entry["cards"]]}
            for entry in state["seen"][seat]
        ],
    }


def turn(state: dict) -> int | None:
    """The seat on turn, or ``None`` between cases and after the end."""
    if state["phase"] == OVER or state["current"] is None:
        return None
    return state["turn"]["seat"]


# Which option times each kind of wait: the steps of a turn and an Impromptu Arrest are
# the turn's; a response window and a secret choice have their own.
DEADLINE_OPTIONS = {
    PLAY: "turn_seconds",
    DRAWN: "turn_seconds",
    MORE: "turn_seconds",
    ACCUSE: "turn_seconds",
    WINDOW: "window_seconds",
    CHOOSE: "choice_seconds",
}


def deadline_seconds(state: dict) -> int | None:
    """How long the open wait may last, from the table's option for its kind; ``None``
    when that option is 0 (the game sets no limit of its own) or nobody is waited for."""
    decision, seats = open_decision(state)
    if not seats or decision not in DEADLINE_OPTIONS:
        return None
    return option(state, DEADLINE_OPTIONS[decision]) or None


def is_over(state: dict) -> bool:
    return state["phase"] == OVER


def outcome(state: dict) -> dict | None:
    """At the end: winners (seats), scores and tie-breaks by seat (as strings), reason."""
    result = state["result"]
    if result is None:
        return None
    return {
        "winners": list(result["winners"]),
        "scores": dict(result["scores"]),
        "tie_break": {seat: list(values) for seat, values in result["tie_break"].items()},
        "reason": result["reason"],
    }
