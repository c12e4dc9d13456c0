"""The action vocabulary and ``apply``: check an action against the state, then perform it
on a copy. A check returns a ``Refusal`` or the arguments of its move's perform (``MOVES``,
a ``games.base.MoveTable``), so a refused action costs no copy and never changes the state
it was given.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import EVERYONE, SYSTEM, Event, MoveTable, Refusal, refuse
from games.holmes_elementary.rules import abilities, cases, choices, deduction
from games.holmes_elementary.rules.cards import (
    RANKS,
    SUIT_NAMES,
    SUITS,
    TARGETED_SUITS,
    suit_of,
)
from games.holmes_elementary.rules.state import (
    ACTION,
    DEDUCTION,
    OVER,
    SLEUTH,
    barred_suits,
    clone,
    hand,
    is_seat,
    spot_is_open,
)
from games.holmes_elementary.rules.turns import after_deduction, reach_phase
from games.words import counted

ACTIONS: dict[str, dict] = {
    "play": {
        "description": "Action phase: play a card from your hand for its suit's ability. "
        "Help, Action, Method and Clue name an opponent's seat as target; Mystery, "
        "Sherlock and Locale take none.",
        "example": {"type": "play", "card": "H03", "target": 2},
    },
    "solve": {
        "description": "Action or Sleuth phase: solve a case with seven cards of your hand, "
        "one of each suit and no two of the same rank (any order).",
        "example": {
            "type": "solve",
            "cards": ["X01", "S02", "H03", "A04", "M05", "C06", "L07"],
        },
    },
    "guess": {
        "description": "Action to Deduction phase: guess the rank (1 to 10) of the hidden "
        "card in a suit's spot.",
        "example": {"type": "guess", "suit": "C", "rank": 6},
    },
    "draw_discard": {
        "description": "Action to Deduction phase, instead of guessing: draw a card, then "
        "discard any one card.",
        "example": {"type": "draw_discard"},
    },
    "view_discard": {
        "description": "Action to Deduction phase, instead of guessing: look once at the "
        "whole discard pile, privately.",
        "example": {"type": "view_discard"},
    },
    "pass": {
        "description": "On your turn: end the current phase (Action, Sleuth or Deduction) "
        "without doing anything in it.",
        "example": {"type": "pass"},
    },
    "discard": {
        "description": "When asked to choose: the cards you discard, as many as asked.",
        "example": {"type": "discard", "cards": ["S03", "S04"]},
    },
    "keep": {
        "description": "After playing a Locale card: the one drawn card you keep.",
        "example": {"type": "keep", "card": "L04"},
    },
    "timeout": {
        "description": "Server only: the timer ran out. A target discards at random, "
        "Locale keeps the first card drawn, draw-and-discard throws back the drawn card, "
        "Retire discards at random, and a player on turn passes the rest of the turn.",
        "example": {"type": "timeout"},
    },
}

# The phases in which each turn action may be sent (an action of a later phase passes
# the phases before it).
_PHASES = {
    "play": (ACTION,),
    "solve": (ACTION, SLEUTH),
    "guess": (ACTION, SLEUTH, DEDUCTION),
    "draw_discard": (ACTION, SLEUTH, DEDUCTION),
    "view_discard": (ACTION, SLEUTH, DEDUCTION),
    "pass": (ACTION, SLEUTH, DEDUCTION),
}
_CHOICE_ACTIONS = ("discard", "keep")

# The fields of each action: name -> (JSON type, required).
_CARDS = "cards"
_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "play": {"card": ("str", True), "target": ("int", False)},
    "solve": {"cards": (_CARDS, True)},
    "guess": {"suit": ("str", True), "rank": ("int", True)},
    "discard": {"cards": (_CARDS, True)},
    "keep": {"card": ("str", True)},
}
# Fields whose bad value has its own refusal rather than ``malformed_action``.
_OWN_REFUSAL = {
    "target": ("bad_target", "The target is another player's seat number."),
    "rank": ("bad_rank", "A rank is a whole number from 1 to 10."),
}

# A check returns a ``Refusal``, or the arguments its move's perform takes after the state.
Checked = Refusal | tuple


def _check_actor(state: dict, player: object, action: dict) -> Refusal | None:
    """Who may act now, and the action's fields (``MoveTable`` has checked its type)."""
    kind = action["type"]
    if (kind == "timeout") != (player == SYSTEM):
        return refuse("system_only", "Only the server times out, and it takes no turns.")
    if kind == "timeout" and len(action) > 1:
        return refuse("malformed_action", "A timeout has no fields.")
    if player != SYSTEM and not is_seat(state, player):
        return refuse("unknown_player", "There is no such seat at this table.")
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    if kind == "timeout":
        return None
    return _check_turn(state, player, kind) or _check_fields(action)


