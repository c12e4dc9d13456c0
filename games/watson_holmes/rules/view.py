"""``view``: what one player (or a spectator) may see, following the spec's hidden-information
rules. Everything the server sends a player is built from this, and nothing else.

Public: questions, every location's number, name, icons, pawns, stakes and police tokens;
token counts and zones; Watson's holder and what he read aloud; revealed characters; how
many answers an eliminated player got right. Private (under ``"you"``): the texts the
player reads, whether they may write in their notebook now (Irene Adler; the notebook
itself is kept by the server), their character, their answers, their Holmes results.
Never here: correct answers (the server holds them; ``may_see_solution`` tells when to show
them), other players' texts, answers and hidden characters.
"""

from __future__ import annotations

from copy import deepcopy

from games.watson_holmes.rules import holmes, solving
from games.watson_holmes.rules.actions import notes_blocked, waiting_on_players
from games.watson_holmes.rules.state import (
    BAKER_STREET,
    CARRIAGE_STOP,
    CHARACTERS,
    ELIMINATED,
    NAME,
    OVER,
    eliminated_seats,
    location_card,
)


def view(state: dict, player: int | None = None) -> dict:
    viewer = player if isinstance(player, int) and 0 <= player < len(state["players"]) else None
    return {
        "engine": NAME,
        "viewer": viewer,
        "round": state["round"],
        "phase": state["phase"],
        "step": state["step"],
        "turn": state["turn"],
        "diary": state["diary"],
        "may_see_solution": may_see_solution(state, viewer),
        "questions": [dict(question) for question in state["case"]["questions"]],
        "zones": deepcopy(state["case"]["zones"]),
        "stock": dict(state["stock"]),
        "players": [_public_player(state, seat) for seat in range(len(state["players"]))],
        "locations": [_public_location(state, key) for key in state["case"]["order"]],
        "carriage_stop": _pawns_at(state, CARRIAGE_STOP),
        "baker_street": _pawns_at(state, BAKER_STREET),
        "watson": _watson(state),
        "holmes_available": bool(eliminated_seats(state)) and state["phase"] != OVER,
        "effects": {name: list(seats) for name, seats in state["effects"].items()},
        "judging": [
            {"player": request["player"], "kind": request["kind"], "status": request["status"]}
            for request in state["requests"]
        ],
        "waiting_for": waiting_on_players(state) if state["phase"] != OVER else [],
        "last_player": deepcopy(state["last_player"]),
        "result": deepcopy(state["result"]),
        "attempts": attempts_debrief(state) if state["phase"] == OVER else None,
        "you": _private(state, viewer) if viewer is not None else None,
    }


def may_see_solution(state: dict, viewer: int | None) -> bool:
    """Eliminated players and everyone at the end of the game may see the correct answers."""
    if state["phase"] == OVER:
        return True
    return viewer is not None and state["players"][viewer]["status"] == ELIMINATED


