"""The action vocabulary, and ``apply``: check an action, then perform it on a copy.

Every handler is split in two (checking, then doing): ``check_*`` reads the state and
returns a ``Refusal`` or the parameters to act on; ``perform_*`` changes a fresh copy of the
state and returns the events. A refusal therefore never costs a copy. ``MOVES`` (a
``games.base.MoveTable``) dispatches between them.
"""

from __future__ import annotations

from games.base import SYSTEM, Check, Event, MoveTable, Perform, Refusal
from games.watson_holmes.rules import characters, holmes, investigation, solving, visiting
from games.watson_holmes.rules.state import (
    BAKER_STREET,
    CARRIAGE_STOP,
    INVESTIGATION,
    OVER,
    READING_STEP,
    SOLVING_STEP,
    VISITING,
    WATSON_STEP,
    clone,
    refuse,
    sherlock_voices,
)

ACTIONS: dict[str, dict] = {
    "take_watson": {
        "description": "On your turn, before placing your pawn: take the Watson card for "
        "this round, paying 4 carriages.",
        "example": {"type": "take_watson"},
    },
    "visit": {
        "description": "On your turn: place your pawn on a case location, on foot "
        "(carriages 0) or with carriages; outbid its holder with more carriages than are "
        'on it. Optional: "call_off": true plays your call-off token on a police token '
        'there; "character" plays Toby (instead of carriages), Mary Morstan (join the '
        "holder without bidding) or Billy the page (police or lock need no token this "
        "round). Travelling to another zone adds the case's travel cost.",
        "example": {"type": "visit", "location": 12, "carriages": 2},
    },
    "carriage_stop": {
        "description": "On your turn: go to the Carriage Stop and gain 3 carriages at "
        "the end of the investigation.",
        "example": {"type": "carriage_stop"},
    },
    "baker_street": {
        "description": "On your turn: go to 221B Baker Street to solve the case. Optional "
        '"character": "toby" adds 2 to your place in the solving order.',
        "example": {"type": "baker_street"},
    },
    "watson_read": {
        "description": "Holder of Watson, at the start of the investigation: read aloud "
        "the card of a location another player visits.",
        "example": {"type": "watson_read", "location": 12},
    },
    "place_police": {
        "description": "Reader, before saying you are done: put your police token on the "
        "card you have just read.",
        "example": {"type": "place_police", "location": 12},
    },
    "mycroft_read": {
        "description": "After revealing Mycroft Holmes, while reading: also read a card "
        "nobody visits this round.",
        "example": {"type": "mycroft_read", "location": 7},
    },
    "done_reading": {
        "description": "Reader: you have finished reading this round.",
        "example": {"type": "done_reading"},
    },
    "answer": {
        "description": "At 221B Baker Street: write your answer to every question (a "
        "blank answer is refused, naming the question in details.question); you may "
        "rewrite them until your own attempt is judged. After another player at 221B "
        "fails, those still waiting send their answers again (the same or rewritten) "
        "before the next attempt is judged.",
        "example": {"type": "answer", "answers": {"culprit": "Margaret Ellen Doyle"}},
    },
    "restate": {
        "description": "At 221B, when Sherlock is not sure what one of your answers "
        "means: say those answers again, more plainly (the name, place or number alone). "
        "Only the questions listed in your view's restatement, once each, none blank; if "
        "the checker is still unsure, the answer counts as wrong.",
        "example": {"type": "restate", "answers": {"place": "the crypt of St Olave's"}},
    },
    "character": {
        "description": "Use a character's action on its own: mrs_hudson (at 221B, be "
        "judged first), irene_adler or mycroft (during a visiting phase), lestrade (take "
        "a police and a call-off token). Holding Wiggins, name a character another player "
        "has revealed to copy it.",
        "example": {"type": "character", "character": "lestrade"},
    },
    "discard_character": {
        "description": "Discard your unused character for 3 carriages.",
        "example": {"type": "discard_character"},
    },
    "holmes_consult": {
        "description": "Holmes card, once per game, 3 carriages: see an eliminated "
        "player's answers and how many were right.",
        "example": {"type": "holmes_consult", "target": 2},
    },
    "holmes_check": {
        "description": "Holmes card, once per game, 3 carriages: have one answer (not "
        "blank) to one question judged right or wrong.",
        "example": {"type": "holmes_check", "question": "culprit", "answer": "Ellen Doyle"},
    },
    "rule": {
        "description": "Eliminated player, as Sherlock's voice: rule on a Holmes check "
        "the checker was unsure about.",
        "example": {"type": "rule", "request": 4, "verdict": "wrong"},
    },
    "judged": {
        "description": 'Server only (player "system"): the verdicts on answers listed by '
        "pending_judgement, one per question: correct, wrong or unsure; the optional "
        "reasons give the checker's sentence for each question.",
        "example": {"type": "judged", "request": 3, "verdicts": {"culprit": "correct"}},
    },
    "timeout": {
        "description": "Server only: the table's timer ran out. The player on turn goes "
        "to the Carriage Stop (to 221B if they must), Watson is not used, readers are "
        "done, 221B players who wrote no answers are not judged this round (they play "
        "on), players waiting at 221B after a failure keep the answers they wrote, "
        "answers not restated in time count as wrong, open rulings count as wrong.",
        "example": {"type": "timeout"},
    },
}

SYSTEM_ACTIONS = ("judged", "timeout")
# What a player out of the game may still do: rule on a check, as Sherlock's voice.
SHERLOCK_ACTIONS = ("rule",)


