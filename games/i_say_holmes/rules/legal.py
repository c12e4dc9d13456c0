"""``legal_actions``: every action a player (or the server) may take now, every field
combination listed."""

from __future__ import annotations

from games.base import SYSTEM
from games.i_say_holmes.rules import cards, choices, plays, settling
from games.i_say_holmes.rules.decision import open_decision
from games.i_say_holmes.rules.state import (
    ACCUSE,
    CHOOSE,
    DRAWN,
    MORE,
    NEXT_CASE,
    PLAY,
    WINDOW,
    is_seat,
)


def legal_actions(state: dict, player: object) -> list[dict]:
    kind, seats = open_decision(state)
    if player == SYSTEM:
        if not seats:
            return []
        return [{"type": "timeout"}] + [{"type": "autoplay", "seat": seat} for seat in seats]
    if not is_seat(state, player) or player not in seats:
        return []
    if kind in (PLAY, DRAWN, MORE):
        return _turn_actions(state, player, kind)
    if kind == WINDOW:
        return _window_actions(state, player)
    if kind == CHOOSE:
        return [{"type": "choose", "card": card} for card in choices.choosable(state, player)]
    if kind == ACCUSE:
        return [{"type": "accuse", "target": target} for target in settling.accusable(state)]
    if kind == NEXT_CASE:
        return [{"type": "next_case"}]
    return []


def _turn_actions(state: dict, seat: int, step: str) -> list[dict]:
    candidates = [state["drawn"]] if step == DRAWN else state["hands"][seat]
    actions = [
        {"type": "play", "card": card, **fields}
        for card in candidates
        if plays.playable(state, seat, card) is None
        for fields in plays.field_options(state, seat, card)
    ]
    if step == PLAY and not plays.following_in_hand(state, seat):
        actions.append({"type": "draw"})
    if step == DRAWN and not cards.follows(
        state["drawn"], state["current"]["card"], state["location"]
    ):
        actions.append({"type": "keep"})
    if step == MORE:
        actions.append({"type": "end_turn"})
    return actions


def _window_actions(state: dict, seat: int) -> list[dict]:
    alibi_allowed = state["pending"]["alibi"]
    counters = [
        {"type": "counter", "card": card}
        for card in state["hands"][seat]
        if cards.is_interrupt(card) and (alibi_allowed or cards.row(card).slug != "alibi")
    ]
    return [{"type": "allow"}] + counters
