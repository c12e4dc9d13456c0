"""The action vocabulary, and ``apply``: check an action, then perform it on a copy.

Each action has a ``check_*`` (reads the state, returns a ``Refusal`` or the parameters)
and a ``perform_*`` (changes a ``Draft`` of the state, copy on write, and returns the
events); ``MOVES`` (a ``games.base.MoveTable``) dispatches between them. After every
action the engine settles (``settling.py``): escapes, Impromptu Arrests, then the turn
goes on.
"""

from __future__ import annotations

from games.base import SYSTEM, Check, Event, MoveTable, Perform, Refusal, refuse
from games.i_say_holmes.rules import arrests, choices, responses, settling, story
from games.i_say_holmes.rules.bot import bot_action
from games.i_say_holmes.rules.decision import open_decision
from games.i_say_holmes.rules.legal import legal_actions
from games.i_say_holmes.rules.state import (
    ACCUSE,
    CHOOSE,
    DRAWN,
    MORE,
    NEXT_CASE,
    OVER,
    PLAY,
    WINDOW,
    draft,
    is_seat,
)
from games.i_say_holmes.rules.view import view

ACTIONS: dict[str, dict] = {
    "play": {
        "description": "On your turn (steps play, drawn, more): play a card. Fields as the "
        "card needs: target (a seat), token (pipe/hat/glass), token_from (a seat), villain "
        "(Irene Adler), give (a card, with target, for a Constabulary).",
        "example": {"type": "play", "card": "clue-2", "target": 1},
    },
    "draw": {
        "description": "Step play, holding no following card: draw one.",
        "example": {"type": "draw"},
    },
    "keep": {
        "description": "Step drawn: keep the drawn card; the turn ends.",
        "example": {"type": "keep"},
    },
    "end_turn": {"description": "Step more: play no second card.", "example": {"type": "end_turn"}},
    "counter": {
        "description": "Targeted in a window: counter with an Alibi or a Mastermind.",
        "example": {"type": "counter", "card": "mastermind-1"},
    },
    "allow": {
        "description": "Targeted in a window: let the instruction happen.",
        "example": {"type": "allow"},
    },
    "choose": {
        "description": "A secret choice: the card to show, put into the fog or pass.",
        "example": {"type": "choose", "card": "bakerst-1"},
    },
    "accuse": {
        "description": "Impromptu Arrest: name the player you accuse.",
        "example": {"type": "accuse", "target": 2},
    },
    "next_case": {
        "description": "Never needed now: the rules deal each case themselves. Only a "
        "game saved between two cases, before they did, waits for its closer to deal.",
        "example": {"type": "next_case"},
    },
    "timeout": {
        "description": "Server only: the wait ran out. Everyone still owing a move makes "
        "the one the (normal) computer player would make in their seat.",
        "example": {"type": "timeout"},
    },
    "autoplay": {
        "description": "Server only: the computer player moves for a seat that left.",
        "example": {"type": "autoplay", "seat": 2},
    },
}

# The open decisions in which each player action may be taken.
ACTION_STEPS = {
    "play": (PLAY, DRAWN, MORE),
    "draw": (PLAY,),
    "keep": (DRAWN,),
    "end_turn": (MORE,),
    "counter": (WINDOW,),
    "allow": (WINDOW,),
    "choose": (CHOOSE,),
    "accuse": (ACCUSE,),
    "next_case": (NEXT_CASE,),
}
ANSWERS = ("counter", "allow", "choose")
SYSTEM_ACTIONS = ("timeout", "autoplay")


def check_timeout(state: dict, player: object, action: dict) -> Refusal | dict:
    if set(action) != {"type"}:
        return refuse("malformed_action", "A timeout takes no other field.")
    if not open_decision(state)[1]:
        return refuse("nothing_to_time_out", "Nobody is being waited for.")
    return {}


def perform_timeout(state: dict, player: object, params: dict) -> list[Event]:
    """Each seat still owing a move makes the computer player's, from its own view: in a
    window it counters or allows as the computer would. The seats answer one by one, each
    seeing the window as the ones before left it (who has answered, never how)."""
    seats = open_decision(state)[1]
    events = [Event("timeout", data={"seats": seats})]
    for seat in seats:
        events += _autoplay(state, seat)
    return events


def check_autoplay(state: dict, player: object, action: dict) -> Refusal | dict:
    seat = action.get("seat")
    if set(action) != {"type", "seat"} or seat not in open_decision(state)[1]:
        return refuse("not_waiting_for_seat", "Nobody waits for that seat now.")
    return {"seat": seat}


def perform_autoplay(state: dict, player: object, params: dict) -> list[Event]:
    return _autoplay(state, params["seat"])


def _autoplay(state: dict, seat: int) -> list[Event]:
    legal = legal_actions(state, seat)
    choice = bot_action(view(state, seat), seat, legal, autoplay_seed(state, seat))
    if choice not in legal:  # a computer player's slip must not stall the table
        choice = legal[0]
    return _perform(state, seat, choice)


def autoplay_seed(state: dict, seat: int) -> int:
    """The seed the computer player is given when it moves for a seat: taken from the
    game's generator without drawing from it, so the same state gives the same move."""
    return (int(state["rng"], 16) + seat) % 2**31


def _perform(state: dict, seat: int, action: dict) -> list[Event]:
    checker, performer = HANDLERS[action["type"]]
    params = checker(state, seat, action)
    assert not isinstance(params, Refusal), params
    return performer(state, seat, params)


HANDLERS: dict[str, tuple[Check, Perform]] = {
    "play": (story.check_play, story.perform_play),
    "draw": (story.check_draw, story.perform_draw),
    "keep": (story.check_keep, story.perform_keep),
    "end_turn": (story.check_end_turn, story.perform_end_turn),
    "counter": (responses.check_counter, responses.perform_counter),
    "allow": (responses.check_allow, responses.perform_allow),
    "choose": (choices.check_choose, choices.perform_choose),
    "accuse": (arrests.check_accuse, arrests.perform_accuse),
    "next_case": (story.check_next_case, story.perform_next_case),
    "timeout": (check_timeout, perform_timeout),
    "autoplay": (check_autoplay, perform_autoplay),
}

assert set(HANDLERS) == set(ACTIONS), "every action is documented and handled"


def check_actor(state: dict, player: object, action: dict) -> Refusal | None:
    kind = action["type"]
    if kind in SYSTEM_ACTIONS:
        if player != SYSTEM:
            return refuse("system_only", f"Only the server sends {kind!r} actions.")
        if state["phase"] == OVER:
            return refuse("game_over", "The game is over.")
        return None
    if not is_seat(state, player):
        return refuse("unknown_player", f"There is no seat {player!r} at this table.")
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    decision, seats = open_decision(state)
    if player not in seats:
        if kind in ANSWERS:
            return refuse("not_waiting_for_you", "Nobody is waiting for your answer now.")
        return refuse("not_your_turn", "It is not your turn.")
    if decision not in ACTION_STEPS[kind]:
        return refuse("wrong_step", f"You may not {kind.replace('_', ' ')} now.")
    return None


MOVES = MoveTable(HANDLERS, check_actor=check_actor, clone=draft, settle=settling.settle)
apply = MOVES.apply
