"""Helpers for the table tests: players who talk to the HTTP API and keep every body they
receive, and a driver that plays whole games using only what each player's view offers.

The driver never reads the engine state to choose a move: it picks a seat the public view
says the table waits for, fetches that player's view and plays one of its
`game.legal_actions`. Free text (answers, Holmes checks, notebooks) is filled with
unique markers that name the writer's seat, so a leak test can tell whose text it found.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from rest_framework.test import APIClient

from play.models import ActionRequest, Colour, Table, TableEvent

# Colours chosen in the lobby: each player picks the next one, which is always free.
CHOSEN_COLOURS = list(reversed(Colour.values))
TOKEN_TOTALS = {"carriages": 57, "police": 6, "call_off": 6, "lockpick": 2}


def table_url(table_id: int, suffix: str = "") -> str:
    return f"/api/tables/{table_id}/{suffix}"


def request_outcomes(table_id: int) -> dict[str, dict]:
    """Each idempotency key's first outcome as stored: an applied move's key on its first
    event, the others' in ActionRequest (play/services/moves.py, _stored_outcome)."""
    outcomes = dict(ActionRequest.objects.filter(table_id=table_id).values_list("key", "outcome"))
    keyed = TableEvent.objects.filter(table_id=table_id, request_key__isnull=False)
    for key, version in keyed.values_list("request_key", "table_version"):
        outcomes[key] = {"applied": True, "version": version}
    return outcomes


def token_totals(state: dict) -> dict[str, int]:
    """Every token of each kind: in the stock, in hands, and carriages or police on cards."""
    totals = dict(state["stock"])
    for player in state["players"]:
        for kind in totals:
            totals[kind] += player[kind]
    totals["carriages"] += sum(bid["carriages"] for bid in state["bids"].values())
    totals["police"] += len(state["police"])
    return totals


class ApiPlayer:
    """One person's browser: a logged-in API client that keeps every body it received."""

    def __init__(self, user, seat: int | None = None):
        self.user = user
        self.seat = seat
        self.client = APIClient()
        self.client.force_login(user)
        self.bodies: list[str] = []

    def _keep(self, response):
        self.bodies.append(response.content.decode())
        return response

    def get(self, url: str, **headers):
        return self._keep(self.client.get(url, headers=headers or None))

    def post(self, url: str, data: dict | None = None, **headers):
        return self._keep(self.client.post(url, data or {}, format="json", headers=headers or None))

    def put(self, url: str, data: dict):
        return self._keep(self.client.put(url, data, format="json"))

    def view(self, table_id: int) -> dict:
        response = self.get(table_url(table_id))
        assert response.status_code == 200, response.content
        return response.json()

    def act(self, table_id: int, action: dict, version: int, key: str | None = None):
        body = {"action": action, "expected_version": version}
        if key:
            body["idempotency_key"] = key
        return self.post(table_url(table_id, "actions/"), body)


def open_table(players: list[ApiPlayer], case_slug: str, *, seed: int, options=None) -> int:
    """Create a table through the API, join it by invite code, choose colours and start.

    The seed is fixed before the start (the server draws a random one) so that the deal
    of characters, and so the whole game, is the same on every run.
    """
    host = players[0]
    created = host.post("/api/tables/", {"case": case_slug, "options": options or {}})
    assert created.status_code == 201, created.content
    table_id, code = created.json()["table"], created.json()["invite_code"]
    chosen = host.post(table_url(table_id, "colour/"), {"colour": CHOSEN_COLOURS[0]})
    assert chosen.status_code == 200, chosen.content
    for number, player in enumerate(players[1:], start=1):
        joined = player.post("/api/tables/join/", {"invite_code": code})
        assert joined.status_code == 200, joined.content
        assert joined.json()["you"]["seat"] == number
        chosen = player.post(table_url(table_id, "colour/"), {"colour": CHOSEN_COLOURS[number]})
        assert chosen.status_code == 200, chosen.content
    for number, player in enumerate(players):
        player.seat = number
    Table.objects.filter(pk=table_id).update(seed=seed)
    started = host.post(table_url(table_id, "start/"))
    assert started.status_code == 200, started.content
    assert started.json()["status"] == "playing"
    colours = [seat["colour"] for seat in started.json()["seats"]]
    assert colours == CHOSEN_COLOURS[: len(players)]
    return table_id