def _check_turn(state: dict, seat: int, kind: str) -> Refusal | None:
    pending = state["pending"]
    if pending is not None:
        if seat != pending["player"]:
            return refuse("waiting_for_choice", "Another player is choosing; wait for them.")
        if kind not in _CHOICE_ACTIONS:
            return refuse("choice_pending", "Answer the choice you were asked first.")
        if (kind == "keep") != (pending["kind"] == "locale"):
            return refuse("wrong_choice", "That does not answer the choice you were asked.")
        return None
    if kind in _CHOICE_ACTIONS:
        return refuse("no_choice_pending", "Nobody asked you to choose anything.")
    if seat != state["current"]:
        return refuse("not_your_turn", "It is not your turn.")
    if state["phase"] not in _PHASES[kind]:
        return refuse("wrong_phase", "That phase of your turn is over.")
    return None


# Each action type's keys: "type" and its fields.
_KEYS = {kind: frozenset({"type", *_FIELDS.get(kind, {})}) for kind in ACTIONS}


def _check_fields(action: dict) -> Refusal | None:
    fields = _FIELDS.get(action["type"], {})
    if not action.keys() <= _KEYS[action["type"]]:
        return refuse("malformed_action", "This action has a field it does not take.")
    for name, (kind, required) in fields.items():
        if name not in action:
            if required:
                return refuse("malformed_action", f"This action needs a {name} field.")
            continue
        if not _is_of_type(action[name], kind):
            code, message = _OWN_REFUSAL.get(
                name, ("malformed_action", f"The field {name} has the wrong type.")
            )
            return refuse(code, message)
    return None


def _is_of_type(value: object, kind: str) -> bool:
    if kind == "int":
        return type(value) is int
    if kind == "str":
        return isinstance(value, str)
    return isinstance(value, list) and all(isinstance(card, str) for card in value)


# --- one check per action -------------------------------------------------------------------


def _check_play(state: dict, seat: int, action: dict) -> Checked:
    card, target = action["card"], action.get("target")
    if card not in hand(state, seat):
        return refuse("card_not_in_hand", "You do not hold that card.")
    targeted = suit_of(card) in TARGETED_SUITS
    if targeted and target is None:
        return refuse("target_required", "This card's ability needs an opponent as target.")
    if not targeted and target is not None:
        return refuse("no_target", "This card's ability has no target.")
    if targeted and (not is_seat(state, target) or target == seat):
        return refuse(*_OWN_REFUSAL["target"])
    return seat, card, target


def _check_cards_in_hand(
    state: dict, seat: int, cards: list[str], count: int, doing: str
) -> Refusal | None:
    """`doing`: what the cards are for, as the refusal says it ("Discard")."""
    if len(cards) != count:
        return refuse("wrong_count", f"{doing} exactly {counted(count, 'card')}.")
    if len(set(cards)) != len(cards):
        return refuse("duplicate_card", "The same card is named twice.")
    if not set(cards) <= set(hand(state, seat)):
        return refuse("card_not_in_hand", "You do not hold every one of those cards.")
    return None


