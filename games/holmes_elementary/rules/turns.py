"""The turn's frame: Investigate, moving from phase to phase, Retire, the next turn, the end.

A turn's phases are Investigate (runs by itself), Action, Sleuth, Deduction and Retire.
An action of a later phase passes the phases before it; ``pass`` ends the current one.
"""

from __future__ import annotations

from games.base import EVERYONE, Event
from games.holmes_elementary.rules.state import (
    ACTION,
    HAND_LIMIT,
    OVER,
    PHASE_ORDER,
    RETIRE,
    TOKENS_TO_WIN,
    barred_suits,
    discard_from_hand,
    draw,
    hand,
    random_cards,
    show,
)

SMALL_HAND = 4  # a hand this small or smaller draws one extra card when investigating


def investigate(state: dict) -> list[Event]:
    seat = state["current"]
    count = 3 if len(hand(state, seat)) <= SMALL_HAND else 2
    _, events = draw(state, seat, count, "investigate")
    return events


def phase_index(phase: str) -> int:
    return PHASE_ORDER.index(phase)


def reach_phase(state: dict, phase: str) -> None:
    """Move on to ``phase``, passing silently any phase before it."""
    if phase_index(state["phase"]) < phase_index(phase):
        state["phase"] = phase


def after_deduction(state: dict) -> list[Event]:
    """Deduction is done: Retire asks for discards when the hand is too big, else the
    turn ends."""
    state["phase"] = RETIRE
    seat = state["current"]
    excess = len(hand(state, seat)) - HAND_LIMIT
    if excess > 0:
        return ask(state, "retire", seat, excess)
    return end_turn(state)


def retire_at_random(state: dict) -> list[Event]:
    """Retire without asking: the excess goes at random (a turn that timed out)."""
    seat = state["current"]
    excess = len(hand(state, seat)) - HAND_LIMIT
    events = []
    if excess > 0:
        events = discard_from_hand(state, seat, random_cards(state, seat, excess), "retire")
    return events + end_turn(state)


def ask(state: dict, kind: str, seat: int, count: int, **extra) -> list[Event]:
    """Wait for ``seat`` to choose (cards to discard, or Locale's card to keep)."""
    state["pending"] = {"kind": kind, "player": seat, "count": count, **extra}
    return [Event("choice_requested", EVERYONE, {"player": seat, "kind": kind, "count": count})]


def end_turn(state: dict) -> list[Event]:
    state["pending"] = None
    following = (state["current"] + 1) % len(state["players"])
    if following == state["first"]:
        if state["round"] >= state["max_rounds"]:
            return finish(state, "round_limit")
        state["round"] += 1
    return start_turn(state, following)


def start_turn(state: dict, seat: int) -> list[Event]:
    state["current"] = seat
    state["phase"] = ACTION
    state["players"][seat]["last_look"] = None
    started = Event("turn_started", EVERYONE, {"player": seat, "round": state["round"]})
    return [started, *investigate(state)]


def gain_token(state: dict, seat: int) -> None:
    assert state["supply"] > 0, "the case tokens can never run out"
    state["supply"] -= 1
    state["players"][seat]["tokens"] += 1


def won(state: dict, seat: int) -> bool:
    return state["players"][seat]["tokens"] >= TOKENS_TO_WIN


def finish(state: dict, reason: str) -> list[Event]:
    """The game ends: rank the players and reveal the spots to everyone."""
    state["phase"] = OVER
    state["pending"] = None
    ranking = _ranking(state)
    best = _rank_key(state, ranking[0])
    winners = sorted(seat for seat in ranking if _rank_key(state, seat) == best)
    tokens = [player["tokens"] for player in state["players"]]
    spots = dict(state["spots"])
    show(state, EVERYONE, spots.values())
    state["result"] = {
        "reason": reason,
        "winners": winners,
        "tokens": tokens,
        "scores": {str(seat): count for seat, count in enumerate(tokens)},
        "ranking": ranking,
    }
    return [
        Event(
            "game_over",
            EVERYONE,
            {"reason": reason, "winners": winners, "tokens": tokens, "spots": spots},
        )
    ]


def _rank_key(state: dict, seat: int) -> tuple[int, int, int]:
    """Most tokens, then most correct guesses, then fewest wrong guesses."""
    player = state["players"][seat]
    return (-player["tokens"], -len(player["correct"]), len(barred_suits(player)))


def _ranking(state: dict) -> list[int]:
    count = len(state["players"])
    in_turn_order = [(state["first"] + offset) % count for offset in range(count)]
    return sorted(in_turn_order, key=lambda seat: _rank_key(state, seat))
