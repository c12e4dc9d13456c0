"""221B Baker Street: the solving order, verdicts, winners, elimination; the end of rounds.

The engine never sees the correct answers. When answers need judging it files a request
(``state["requests"]``) and waits for the server's ``judged`` action; ``pending_judgement``
lists what is waiting.
"""

from __future__ import annotations

from games.base import SYSTEM, Event, Refusal
from games.watson_holmes.rules import setup as setups
from games.watson_holmes.rules.state import (
    ELIMINATED,
    LAST_PLAYER_MAX_ROUNDS,
    OVER,
    PLAYING,
    TOBY_VALUE,
    WON,
    clockwise_from,
    is_playing,
    playing_seats,
    refuse,
)

VERDICTS = ("correct", "wrong")
CHECK_VERDICTS = ("correct", "wrong", "unsure")


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
        file_request(state, "solve", seat, state["answers"][seat])
    return [Event("judging", data={"players": group})]


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


def judged_example(request: dict) -> dict:
    verdict = "correct|wrong|unsure" if request["kind"] == "check" else "correct|wrong"
    return {
        "type": "judged",
        "request": request["id"],
        "verdicts": {qid: verdict for qid in request["answers"]},
    }


def pending_judgement(state: dict) -> list[dict]:
    """What the server must judge now: one entry per request, with the ``judged`` format.

    ``kind`` is ``"solve"`` (a full attempt at 221B: every question; verdicts
    ``correct``/``wrong``) or ``"check"`` (the Holmes card's answer check: one question;
    ``unsure`` is allowed too, and sends the answer to the eliminated players).
    """
    return [
        {
            "request": request["id"],
            "kind": request["kind"],
            "player": request["player"],
            "answers": dict(request["answers"]),
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
    allowed = CHECK_VERDICTS if request["kind"] == "check" else VERDICTS
    if not isinstance(verdicts, dict) or set(verdicts) != set(request["answers"]):
        return refuse(
            "bad_verdicts",
            f"Give one verdict for each of {', '.join(request['answers'])}.",
        )
    if any(verdict not in allowed for verdict in verdicts.values()):
        return refuse("bad_verdicts", f"A verdict is one of {', '.join(allowed)}.")
    return {"request": request["id"], "verdicts": dict(verdicts)}


def perform_judged(state: dict, seat: object, params: dict) -> list[Event]:
    from games.watson_holmes.rules import holmes  # holmes imports this module

    request = find_request(state, params["request"])
    if request["kind"] == "check":
        return holmes.receive_check_verdict(state, request, params["verdicts"])
    request["verdicts"] = params["verdicts"]
    request["status"] = "judged"
    group = state["solving"]["group"]
    group_requests = [r for r in state["requests"] if r["kind"] == "solve" and r["player"] in group]
    if any(r["status"] != "judged" for r in group_requests):
        return []
    return resolve_group(state, group_requests)


def resolve_group(state: dict, group_requests: list[dict]) -> list[Event]:
    events = []
    winners = []
    questions = len(state["case"]["questions"])
    for request in group_requests:
        state["requests"].remove(request)
        seat = request["player"]
        player = state["players"][seat]
        right = sum(1 for verdict in request["verdicts"].values() if verdict == "correct")
        if right == questions:
            winners.append(seat)
            player["status"] = WON
            player["place"] = state["next_place"]
            events.append(Event("solved", data={"player": seat, "place": player["place"]}))
        else:
            player["status"] = ELIMINATED
            player["attempt"] = {"answers": request["answers"], "correct": right}
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