def _check_solve(state: dict, seat: int, action: dict) -> Checked:
    cards = action["cards"]
    refusal = _check_cards_in_hand(state, seat, cards, cases.CASE_SIZE, "Solve a case with")
    if refusal:
        return refusal
    problem = cases.case_problem(cards)
    if problem:
        return refuse(*problem)
    return seat, list(cards)


def _check_guess(state: dict, seat: int, action: dict) -> Checked:
    suit, rank = action["suit"], action["rank"]
    if suit not in SUITS:
        return refuse("unknown_suit", f"A suit is one of {', '.join(SUITS)}.")
    if rank not in RANKS:
        return refuse(*_OWN_REFUSAL["rank"])
    if not spot_is_open(state, suit):
        return refuse("spot_empty", f"The {SUIT_NAMES[suit]} spot is empty.")
    if suit in barred_suits(state["players"][seat]):
        return refuse("barred_from_spot", f"You may not guess the {SUIT_NAMES[suit]} spot again.")
    return seat, suit, rank


def _check_draw_discard(state: dict, seat: int, action: dict) -> Checked:
    if not deduction.can_draw(state):
        return refuse("nothing_to_draw", "The deck and the discard pile are both empty.")
    return (seat,)


def _check_view_discard(state: dict, seat: int, action: dict) -> Checked:
    if not state.get("discard_look", True):
        return refuse("no_discard_look", "At this table nobody looks through the discard pile.")
    return (seat,)


def _check_pass(state: dict, seat: int, action: dict) -> Checked:
    return (seat,)


def _check_discard(state: dict, seat: int, action: dict) -> Checked:
    cards = action["cards"]
    refusal = _check_cards_in_hand(state, seat, cards, state["pending"]["count"], "Discard")
    if refusal:
        return refusal
    return seat, list(cards)


def _check_keep(state: dict, seat: int, action: dict) -> Checked:
    if action["card"] not in state["pending"]["options"]:
        return refuse("not_an_option", "Keep one of the cards you have just drawn.")
    return seat, action["card"]


def _check_timeout(state: dict, player: object, action: dict) -> Checked:
    return ()


# --- performing -----------------------------------------------------------------------------


def _perform(perform: Callable[..., list[Event]], phase: str | None = None):
    """A move table's perform: ``perform(state, *arguments)``, after passing silently the
    phases of the turn before ``phase``."""

    def performed(state: dict, player: object, arguments: tuple) -> list[Event]:
        if phase is not None:
            reach_phase(state, phase)
        return perform(state, *arguments)

    return performed


def _pass(state: dict, seat: int) -> list[Event]:
    phase = state["phase"]
    events = [Event("passed", EVERYONE, {"player": seat, "phase": phase})]
    if phase == ACTION:
        state["phase"] = SLEUTH
    elif phase == SLEUTH:
        state["phase"] = DEDUCTION
    else:
        events += after_deduction(state)
    return events


MOVES = MoveTable(
    {
        "play": (_check_play, _perform(abilities.play)),
        "solve": (_check_solve, _perform(cases.solve, SLEUTH)),
        "guess": (_check_guess, _perform(deduction.guess, DEDUCTION)),
        "draw_discard": (_check_draw_discard, _perform(deduction.draw_discard, DEDUCTION)),
        "view_discard": (_check_view_discard, _perform(deduction.view_discard, DEDUCTION)),
        "pass": (_check_pass, _perform(_pass)),
        "discard": (_check_discard, _perform(choices.discard)),
        "keep": (_check_keep, _perform(abilities.keep)),
        "timeout": (_check_timeout, _perform(choices.timeout)),
    },
    check_actor=_check_actor,
    clone=clone,
)
assert set(MOVES.moves) == set(ACTIONS), "every action is documented and handled"
apply = MOVES.apply
