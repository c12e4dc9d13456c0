"""The engine's vocabulary: constants, look-ups in the state and token bookkeeping.

The state is a plain JSON-able dict (see ``setup.py`` for its shape). Location keys are
strings everywhere in the state: ``"12"`` for the case's card number 12, ``"221B"`` for
221B Baker Street and ``"carriage_stop"`` for the Carriage Stop. Actions name case
locations by their number (an int).
"""

from __future__ import annotations

from games.base import Refusal, refuse
from games.words import counted as plural

NAME = "watson_holmes"

BAKER_STREET = "221B"
CARRIAGE_STOP = "carriage_stop"
SPECIAL_LOCATIONS = {BAKER_STREET: "221B Baker Street", CARRIAGE_STOP: "the Carriage Stop"}

# Every token of a kind is in the stock, in a player's hand or on a card.
TOKEN_TOTALS = {"carriages": 57, "police": 6, "call_off": 6, "lockpick": 2}
ONE_OF_A_KIND = ("police", "call_off", "lockpick")

CHARACTERS = {
    "toby": "Toby",
    "mrs_hudson": "Mrs Hudson",
    "irene_adler": "Irene Adler",
    "wiggins": "Wiggins",
    "mycroft": "Mycroft Holmes",
    "lestrade": "Inspector Lestrade",
    "mary_morstan": "Mary Morstan",
    "billy": "Billy the page",
}

ICONS = ("police", "call_off", "lockpick", "carriages", "no_watson", "no_police", "locked")

WATSON_COST = 4
HOLMES_COST = 3
DISCARD_GAIN = 3
CARRIAGE_STOP_GAIN = 3
TOBY_VALUE = 2
DEFAULT_ICON_CARRIAGES = 2
LAST_PLAYER_MAX_ROUNDS = 4
MAX_ANSWER_LENGTH = 500

# Player statuses.
PLAYING = "playing"
ELIMINATED = "eliminated"
WON = "won"
# A person left the game while still investigating (``withdraw.py``): play passes them by.
WITHDRAWN = "withdrawn"

# Phases and their steps.
VISITING = "visiting"
INVESTIGATION = "investigation"
OVER = "over"
WATSON_STEP = "watson"
READING_STEP = "reading"
SOLVING_STEP = "solving"


def clone(state: dict) -> dict:
    """A copy of ``state`` that ``perform_*`` functions may change.

    A generic deep copy (pickle, deepcopy) costs most of an ``apply``, so this copies
    exactly the containers the engine changes in place, and shares the values it only
    ever replaces whole: the case and options, answers, attempts, results. Keep it in
    step with the state's shape (``setup.py``); the random playouts check after every
    action that the input state did not change.
    """
    new = dict(state)
    new["players"] = [_clone_player(player) for player in state["players"]]
    new["stock"] = dict(state["stock"])
    new["pawns"] = list(state["pawns"])
    new["bids"] = {
        key: {**bid, "guests": list(bid["guests"])} for key, bid in state["bids"].items()
    }
    new["police"] = list(state["police"])
    new["watson"] = dict(state["watson"])
    new["effects"] = {name: list(seats) for name, seats in state["effects"].items()}
    new["readings"] = [list(keys) for keys in state["readings"]]
    new["done"] = list(state["done"])
    new["answers"] = list(state["answers"])
    new["requests"] = [dict(request) for request in state["requests"]]
    new["solving"] = {name: list(seats) for name, seats in state["solving"].items()}
    if state["last_player"] is not None:
        new["last_player"] = dict(state["last_player"])
    return new


def _clone_player(player: dict) -> dict:
    new = dict(player)
    new["holmes"] = {
        use: dict(result) if result else result for use, result in player["holmes"].items()
    }
    new["casebook"] = list(player["casebook"])
    return new


def answer_texts(state: dict, answers: dict, question_ids, before: str) -> Refusal | dict:
    """The answers to ``question_ids`` as texts within the length limit, none of them
    blank, or why not (the first faulty one in the case's order).

    A blank answer is never judged: it is refused with a sentence that names the
    question, and the question's id in the refusal's details. ``before`` is what the
    player is doing, to end that sentence: "give your answers", say.
    """
    for number, question in enumerate(state["case"]["questions"], 1):
        qid = question["id"]
        if qid not in question_ids:
            continue
        text = answers[qid]
        if not isinstance(text, str):
            return refuse("malformed_action", f"The answer to {qid} must be a text.")
        if len(text) > MAX_ANSWER_LENGTH:
            return refuse(
                "too_long", f"The answer to {qid} is longer than {MAX_ANSWER_LENGTH} characters."
            )
        if not text.strip():
            return blank_answer(number, question, before)
    return {"answers": {qid: answers[qid] for qid in question_ids}}