# --- notebook (kept by the server) ----------------------------------------------------------


def notes_blocked(state: dict, seat: int) -> bool:
    """Irene Adler: in the coming investigation nobody else writes, except at 221B.

    The notebook itself is kept by the server; it asks this (through the view's
    ``you.can_write_notes``) before saving a seat's notebook.
    """
    if state["phase"] != INVESTIGATION or state["pawns"][seat] == BAKER_STREET:
        return False
    return any(user != seat for user in state["effects"]["irene"])


# --- timeout (SYSTEM) -----------------------------------------------------------------------


def check_timeout(state: dict, seat: object, action: dict) -> Refusal | dict:
    if seat != SYSTEM:
        return refuse("system_only", "Only the table's timer runs out.")
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    if not waiting_on_players(state):
        return refuse("nothing_to_time_out", "Nobody is being waited for.")
    return {}


def waiting_on_players(state: dict) -> list[int]:
    """Seats the game waits for now (the server judging is not a player)."""
    # Open rulings wait for the eliminated players still at the table, whatever the phase.
    waiting = sherlock_voices(state) if holmes.rulings(state) else []
    if state["phase"] == VISITING:
        waiting.append(state["turn"])
    elif state["step"] == WATSON_STEP:
        waiting.append(state["watson"]["holder"])
    elif state["step"] == READING_STEP:
        for seat, done in enumerate(state["done"]):
            if not done or (
                state["pawns"][seat] == BAKER_STREET and state["answers"][seat] is None
            ):
                waiting.append(seat)
    elif state["step"] == SOLVING_STEP:
        waiting += solving.waiting_to_confirm(state)
        waiting += solving.restating_seats(state)
    return sorted(set(waiting))


def perform_timeout(state: dict, seat: object, params: dict) -> list[Event]:
    events = [Event("timeout", data={"phase": state["phase"], "step": state["step"]})]
    events += holmes.time_out_rulings(state)
    if state["phase"] == VISITING:
        turn = state["turn"]
        if visiting.must_go_to_baker_street(state, turn):
            events += visiting.perform_baker_street(state, turn, {"character": None})
        else:
            state["pawns"][turn] = CARRIAGE_STOP
            events.append(Event("went_to_carriage_stop", data={"player": turn}))
            events += visiting.end_turn(state, turn)
    elif state["step"] == WATSON_STEP:
        events.append(Event("watson_unused", data={"player": state["watson"]["holder"]}))
        events += investigation.begin_reading(state)
    elif state["step"] == READING_STEP:
        # Nobody is judged on answers they never wrote: a player at 221B without any is
        # left out of this round's judging (``finish_reading``) and plays on next round.
        for other in investigation.at_baker_street(state):
            if state["answers"][other] is None:
                events.append(Event("not_judged", data={"player": other}))
        state["done"] = [True] * len(state["done"])
        state["effects"]["mycroft"] = []
        events += investigation.finish_reading(state)
    elif state["step"] == SOLVING_STEP:
        # Restatements belong to the group being judged; a pause comes after it. Ending
        # both at once would cut short a pause that has only just begun.
        restating = solving.restating_seats(state)
        events += solving.end_restatements(state) if restating else solving.end_pause(state)
    return events


HANDLERS: dict[str, tuple[Check, Perform]] = {
    "take_watson": (visiting.check_take_watson, visiting.perform_take_watson),
    "visit": (visiting.check_visit, visiting.perform_visit),
    "carriage_stop": (visiting.check_carriage_stop, visiting.perform_carriage_stop),
    "baker_street": (visiting.check_baker_street, visiting.perform_baker_street),
    "watson_read": (investigation.check_watson_read, investigation.perform_watson_read),
    "place_police": (investigation.check_place_police, investigation.perform_place_police),
    "mycroft_read": (characters.check_mycroft_read, characters.perform_mycroft_read),
    "done_reading": (investigation.check_done_reading, investigation.perform_done_reading),
    "answer": (investigation.check_answer, investigation.perform_answer),
    "restate": (solving.check_restate, solving.perform_restate),
    "character": (characters.check_character, characters.perform_character),
    "discard_character": (characters.check_discard, characters.perform_discard),
    "holmes_consult": (holmes.check_consult, holmes.perform_consult),
    "holmes_check": (holmes.check_check, holmes.perform_check),
    "rule": (holmes.check_rule, holmes.perform_rule),
    "judged": (solving.check_judged, solving.perform_judged),
    "timeout": (check_timeout, perform_timeout),
}

assert set(HANDLERS) == set(ACTIONS), "every action is documented and handled"


def check_actor(state: dict, player: object, action: dict) -> Refusal | None:
    kind = action["type"]
    if kind in SYSTEM_ACTIONS:
        if player != SYSTEM:
            return refuse("system_only", f"Only the server sends {kind!r} actions.")
        return None
    count = len(state["players"])
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < count:
        return refuse("unknown_player", f"There is no seat {player!r} at this table.")
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    if kind not in SHERLOCK_ACTIONS:
        # From elimination on a player only speaks for Sherlock Holmes; a play-on winner
        # waits for the end. Neither uses a character, discards, reads or pays for Holmes.
        return characters.check_in_game(state, player)
    return None


MOVES = MoveTable(HANDLERS, check_actor=check_actor, clone=clone)
# ``check`` tells the legal moves (``legal.py``) without performing them.
check, apply = MOVES.check, MOVES.apply
