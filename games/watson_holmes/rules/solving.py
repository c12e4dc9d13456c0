"""221B Baker Street: the solving order, verdicts, winners, elimination; the end of rounds.

The engine never sees the correct answers. When answers need judging it files a request
(``state["requests"]``, judging.py) and waits for the server's ``judged`` action;
``pending_judgement`` lists what is waiting.
"""

from __future__ import annotations

from games.base import SYSTEM, Event, Refusal
from games.watson_holmes.rules import holmes
from games.watson_holmes.rules import setup as setups
from games.watson_holmes.rules.judging import (
    CHECK,
    JUDGED_VERDICTS,
    RESTATE,
    SOLVE,
    file_request,
    find_request,
    request_index,
)
from games.watson_holmes.rules.state import (
    ELIMINATED,
    LAST_PLAYER_MAX_ROUNDS,
    OVER,
    PLAYING,
    TOBY_VALUE,
    WON,
    answer_texts,
    clockwise_from,
    is_playing,
    playing_seats,
    refuse,
)

MAX_REASON_LENGTH = 300
ATTEMPT_KINDS = (SOLVE, RESTATE)
STILL_UNSURE_REASON = "Still not plain after restating, so it counts as wrong."
NO_RESTATEMENT_REASON = "No plainer answer came before the table's timer ran out."


def solving_order_key(state: dict, seat: int) -> int:
    """Carriages held, plus Toby's 2 when the Toby token went to 221B with the player."""
    bonus = TOBY_VALUE if seat in state["effects"]["toby_221b"] else 0
    return state["players"][seat]["carriages"] + bonus


def next_group(state: dict) -> list[Event]:
    """File requests for the next players to be judged, or end the round."""
    queue = [
        seat for seat in state["solving"]["queue"] if state["players"][seat]["status"] == PLAYING
    ]
    state["solving"]["queue"] = queue
    if not queue:
        state["solving"]["group"] = []
        return end_round(state)
    # Mrs Hudson jumps the queue; an original card acts before Wiggins's copy of it.
    hudson = [seat for seat in state["effects"]["hudson"] if seat in queue]
    if hudson:
        group = hudson[:1]
    else:
        best = max(solving_order_key(state, seat) for seat in queue)
        # Equal counts are judged together, so several players can win at once.
        group = [seat for seat in queue if solving_order_key(state, seat) == best]
    state["solving"]["queue"] = [seat for seat in queue if seat not in group]
    state["solving"]["group"] = group
    state["solving"]["pause"] = []
    for seat in group:
        file_request(state, SOLVE, seat, state["answers"][seat])
    return [Event("judging", data={"players": group})]


def judged_answers(request: dict) -> dict:
    """The answers a judging covers: all of an attempt, or only the restated ones."""
    if request["kind"] == RESTATE:
        return {qid: request["answers"][qid] for qid in request["asked"]}
    return dict(request["answers"])


def judged_example(request: dict) -> dict:
    return {
        "type": "judged",
        "request": request["id"],
        "verdicts": {qid: "correct|wrong|unsure" for qid in judged_answers(request)},
    }


def pending_judgement(state: dict) -> list[dict]:
    """What the server must judge now: one entry per request, with the ``judged`` format.

    ``kind`` is ``"solve"`` (a full attempt at 221B: every question), ``"restate"`` (the
    answers of an attempt the player was asked to say more plainly) or ``"check"`` (the
    Holmes card's answer check: one question). Each verdict is ``correct``, ``wrong`` or
    ``unsure``; the rules decide what unsure means for each kind. ``reasons`` (optional,
    one sentence per question) are kept for the debrief.
    """
    return [
        {
            "request": request["id"],
            "kind": request["kind"],
            "player": request["player"],
            "answers": judged_answers(request),
            "action": judged_example(request),
        }
        for request in state["requests"]
        if request["status"] == "judging"
    ]


# --- judged (SYSTEM) -------------------------------------------------------------------------


def check_judged(state: dict, seat: object, action: dict) -> Refusal | dict:
    if seat != SYSTEM:
        return refuse("system_only", "Only the Baker Street checker gives verdicts.")
    request = find_request(state, action.get("request"))
    if request is None or request["status"] != "judging":
        return refuse(
            "unknown_request", f"No answers wait for judgement as {action.get('request')!r}."
        )
    verdicts = action.get("verdicts")
    questions = judged_answers(request)
    if not isinstance(verdicts, dict) or set(verdicts) != set(questions):
        return refuse("bad_verdicts", f"Give one verdict for each of {', '.join(questions)}.")
    if any(verdict not in JUDGED_VERDICTS for verdict in verdicts.values()):
        return refuse("bad_verdicts", f"A verdict is one of {', '.join(JUDGED_VERDICTS)}.")
    reasons = action.get("reasons", {})
    if not isinstance(reasons, dict) or not set(reasons) <= set(questions):
        return refuse("bad_reasons", "Reasons, if given, map judged questions to a sentence.")
    if any(not isinstance(text, str) or len(text) > MAX_REASON_LENGTH for text in reasons.values()):
        return refuse(
            "bad_reasons", f"A reason is a text of at most {MAX_REASON_LENGTH} characters."
        )
    return {"request": request["id"], "verdicts": dict(verdicts), "reasons": dict(reasons)}


