"""The action vocabulary and ``apply``: check an action against the state, then perform it
on a copy. A check returns a ``Refusal`` or the function to perform with its arguments, so
a refused action costs no copy and never changes the state it was given.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import EVERYONE, SYSTEM, Event, Refusal
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
    refuse,
    spot_is_open,
)
from games.holmes_elementary.rules.turns import after_deduction, reach_phase

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

Checked = Refusal | tuple[Callable[..., list[Event]], tuple]


def apply(state: dict, player: object, action: object) -> tuple[dict, list[Event]] | Refusal:
    checked = check(state, player, action)
    if isinstance(checked, Refusal):
        return checked
    perform, arguments = checked
    new_state = clone(state)
    events = perform(new_state, *arguments)
    return new_state, events


def check(state: dict, player: object, action: object) -> Checked:
    refusal = _check_envelope(state, player, action)
    if refusal:
        return refusal
    if action["type"] == "timeout":
        return choices.timeout, ()
    refusal = _check_turn(state, player, action["type"]) or _check_fields(action)
    if refusal:
        return refusal
    return _CHECKS[action["type"]](state, player, action)


def _check_envelope(state: dict, player: object, action: object) -> Refusal | None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return refuse("malformed_action", "An action is an object with a string type.")
    kind = action["type"]
    if kind not in ACTIONS:
        return refuse("unknown_action", "This game has no such action.")
    if (kind == "timeout") != (player == SYSTEM):
        return refuse("system_only", "Only the server times out, and it takes no turns.")
    if kind == "timeout" and len(action) > 1:
        return refuse("malformed_action", "A timeout has no fields.")
    if player != SYSTEM and not is_seat(state, player):
        return refuse("unknown_player", "There is no such seat at this table.")
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    return None


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
    return abilities.play, (seat, card, target)


def _check_cards_in_hand(state: dict, seat: int, cards: list[str], count: int) -> Refusal | None:
    if len(cards) != count:
        noun = "card" if count == 1 else "cards"
        return refuse("wrong_count", f"Give exactly {count} {noun}.")
    if len(set(cards)) != len(cards):
        return refuse("duplicate_card", "The same card is named twice.")
    if not set(cards) <= set(hand(state, seat)):
        return refuse("card_not_in_hand", "You do not hold every one of those cards.")
    return None


def _check_solve(state: dict, seat: int, action: dict) -> Checked:
    cards = action["cards"]
    refusal = _check_cards_in_hand(state, seat, cards, cases.CASE_SIZE)
    if refusal:
        return refusal
    problem = cases.case_problem(cards)
    if problem:
        return refuse(*problem)
    return _at_phase(SLEUTH, cases.solve), (seat, list(cards))


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
    return _at_phase(DEDUCTION, deduction.guess), (seat, suit, rank)


def _check_draw_discard(state: dict, seat: int, action: dict) -> Checked:
    if not deduction.can_draw(state):
        return refuse("nothing_to_draw", "The deck and the discard pile are both empty.")
    return _at_phase(DEDUCTION, deduction.draw_discard), (seat,)


def _check_view_discard(state: dict, seat: int, action: dict) -> Checked:
    if not state.get("discard_look", True):
        return refuse("no_discard_look", "At this table nobody looks through the discard pile.")
    return _at_phase(DEDUCTION, deduction.view_discard), (seat,)


def _check_pass(state: dict, seat: int, action: dict) -> Checked:
    return _pass, (seat,)


def _check_discard(state: dict, seat: int, action: dict) -> Checked:
    cards = action["cards"]
    refusal = _check_cards_in_hand(state, seat, cards, state["pending"]["count"])
    if refusal:
        return refusal
    return choices.discard, (seat, list(cards))


def _check_keep(state: dict, seat: int, action: dict) -> Checked:
    if action["card"] not in state["pending"]["options"]:
        return refuse("not_an_option", "Keep one of the cards you have just drawn.")
    return abilities.keep, (seat, action["card"])


_CHECKS: dict[str, Callable[[dict, int, dict], Checked]] = {
    "play": _check_play,
    "solve": _check_solve,
    "guess": _check_guess,
    "draw_discard": _check_draw_discard,
    "view_discard": _check_view_discard,
    "pass": _check_pass,
    "discard": _check_discard,
    "keep": _check_keep,
}


# --- performing -----------------------------------------------------------------------------


def _at_phase(phase: str, perform: Callable[..., list[Event]]) -> Callable[..., list[Event]]:
    """``perform``, after passing silently the phases before ``phase``."""

    def performed(state: dict, *arguments) -> list[Event]:
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