def _public_player(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    revealed = player["character_state"] == "used"
    attempt = player["attempt"]
    return {
        "seat": seat,
        "name": player["name"],
        "carriages": player["carriages"],
        "police": player["police"],
        "call_off": player["call_off"],
        "lockpick": player["lockpick"],
        "zone": player["zone"],
        "status": player["status"],
        # The person left the game; play passes the seat by (public, like the seat).
        "left": bool(player.get("left")),
        "place": player["place"],
        "correct": attempt["correct"] if attempt else None,
        "character": player["character"] if revealed else None,
        "character_state": player["character_state"],
        "copied": player["copied"],
        "holmes_used": {use: result is not None for use, result in player["holmes"].items()},
        "pawn": _pawn_label(state, state["pawns"][seat]),
        "done_reading": state["done"][seat],
        "answered": state["answers"][seat] is not None,
        "watson": state["watson"]["holder"] == seat,
    }


def _pawn_label(state: dict, key: str | None) -> int | str | None:
    card = location_card(state, key) if key else None
    return card["number"] if card else key


def _public_location(state: dict, key: str) -> dict:
    card = location_card(state, key)
    bid = state["bids"].get(key)
    return {
        "number": card["number"],
        "name": card["name"],
        "icons": list(card["icons"]),
        "icon_carriages": card["carriages"],
        "zone": card["zone"],
        "police": key in state["police"],
        "pawn": bid["player"] if bid else None,
        "guests": list(bid["guests"]) if bid else [],
        "carriages": bid["carriages"] if bid else 0,
        "spent": bid["spent"] if bid else 0,
        "token": bid["token"] if bid else None,
    }


def _pawns_at(state: dict, key: str) -> list[int]:
    return [seat for seat, pawn in enumerate(state["pawns"]) if pawn == key]


def _watson(state: dict) -> dict:
    read = state["watson"]["read"]
    return {"holder": state["watson"]["holder"], "read": _text(state, read) if read else None}


def _text(state: dict, key: str) -> dict:
    card = location_card(state, key)
    return {"number": card["number"], "name": card["name"], "text": card["text"]}


def _private(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    casebook = state["options"]["casebook"]
    return {
        "seat": seat,
        "character": player["character"],
        "character_name": CHARACTERS.get(player["character"]),
        "character_state": player["character_state"],
        "reading": [_text(state, key) for key in state["readings"][seat]],
        "casebook": [_text(state, key) for key in player["casebook"]] if casebook else None,
        "can_write_notes": may_write_notes(state, seat),
        "answers": deepcopy(state["answers"][seat]),
        "attempt": deepcopy(player["attempt"]),
        "holmes": deepcopy(player["holmes"]),
        "mycroft_read_due": seat in state["effects"]["mycroft"],
        "rulings": _rulings_for(state, seat),
        "restatement": _restatement_for(state, seat),
    }


# What Sherlock asks for, by the kind of answer a question wants.
PLAIN_ANSWER = {
    "person": "give the person's name alone",
    "place": "give the place's name alone",
    "number": "give the number alone",
    "yes_no": "answer yes or no",
}


def _restatement_for(state: dict, seat: int) -> dict | None:
    """The answers Sherlock asks this player to say more plainly, with a sentence each.

    Nothing here tells how near the first answer came: not its verdict's reason, nor
    whether the other answers were right.
    """
    request = solving.restatement_for(state, seat)
    if request is None:
        return None
    positions = {q["id"]: number for number, q in enumerate(state["case"]["questions"], 1)}
    questions = {q["id"]: q for q in state["case"]["questions"]}
    asked = []
    for qid in request["asked"]:
        plainly = PLAIN_ANSWER.get(questions[qid].get("kind"), "say it in a few plain words")
        asked.append(
            {
                "id": qid,
                "number": positions[qid],
                "ask": questions[qid]["ask"],
                "answer": request["answers"][qid],
                "prompt": f"Sherlock is not sure what you mean by your answer to question "
                f"{positions[qid]}: {plainly}.",
            }
        )
    return {"questions": asked}


def attempts_debrief(state: dict) -> list[dict]:
    """Every attempt made at 221B, answer by answer, with its verdict and the checker's
    reason. Public only once the game is over: until then a player's answers are theirs."""
    questions = state["case"]["questions"]
    debrief = []
    for seat, player in enumerate(state["players"]):
        attempt = player["attempt"]
        if not attempt:
            continue
        debrief.append(
            {
                "seat": seat,
                "name": player["name"],
                "status": player["status"],
                "correct": attempt["correct"],
                "answers": [
                    {
                        "id": q["id"],
                        "ask": q["ask"],
                        "answer": attempt["answers"].get(q["id"], ""),
                        "verdict": (attempt.get("verdicts") or {}).get(q["id"]),
                        "reason": (attempt.get("reasons") or {}).get(q["id"]),
                        "first_answer": (attempt.get("restated") or {}).get(q["id"]),
                    }
                    for q in questions
                ],
            }
        )
    return debrief


def _rulings_for(state: dict, seat: int) -> list[dict]:
    """Eliminated players, as Sherlock's voice, see the checks they must rule on."""
    if state["players"][seat]["status"] != ELIMINATED:
        return []
    return [
        {
            "request": request["id"],
            "player": request["player"],
            "question": question,
            "answer": answer,
        }
        for request in holmes.rulings(state)
        for question, answer in request["answers"].items()
    ]


def turn(state: dict) -> int | None:
    """The seat whose turn it is to place a pawn, or None outside that moment."""
    return state["turn"]


def may_write_notes(state: dict, seat: int) -> bool:
    """Whether the seat may write in its notebook now (Irene Adler may forbid it). The
    server keeps the notebook and asks this before each save; cheaper than a whole view."""
    return not notes_blocked(state, seat)


def is_over(state: dict) -> bool:
    return state["phase"] == OVER


def outcome(state: dict) -> dict | None:
    """``None`` while the game goes on; then who won, in which place, and the solo score."""
    if state["phase"] != OVER:
        return None
    players = state["players"]
    return {
        "result": state["result"]["kind"],
        "winners": list(state["result"]["winners"]),
        "places": {str(seat): p["place"] for seat, p in enumerate(players) if p["place"]},
        "rounds": state["round"],
        "carriages": [p["carriages"] for p in players],
        "correct": [p["attempt"]["correct"] if p["attempt"] else None for p in players],
    }
