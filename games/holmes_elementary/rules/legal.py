"""``legal_actions``: every action ``apply`` accepts now, each parameter spelled out.

Card lists come in canonical order (``apply`` takes a case's or a discard's cards in any
order). The lists stay short: at most 32 cases from a 12-card hand, 70 guesses, and 220
ways to discard three cards of twelve at Retire.
"""

from __future__ import annotations

from itertools import combinations

from games.base import SYSTEM
from games.holmes_elementary.rules.cards import RANKS, SUITS, TARGETED_SUITS, canonical, suit_of
from games.holmes_elementary.rules.cases import every_case
from games.holmes_elementary.rules.deduction import can_draw, may_guess
from games.holmes_elementary.rules.state import ACTION, DEDUCTION, OVER, SLEUTH, hand, is_seat


def legal_actions(state: dict, player: object) -> list[dict]:
    if state["phase"] == OVER:
        return []
    if player == SYSTEM:
        return [{"type": "timeout"}]
    if not is_seat(state, player):
        return []
    pending = state["pending"]
    if pending is not None:
        return _answers(state, pending) if player == pending["player"] else []
    if player != state["current"]:
        return []
    return _turn_actions(state, player)


def _answers(state: dict, pending: dict) -> list[dict]:
    if pending["kind"] == "locale":
        return [{"type": "keep", "card": card} for card in canonical(pending["options"])]
    held = hand(state, pending["player"])
    return [
        {"type": "discard", "cards": list(cards)} for cards in combinations(held, pending["count"])
    ]


def _turn_actions(state: dict, seat: int) -> list[dict]:
    phase = state["phase"]
    actions: list[dict] = []
    if phase == ACTION:
        actions += _plays(state, seat)
    if phase in (ACTION, SLEUTH):
        actions += [{"type": "solve", "cards": cards} for cards in every_case(hand(state, seat))]
    if phase in (ACTION, SLEUTH, DEDUCTION):
        actions += _deductions(state, seat)
        actions.append({"type": "pass"})
    return actions


def _plays(state: dict, seat: int) -> list[dict]:
    opponents = [other for other in range(len(state["players"])) if other != seat]
    plays = []
    for card in hand(state, seat):
        if suit_of(card) in TARGETED_SUITS:
            plays += [{"type": "play", "card": card, "target": other} for other in opponents]
        else:
            plays.append({"type": "play", "card": card})
    return plays


def _deductions(state: dict, seat: int) -> list[dict]:
    actions = [
        {"type": "guess", "suit": suit, "rank": rank}
        for suit in SUITS
        if may_guess(state, seat, suit)
        for rank in RANKS
    ]
    if can_draw(state):
        actions.append({"type": "draw_discard"})
    if state.get("discard_look", True):
        actions.append({"type": "view_discard"})
    return actions