@dataclass
class Strategy:
    """How a random player fills in a move chosen among their legal actions.

    `correct` maps question ids to the right answers: a player answers with them once
    `solve_now(view)` says so, otherwise with markers (which the checker judges wrong).
    """

    rnd: random.Random
    correct: dict[str, str]
    solve_now: Callable[[dict], bool]
    anytime_rate: float = 0.08
    counter: int = 0

    def mark(self, seat: int) -> str:
        self.counter += 1
        return f"{seat}-{self.counter}"

    def choose(self, view: dict) -> dict | None:
        game = view["game"]
        seat = view["you"]["seat"]
        legal = game["legal_actions"]
        by_type: dict[str, list[dict]] = {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        waited = seat in game["waiting_for"]
        if not waited:
            extras = [a for t in ANYTIME for a in by_type.get(t, [])]
            return self.fill(seat, self.rnd.choice(extras), view) if extras else None
        if "rule" in by_type:
            return self.rnd.choice(by_type["rule"])
        if "answer" in by_type:
            return self.fill(seat, by_type["answer"][0], view)
        if "restate" in by_type:
            return self.fill(seat, by_type["restate"][0], view)
        if self.rnd.random() < self.anytime_rate:
            extras = [a for t in ANYTIME for a in by_type.get(t, [])]
            if extras:
                return self.fill(seat, self.rnd.choice(extras), view)
        if game["phase"] == "visiting":
            return self.visit(seat, by_type, view)
        return self.investigate(by_type)

    def visit(self, seat: int, by_type: dict, view: dict) -> dict:
        game = view["game"]
        towards_221b = min(0.6, 0.05 * game["round"])
        if "baker_street" in by_type and self.rnd.random() < towards_221b:
            return self.rnd.choice(by_type["baker_street"])
        if "take_watson" in by_type and self.rnd.random() < 0.1:
            return by_type["take_watson"][0]
        if "carriage_stop" in by_type and self.rnd.random() < 0.15:
            return by_type["carriage_stop"][0]
        visits = by_type.get("visit") or by_type.get("carriage_stop") or by_type["baker_street"]
        action = self.rnd.choice(visits)
        held = game["players"][seat]["carriages"]
        if (
            action["type"] == "visit"
            and "character" not in action
            and held > action.get("carriages", 0) + 1
            and self.rnd.random() < 0.2
        ):
            action = {**action, "carriages": action.get("carriages", 0) + 1}
        return action

    def investigate(self, by_type: dict) -> dict:
        if "watson_read" in by_type:
            return self.rnd.choice(by_type["watson_read"])
        if "mycroft_read" in by_type and self.rnd.random() < 0.8:
            return self.rnd.choice(by_type["mycroft_read"])
        if "place_police" in by_type and self.rnd.random() < 0.3:
            return by_type["place_police"][0]
        return by_type["done_reading"][0]

    def fill(self, seat: int, action: dict, view: dict) -> dict:
        kind = action["type"]
        mark = self.mark(seat)
        if kind == "answer":
            if self.solve_now(view):
                return {**action, "answers": dict(self.correct)}
            return {**action, "answers": {qid: f"ANS-{mark}-{qid}" for qid in action["answers"]}}
        if kind == "restate":
            restated = {
                qid: self.correct.get(qid, f"ANS-{mark}-{qid}") for qid in action["answers"]
            }
            return {**action, "answers": restated}
        if kind == "holmes_check":
            return {**action, "answer": f"CHK-{mark}"}
        return action


# Moves a player may make whether or not the table waits for them.
ANYTIME = ("character", "discard_character", "holmes_consult", "holmes_check")


def someone_was_eliminated(view: dict) -> bool:
    return any(player["status"] == "eliminated" for player in view["game"]["players"])


@dataclass
class Move:
    seat: int
    action: dict
    version: int


@dataclass
class ApiGame:
    """Plays a started table to its end through the API, one legal move at a time.

    `after_commit` is pytest-django's `django_capture_on_commit_callbacks`: each request
    runs inside it with execute=True, so the work queued after commit (Celery judging at
    221B, notifications, live pushes) runs as it would after a real request.
    """

    table_id: int
    players: list[ApiPlayer]
    strategy: Strategy
    after_commit: Callable
    notebook_rate: float = 0.0
    on_move: Callable[[Move], None] | None = None
    moves: list[Move] = field(default_factory=list)

    def request(self, call: Callable):
        with self.after_commit(execute=True):
            return call()

    def play(self, max_moves: int = 2000) -> dict:
        rnd = self.strategy.rnd
        latest = self.players[0].view(self.table_id)
        for _ in range(max_moves):
            if latest["status"] == "finished":
                return latest
            waiting = latest["game"]["waiting_for"]
            if not waiting:
                # The answer of a move is written before its commit; the judging queued
                # by that commit has run since: look again.
                latest = self.players[0].view(self.table_id)
                if latest["status"] == "finished":
                    return latest
                waiting = latest["game"]["waiting_for"]
            assert waiting, f"nobody to wait for and no judging: {latest['game']['judging']}"
            if rnd.random() < self.notebook_rate:
                self.write_notebook(rnd.choice(self.players))
            mover = self.players[rnd.choice(waiting)]
            if rnd.random() < self.strategy.anytime_rate:
                # Someone the table does not wait for may still use the Holmes card or a
                # character: the same write path, the same versions.
                mover = rnd.choice(self.players)
            view = mover.view(self.table_id)
            action = self.strategy.choose(view)
            if action is None:
                latest = view
                continue
            key = f"move-{len(self.moves)}"
            response = self.request(
                lambda m=mover, a=action, v=view["version"], k=key: m.act(self.table_id, a, v, k)
            )
            assert response.status_code == 200, (action, response.content)
            latest = response.json()
            assert latest["version"] > view["version"]
            move = Move(mover.seat, action, view["version"])
            self.moves.append(move)
            if self.on_move:
                self.on_move(move)
        raise AssertionError(f"the game did not end in {max_moves} moves")

    def write_notebook(self, player: ApiPlayer) -> None:
        current = player.get(table_url(self.table_id, "notebook/"))
        assert current.status_code == 200, current.content
        text = current.json()["text"] + f" NOTEBOOK-{self.strategy.mark(player.seat)}"
        saved = player.put(table_url(self.table_id, "notebook/"), {"text": text})
        # Irene Adler may forbid writing during an investigation: a refusal, in one shape.
        assert saved.status_code in (200, 400), saved.content
        if saved.status_code == 400:
            assert saved.json()["error"]["code"] == "notes_forbidden"


def all_events(player: ApiPlayer, table_id: int) -> list[dict]:
    """The whole history this player may see, page by page."""
    events: list[dict] = []
    while True:
        after = events[-1]["sequence"] if events else 0
        response = player.get(table_url(table_id, f"events/?after={after}"))
        assert response.status_code == 200, response.content
        page = response.json()
        if not page:
            return events
        events += page


def strings_in(body: str) -> list[str]:
    """Every string in a JSON body (keys and values), or the raw body if it is not JSON."""
    try:
        data = json.loads(body)
    except ValueError:
        return [body]
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                found.append(str(key))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(data)
    return found