def perform_judged(state: dict, seat: object, params: dict) -> list[Event]:
    index = request_index(state, params["request"])
    request = state["requests"][index]
    if request["kind"] == CHECK:
        return holmes.receive_check_verdict(state, request, params["verdicts"])
    if request["kind"] == RESTATE:
        request = _take_restatement_verdicts(request, params)
    else:
        request = _take_first_verdicts(request, params)
    state["requests"][index] = request
    if request["status"] == "restating":
        return _ask_restatement(state, request)
    return resolve_if_complete(state)


def _take_first_verdicts(request: dict, params: dict) -> dict:
    unsure = [qid for qid, verdict in params["verdicts"].items() if verdict == "unsure"]
    return {
        **request,
        "verdicts": dict(params["verdicts"]),
        "reasons": dict(params["reasons"]),
        "asked": unsure,
        "status": "restating" if unsure else "judged",
    }


def _take_restatement_verdicts(request: dict, params: dict) -> dict:
    # Only one restatement per question: unsure a second time counts as wrong.
    verdicts = {
        qid: "wrong" if verdict == "unsure" else verdict
        for qid, verdict in params["verdicts"].items()
    }
    reasons = dict(params["reasons"])
    for qid, verdict in params["verdicts"].items():
        if verdict == "unsure":
            reasons[qid] = f"{STILL_UNSURE_REASON} {reasons.get(qid, '')}".strip()
    return {
        **request,
        "verdicts": {**request["verdicts"], **verdicts},
        "reasons": {**request["reasons"], **reasons},
        "status": "judged",
    }


def _ask_restatement(state: dict, request: dict) -> list[Event]:
    seat = request["player"]
    # The others learn only that the table waits for this player, not for what.
    return [
        Event("restatement_asked", data={"player": seat}),
        Event("restate_your_answers", audience=(seat,), data={"questions": list(request["asked"])}),
    ]


def resolve_if_complete(state: dict) -> list[Event]:
    group = state["solving"]["group"]
    group_requests = [
        r for r in state["requests"] if r["kind"] in ATTEMPT_KINDS and r["player"] in group
    ]
    if any(r["status"] != "judged" for r in group_requests):
        return []
    return resolve_group(state, group_requests)


# --- restate (a player asked to say an answer more plainly) ---------------------------------


def restatement_for(state: dict, seat: int) -> dict | None:
    """The attempt of ``seat`` waiting for plainer answers, or ``None``."""
    for request in state["requests"]:
        if request["player"] == seat and request["status"] == "restating":
            return request
    return None


def restating_seats(state: dict) -> list[int]:
    return [r["player"] for r in state["requests"] if r["status"] == "restating"]


def check_restate(state: dict, seat: int, action: dict) -> Refusal | dict:
    request = restatement_for(state, seat)
    if request is None:
        return refuse("nothing_to_restate", "Sherlock has not asked you to restate any answer.")
    answers = action.get("answers")
    asked = request["asked"]
    if not isinstance(answers, dict) or set(answers) != set(asked):
        return refuse(
            "bad_answers",
            f"Restate exactly the answers Sherlock asked about: {', '.join(asked)}.",
        )
    return answer_texts(state, answers, asked, "give Sherlock these answers")


def perform_restate(state: dict, seat: int, params: dict) -> list[Event]:
    index = state["requests"].index(restatement_for(state, seat))
    request = state["requests"][index]
    number = state["next_request"]
    state["next_request"] += 1
    # A fresh number: the server files and judges the restatement as a request of its own.
    state["requests"][index] = {
        **request,
        "id": number,
        "kind": RESTATE,
        "status": "judging",
        "first": {qid: request["answers"][qid] for qid in request["asked"]},
        "answers": {**request["answers"], **params["answers"]},
    }
    return [
        Event("answers_restated", data={"player": seat}),
        Event("your_restatement", audience=(seat,), data={"answers": dict(params["answers"])}),
    ]


