"""The Holmes card: answer consultation and answer check, each once per player per game.

Available once someone has been eliminated, at any time of a round, to a player still in
the game, for 3 carriages. A check is judged by the server; when the server is unsure, the
eliminated players rule on it (``rule``), speaking as Sherlock Holmes.
"""

from __future__ import annotations

from games.base import Event, Refusal
from games.watson_holmes.rules import characters
from games.watson_holmes.rules.judging import VERDICTS, file_request, find_request
from games.watson_holmes.rules.state import (
    ELIMINATED,
    HOLMES_COST,
    MAX_ANSWER_LENGTH,
    blank_answer,
    carriages_text,
    eliminated_seats,
    has_left,
    numbered_question,
    pay,
    player_name,
    refuse,
    sherlock_voices,
)


def check_holmes(state: dict, seat: int, use: str) -> Refusal | None:
    refusal = characters.check_in_game(state, seat)
    if refusal:
        return refusal
    if not eliminated_seats(state):
        return refuse(
            "holmes_unavailable", "The Holmes card is available once someone has been eliminated."
        )
    if state["players"][seat]["holmes"][use] is not None:
        return refuse("holmes_used", "You have already used this Holmes action.")
    held = state["players"][seat]["carriages"]
    if held < HOLMES_COST:
        return refuse(
            "not_enough_carriages",
            f"The Holmes card costs {HOLMES_COST} carriages and you hold {carriages_text(held)}.",
        )
    return None


# --- holmes_consult ---------------------------------------------------------------------------


def check_consult(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = check_holmes(state, seat, "consult")
    if refusal:
        return refusal
    target = action.get("target")
    if target not in eliminated_seats(state):
        names = ", ".join(player_name(state, s) for s in eliminated_seats(state))
        return refuse(
            "not_eliminated", f"You can consult the answers of an eliminated player: {names}."
        )
    return {"target": target}


def perform_consult(state: dict, seat: int, params: dict) -> list[Event]:
    target = params["target"]
    attempt = state["players"][target]["attempt"]
    pay(state, seat, "carriages", HOLMES_COST)
    result = {"target": target, "answers": dict(attempt["answers"]), "correct": attempt["correct"]}
    state["players"][seat]["holmes"]["consult"] = result
    return [
        Event("holmes_consulted", data={"player": seat, "target": target}),
        Event("consultation", audience=(seat,), data=result),
    ]


# --- holmes_check -------------------------------------------------------------------------------


def check_check(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = check_holmes(state, seat, "check")
    if refusal:
        return refusal
    question = action.get("question")
    if question not in [q["id"] for q in state["case"]["questions"]]:
        return refuse("unknown_question", f"There is no question {question!r} in this case.")
    answer = action.get("answer")
    if not isinstance(answer, str):
        return refuse("malformed_action", '"answer" must be a text.')
    if len(answer) > MAX_ANSWER_LENGTH:
        return refuse("too_long", f"An answer is at most {MAX_ANSWER_LENGTH} characters.")
    if not answer.strip():
        # Three carriages for Sherlock to judge nothing: refused, like a blank at 221B.
        number, asked = numbered_question(state, question)
        return blank_answer(number, asked, "ask Sherlock to check it")
    return {"question": question, "answer": answer}


def perform_check(state: dict, seat: int, params: dict) -> list[Event]:
    pay(state, seat, "carriages", HOLMES_COST)
    question, answer = params["question"], params["answer"]
    state["players"][seat]["holmes"]["check"] = {
        "question": question,
        "answer": answer,
        "verdict": None,
    }
    file_request(state, "check", seat, {question: answer})
    return [Event("holmes_check_asked", data={"player": seat, "question": question})]


def receive_check_verdict(state: dict, request: dict, verdicts: dict) -> list[Event]:
    ((question, verdict),) = verdicts.items()
    if verdict != "unsure":
        return _answer_check(state, request, verdict, by=None)
    # The checker cannot tell: Sherlock's voices, the eliminated players, decide. If all
    # of them have left the table, nobody can: the doubt counts as wrong, as at a timeout.
    if not sherlock_voices(state):
        return _answer_check(state, request, "wrong", by=None)
    request["status"] = "ruling"
    return [
        Event("ruling_needed", data={"player": request["player"], "question": question}),
        Event(
            "ruling_request",
            audience=tuple(sherlock_voices(state)),
            data={
                "request": request["id"],
                "player": request["player"],
                "question": question,
                "answer": request["answers"][question],
            },
        ),
    ]


def _answer_check(state: dict, request: dict, verdict: str, by: int | None) -> list[Event]:
    state["requests"].remove(request)
    seat = request["player"]
    state["players"][seat]["holmes"]["check"]["verdict"] = verdict
    return [
        Event("holmes_check_answered", data={"player": seat, "ruled_by": by}),
        Event("check_result", audience=(seat,), data={"verdict": verdict}),
    ]


# --- rule (an eliminated player) ------------------------------------------------------------


def rulings(state: dict) -> list[dict]:
    return [request for request in state["requests"] if request["status"] == "ruling"]


def check_rule(state: dict, seat: int, action: dict) -> Refusal | dict:
    if state["players"][seat]["status"] != ELIMINATED:
        return refuse("not_eliminated", "Only eliminated players rule, as Sherlock Holmes.")
    if has_left(state, seat):
        return refuse("left_the_game", "You have left the game.")
    request = find_request(state, action.get("request"))
    if request is None or request["status"] != "ruling":
        return refuse(
            "unknown_request", f"No answer waits for a ruling as {action.get('request')!r}."
        )
    if action.get("verdict") not in VERDICTS:
        return refuse("bad_verdicts", "Rule correct or wrong.")
    return {"request": request["id"], "verdict": action["verdict"]}


def perform_rule(state: dict, seat: int, params: dict) -> list[Event]:
    request = find_request(state, params["request"])
    return _answer_check(state, request, params["verdict"], by=seat)


def time_out_rulings(state: dict) -> list[Event]:
    """A ruling nobody gave in time counts as wrong: the doubt does not favour the asker."""
    events = []
    for request in rulings(state):
        events += _answer_check(state, request, "wrong", by=None)
    return events
