"""221B Baker Street's requests for judging: what the engine files when answers need the
server's verdicts, their kinds, the verdicts they take, and finding them again.

Apart from the solving order (solving.py) because a Holmes check files one too
(holmes.py), and solving hands a check's verdicts back to holmes: with these here,
neither of the two imports the other's half.
"""

from __future__ import annotations

VERDICTS = ("correct", "wrong")
CHECK_VERDICTS = ("correct", "wrong", "unsure")
# Every judging may come back unsure: a Holmes check goes to the eliminated players, a
# first attempt at 221B asks for a restatement, a restatement counts as wrong.
JUDGED_VERDICTS = CHECK_VERDICTS
# Request kinds: a full attempt at 221B, the restated answers of one, a Holmes check.
SOLVE, RESTATE, CHECK = "solve", "restate", "check"


def file_request(state: dict, kind: str, seat: int, answers: dict) -> int:
    number = state["next_request"]
    state["next_request"] += 1
    state["requests"].append(
        {"id": number, "kind": kind, "player": seat, "answers": answers, "status": "judging"}
    )
    return number


def find_request(state: dict, number: object) -> dict | None:
    for request in state["requests"]:
        if request["id"] == number:
            return request
    return None


def request_index(state: dict, number: object) -> int | None:
    for index, request in enumerate(state["requests"]):
        if request["id"] == number:
            return index
    return None