def blank_answer(number: int, question: dict, before: str) -> Refusal:
    """The refusal of an answer left empty (or only spaces): write it first."""
    return refuse(
        "blank_answer",
        f"Write an answer to question {number}, “{question['ask']}”, before you {before}.",
        question=question["id"],
    )


def numbered_question(state: dict, qid: str) -> tuple[int, dict]:
    """A question of the case and its number there (1 for the first)."""
    for number, question in enumerate(state["case"]["questions"], 1):
        if question["id"] == qid:
            return number, question
    raise KeyError(qid)


def player_name(state: dict, seat: int) -> str:
    return state["players"][seat]["name"]


def card_key(state: dict, number: object) -> str | None:
    """The key of the case card an action names by its number, or ``None``."""
    if not isinstance(number, int) or isinstance(number, bool):
        return None
    key = str(number)
    return key if key in state["case"]["locations"] else None


def location_card(state: dict, key: str) -> dict | None:
    """The case card stored under ``key``, or ``None`` for 221B, the Carriage Stop or junk."""
    return state["case"]["locations"].get(key)


def location_name(state: dict, key: str) -> str:
    if key in SPECIAL_LOCATIONS:
        return SPECIAL_LOCATIONS[key]
    card = location_card(state, key)
    return card["name"] if card else f"location {key}"


def has_icon(state: dict, key: str, icon: str) -> bool:
    card = location_card(state, key)
    return card is not None and icon in card["icons"]


def carriages_text(count: int) -> str:
    return plural(count, "carriage")


def seats(state: dict) -> range:
    return range(len(state["players"]))


def playing_seats(state: dict) -> list[int]:
    """Seats still trying to solve the case (neither eliminated nor already a winner)."""
    return [seat for seat, player in enumerate(state["players"]) if player["status"] == PLAYING]


def is_playing(state: dict, seat: int) -> bool:
    return state["players"][seat]["status"] == PLAYING


def eliminated_seats(state: dict) -> list[int]:
    return [s for s, player in enumerate(state["players"]) if player["status"] == ELIMINATED]


def has_left(state: dict, seat: int) -> bool:
    """Whether the person in ``seat`` left the game (whatever their status was then).

    States from before leaving existed have no ``left`` key: nobody had left."""
    return bool(state["players"][seat].get("left"))


def sherlock_voices(state: dict) -> list[int]:
    """Eliminated players still at the table: they rule on unsure Holmes checks."""
    return [seat for seat in eliminated_seats(state) if not has_left(state, seat)]


def gain(state: dict, seat: int, kind: str, amount: int = 1) -> int:
    """Move up to ``amount`` tokens from the stock to a player; returns how many moved.

    The stock is limited, and nobody holds two police, call-off or lockpick tokens.
    """
    player = state["players"][seat]
    room = 1 - player[kind] if kind in ONE_OF_A_KIND else amount
    moved = max(0, min(amount, room, state["stock"][kind]))
    state["stock"][kind] -= moved
    player[kind] += moved
    return moved


def pay(state: dict, seat: int, kind: str, amount: int = 1) -> None:
    """Move ``amount`` tokens from a player back to the stock (callers check they hold them)."""
    state["players"][seat][kind] -= amount
    state["stock"][kind] += amount


def clockwise_from(state: dict, seat: int) -> list[int]:
    """Every seat once, starting at ``seat`` and going clockwise."""
    count = len(state["players"])
    return [(seat + offset) % count for offset in range(count)]


def pawn_readers(state: dict, key: str) -> list[int]:
    """The seats whose pawn reads the case card ``key`` this round: its holder and guests."""
    bid = state["bids"].get(key)
    if bid is None:
        return []
    return [bid["player"], *bid["guests"]]


def zone_of(state: dict, key: str) -> str | None:
    """The zone of a location; ``None`` means it belongs to every zone."""
    card = location_card(state, key)
    return card.get("zone") if card else None


def travel_cost(state: dict, seat: int, key: str) -> int:
    """Carriages a player pays to the stock to visit ``key`` from their zone."""
    zones = state["case"]["zones"]
    target = zone_of(state, key)
    if not zones or target is None or target == state["players"][seat]["zone"]:
        return 0
    return zones["travel_cost"]