def end_restatements(state: dict) -> list[Event]:
    """The table's timer ran out: an answer nobody restated counts as wrong."""
    waiting = [r for r in state["requests"] if r["status"] == "restating"]
    if not waiting:
        return []
    for request in waiting:
        index = state["requests"].index(request)
        state["requests"][index] = {
            **request,
            "verdicts": {
                **request["verdicts"],
                **{qid: "wrong" for qid in request["asked"]},
            },
            "reasons": {
                **request["reasons"],
                **{qid: NO_RESTATEMENT_REASON for qid in request["asked"]},
            },
            "status": "judged",
        }
    return resolve_if_complete(state)


def resolve_group(state: dict, group_requests: list[dict]) -> list[Event]:
    events = []
    winners = []
    questions = len(state["case"]["questions"])
    for request in group_requests:
        state["requests"].remove(request)
        seat = request["player"]
        player = state["players"][seat]
        right = sum(1 for verdict in request["verdicts"].values() if verdict == "correct")
        player["attempt"] = attempt_record(request, right)
        if right == questions:
            winners.append(seat)
            player["status"] = WON
            player["place"] = state["next_place"]
            events.append(Event("solved", data={"player": seat, "place": player["place"]}))
        else:
            player["status"] = ELIMINATED
            events.append(
                Event("eliminated", data={"player": seat, "correct": right, "questions": questions})
            )
    state["solving"]["group"] = []
    if winners:
        state["next_place"] += 1
        if not state["options"]["play_on"]:
            return events + game_over(state)
    waiting = [seat for seat in state["solving"]["queue"] if is_playing(state, seat)]
    if len(winners) < len(group_requests) and waiting:
        # The rulebook's note: after a failure, the players still waiting at 221B may use
        # the Holmes card (which changes their carriages, so the order) and rewrite their
        # answers. Nobody else is called until each of them has confirmed their answers.
        state["solving"]["pause"] = waiting
        return events + [Event("attempts_paused", data={"players": waiting})]
    return events + next_group(state)


def attempt_record(request: dict, right: int) -> dict:
    """What a judged attempt leaves for the player's debrief: each answer as finally given,
    its verdict and the checker's reason, and the first wording of any restated answer."""
    return {
        "answers": dict(request["answers"]),
        "correct": right,
        "verdicts": dict(request["verdicts"]),
        "reasons": dict(request.get("reasons") or {}),
        "restated": dict(request.get("first") or {}),
    }


def waiting_to_confirm(state: dict) -> list[int]:
    """Players at 221B the judging waits for after a failure (see ``resolve_group``)."""
    return state["solving"].get("pause") or []


def confirm_answers(state: dict, seat: int) -> list[Event]:
    """A waiting player's answers stand; once everyone waited for has said so, go on."""
    waiting = waiting_to_confirm(state)
    if seat not in waiting:
        return []
    state["solving"]["pause"] = [other for other in waiting if other != seat]
    return [] if state["solving"]["pause"] else next_group(state)


def end_pause(state: dict) -> list[Event]:
    """The table's timer ran out: the answers written so far stand."""
    if not waiting_to_confirm(state):
        return []
    state["solving"]["pause"] = []
    return next_group(state)


# --- end of a round and of the game ---------------------------------------------------------


def end_round(state: dict) -> list[Event]:
    playing = playing_seats(state)
    if not playing:
        return game_over(state)
    events = _count_down_last_player(state, playing)
    if state["phase"] == OVER:
        return events
    # The Diary stays with a player still investigating.
    state["diary"] = next(s for s in clockwise_from(state, state["diary"]) if s in playing)
    state["round"] += 1
    setups.start_round(state)
    return events + [
        Event("round_started", data={"round": state["round"], "diary": state["diary"]})
    ]


def _count_down_last_player(state: dict, playing: list[int]) -> list[Event]:
    """Alone in the game: min(carriages, 4) more rounds, then 221B is compulsory."""
    if len(state["players"]) < 2 or len(playing) != 1:
        return []
    seat = playing[0]
    last = state["last_player"]
    if last is None or last["seat"] != seat:
        rounds = min(state["players"][seat]["carriages"], LAST_PLAYER_MAX_ROUNDS)
        state["last_player"] = {"seat": seat, "rounds_left": rounds}
        return [Event("last_player", data={"player": seat, "rounds": rounds})]
    last["rounds_left"] = max(0, last["rounds_left"] - 1)
    return []


def game_over(state: dict) -> list[Event]:
    winners = [seat for seat, player in enumerate(state["players"]) if player["status"] == WON]
    state["phase"] = OVER
    state["step"] = None
    state["turn"] = None
    state["requests"] = []
    state["result"] = {
        "kind": "solved" if winners else "everyone_lost",
        "winners": winners,
        "rounds": state["round"],
    }
    return [Event("game_over", data=dict(state["result"]))]
