"""The leak test: whole games through the API, searching every body each player (and a
spectator) received, and every live push, for text they may not see.

The secrets come from the database and the engine state, never from the views: the case's
card texts, answers, accept and reject forms and solution (a case whose every secret is a
unique marker), and the markers the random players wrote in answers, notes, Holmes checks
and notebooks. What each viewer may see is worked out from the state after every move:
the card their pawn reads, what Watson read aloud, what Mycroft showed them, whose answers
they consulted, and whether `may_see_solution` holds for them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from cases.models import AnswerKind, Location, Question
from games.watson_holmes.rules.view import may_see_solution
from play.live import table_group
from play.models import Spectator, Table
from tests.factories import CaseVersionFactory, LocationFactory, QuestionFactory
from tests.play.helpers import (
    TOKEN_TOTALS,
    ApiGame,
    ApiPlayer,
    Move,
    Strategy,
    all_events,
    open_table,
    strings_in,
    table_url,
    token_totals,
)

ICONS = {2: ["police"], 3: ["call_off"], 4: ["lockpick"], 5: ["carriages"], 6: ["no_watson"]}
ICONS |= {7: ["no_police"], 8: ["locked"]}
ANSWER = re.compile(r"ANS-(\d+)-\d+")
NOTEBOOK = re.compile(r"NOTEBOOK-(\d+)-\d+")
CHECK = re.compile(r"CHK-(\d+)-\d+")


@pytest.fixture
def secret_case(db):
    """A published case of twelve cards whose every hidden text is a unique marker."""
    version = CaseVersionFactory(
        min_players=1,
        max_players=7,
        introduction="A lamplighter is found asleep on the Embankment at noon.",
        special_rules="Lamps are lit at dusk.",
        solution="SOLUTION-SECRET-TEXT: the lamplighter was drugged.",
    )
    for number in range(1, 13):
        LocationFactory(
            version=version,
            number=number,
            name=f"Lamp post {number}",
            text=f"CARD-SECRET-{number:02d}: the oil of lamp {number} smells of laudanum.",
            icons=ICONS.get(number, []),
            filename=f"{number:02d}-lamp-post.md",
        )
    for position, key in enumerate(["who", "where", "how"]):
        QuestionFactory(
            version=version,
            key=key,
            position=position,
            kind=AnswerKind.TEXT,
            ask=f"Question {key}?",
            answer=f"ANSWER-SECRET-{key}",
            accept=[f"ACCEPT-SECRET-{key}"],
            reject=[f"REJECT-SECRET-{key}"],
        )
    return version


class Oracle:
    """What each seat (and the spectator, None) may see, from the database and the state."""

    def __init__(self, table_id: int, players: list[ApiPlayer], spectator: ApiPlayer):
        self.table_id = table_id
        self.viewers = {player.seat: player for player in players}
        self.viewers[None] = spectator
        table = Table.objects.select_related("case_version").get(pk=table_id)
        version = table.case_version
        self.card_texts = dict(
            Location.objects.filter(version=version).values_list("number", "text")
        )
        self.case_secrets = [version.solution]
        for question in Question.objects.filter(version=version):
            self.case_secrets += [question.answer, *question.accept, *question.reject]
        self.cards: dict[int | None, set[int]] = {viewer: set() for viewer in self.viewers}
        self.consulted: dict[int, set[int]] = {
            seat: set() for seat in self.viewers if seat is not None
        }
        self.wrote_right_answers: set[int] = set()
        self.checked = {viewer: 0 for viewer in self.viewers}
        self.state: dict = {}
        self.bodies_checked = 0
        self.pushes: list[dict] = []

    def learn(self, move: Move | None = None) -> None:
        """Bring the allowances up to date with the state in the database."""
        self.state = Table.objects.get(pk=self.table_id).state
        state = self.state
        if state["phase"] == "investigation" and state["step"] != "watson":
            for seat, pawn in enumerate(state["pawns"]):
                if pawn and pawn.isdigit():
                    self.cards[seat].add(int(pawn))
        if state["watson"]["read"]:
            for viewer in self.viewers:
                self.cards[viewer].add(int(state["watson"]["read"]))
        if state["options"]["casebook"]:
            for seat, player in enumerate(state["players"]):
                self.cards[seat] |= {int(key) for key in player["casebook"]}
        if move is None:
            return
        kind = move.action["type"]
        if kind == "mycroft_read":
            self.cards[move.seat].add(move.action["location"])
        if kind == "holmes_consult":
            self.consulted[move.seat].add(move.action["target"])
        if kind in ("answer", "restate") and not any(
            value.startswith("ANS-") for value in move.action["answers"].values()
        ):
            self.wrote_right_answers.add(move.seat)

    def check_new_bodies(self) -> None:
        for viewer, player in self.viewers.items():
            for body in player.bodies[self.checked[viewer] :]:
                problems = self.leaks(viewer, body)
                assert not problems, (viewer, problems, body[:3000])
                self.bodies_checked += 1
            self.checked[viewer] = len(player.bodies)

    def leaks(self, viewer: int | None, body: str) -> list[str]:
        state = self.state
        text = "\n".join(strings_in(body))
        found = []
        for number, card_text in self.card_texts.items():
            if card_text in text and number not in self.cards[viewer]:
                found.append(f"text of card {number}")
        sees_solution = may_see_solution(state, viewer)
        for secret in self.case_secrets:
            if secret in text and not sees_solution:
                # A player who wrote the right answers sees them in their own answers.
                own = viewer in self.wrote_right_answers and secret.startswith("ANSWER-")
                if not own:
                    found.append(f"case secret {secret!r}")
        for seat in map(int, ANSWER.findall(text)):
            # At the end every judged attempt is public: the debrief shows it to all.
            public = state["phase"] == "over" and state["players"][seat]["attempt"]
            consulted = viewer is not None and seat in self.consulted[viewer]
            if viewer != seat and not consulted and not public:
                found.append(f"answers of seat {seat}")
        for seat in map(int, NOTEBOOK.findall(text)):
            if seat != viewer:
                found.append(f"notebook of seat {seat}")
        eliminated = viewer is not None and state["players"][viewer]["status"] == "eliminated"
        for seat in map(int, CHECK.findall(text)):
            if seat != viewer and not eliminated:
                found.append(f"Holmes check of seat {seat}")
        found += self.hidden_characters(viewer, body)
        return found

    def hidden_characters(self, viewer: int | None, body: str) -> list[str]:
        """Another player's character may show only once they revealed it by using it."""
        hidden = {
            seat
            for seat, player in enumerate(self.state["players"])
            if player["character_state"] != "used" and seat != viewer
        }
        try:
            data = json.loads(body)
        except ValueError:
            return []
        found = []
        if isinstance(data, dict) and data.get("game"):
            for public in data["game"]["players"]:
                if public["seat"] in hidden and public["character"] is not None:
                    found.append(f"character of seat {public['seat']}")
        if isinstance(data, list):
            for event in data:
                payload = event.get("payload") or {}
                if payload.get("player") in hidden and payload.get("character") is not None:
                    found.append(f"character of seat {payload['player']} in {event['type']}")
        return found


def listen(table_id: int) -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(table_group(table_id), channel)
    return channel


def pushed_messages(channel: str) -> list[dict]:
    layer = get_channel_layer()

    async def drain() -> list[dict]:
        messages = []
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), timeout=0.2))
            except TimeoutError:
                return messages

    return async_to_sync(drain)()


GAMES = [
    # (players, seed, table options)
    (3, 101, {}),
    (4, 202, {"casebook": True}),
    (5, 303, {"play_on": True}),
    (3, 404, {"random_start": True}),
]


@pytest.mark.parametrize(("count", "seed", "options"), GAMES)
def test_it_shows_nobody_what_they_may_not_see(
    count,
    seed,
    options,
    secret_case,
    seven,
    roomy_channel_layer,
    django_capture_on_commit_callbacks,
):
    rnd = random.Random(seed)
    players = [ApiPlayer(user) for user in seven[:count]]
    table_id = open_table(players, secret_case.case.slug, seed=seed, options=options)
    watcher = ApiPlayer(seven[-1])
    Spectator.objects.create(table_id=table_id, user=watcher.user)
    channel = listen(table_id)
    oracle = Oracle(table_id, players, watcher)
    right = {q.key: q.answer for q in Question.objects.filter(version=secret_case)}
    strategy = Strategy(rnd, right, lambda view: rnd.random() < 0.3, anytime_rate=0.1)

    def after_move(move: Move) -> None:
        oracle.learn(move)
        # Now and then: the spectator looks, someone's stale or illegal request is refused.
        if rnd.random() < 0.2:
            assert watcher.get(table_url(table_id)).status_code == 200
        if rnd.random() < 0.1 and oracle.state["phase"] != "over":
            other = rnd.choice(players)
            stale = other.act(table_id, {"type": "done_reading"}, move.version)
            assert stale.status_code == 409
            illegal = other.act(
                table_id,
                {"type": "visit", "location": 99},
                stale.json()["error"]["details"]["version"],
            )
            assert illegal.status_code == 400
        if rnd.random() < 0.05:
            for viewer in oracle.viewers.values():
                all_events(viewer, table_id)
        oracle.check_new_bodies()

    game = ApiGame(
        table_id,
        players,
        strategy,
        django_capture_on_commit_callbacks,
        notebook_rate=0.1,
        on_move=after_move,
    )
    final = game.play()

    oracle.learn()
    assert final["status"] == "finished"
    for viewer in oracle.viewers.values():
        assert viewer.get(table_url(table_id)).status_code == 200
        all_events(viewer, table_id)
        notebook = viewer.get(table_url(table_id, "notebook/"))
        assert notebook.status_code == (403 if viewer is watcher else 200)
    oracle.check_new_bodies()

    # The game was rich enough for the search to mean something.
    state = oracle.state
    assert token_totals(state) == TOKEN_TOTALS
    kinds = {move.action["type"] for move in game.moves}
    assert {"visit", "answer", "done_reading"} <= kinds
    assert any(viewer_cards for seat, viewer_cards in oracle.cards.items() if seat is not None)
    assert oracle.bodies_checked > 2 * len(game.moves)
    notebooks = [body for player in players for body in player.bodies if "NOTEBOOK-" in body]
    assert notebooks, "nobody wrote a notebook: the search for notebooks found nothing to find"

    # Live pushes say "version N exists" and nothing else.
    messages = pushed_messages(channel)
    assert messages, "no push reached the table's group"
    for message in messages:
        assert set(message) == {"type", "version"} and isinstance(message["version"], int)
    assert max(message["version"] for message in messages) == Table.objects.get(pk=table_id).version


def test_it_tells_a_spectator_nothing_private_in_a_finished_game(
    secret_case, seven, roomy_channel_layer, django_capture_on_commit_callbacks
):
    """A whole game seen only by a spectator: until the end, no card text Watson did not
    read aloud, no answers, no notes, no solution."""
    rnd = random.Random(7)
    players = [ApiPlayer(user) for user in seven[:3]]
    table_id = open_table(players, secret_case.case.slug, seed=7)
    watcher = ApiPlayer(seven[-1])
    Spectator.objects.create(table_id=table_id, user=watcher.user)
    oracle = Oracle(table_id, players, watcher)
    right = {q.key: q.answer for q in Question.objects.filter(version=secret_case)}
    strategy = Strategy(rnd, right, lambda view: rnd.random() < 0.3)

    playing_bodies = []

    def after_move(move: Move) -> None:
        oracle.learn(move)
        assert watcher.get(table_url(table_id)).status_code == 200
        all_events(watcher, table_id)
        assert watcher.get(table_url(table_id, "notebook/")).status_code == 403
        oracle.check_new_bodies()
        if oracle.state["phase"] != "over":
            playing_bodies[:] = watcher.bodies

    ApiGame(table_id, players, strategy, django_capture_on_commit_callbacks, 0.1, after_move).play()
    seen = "\n".join(playing_bodies)
    private = [text for n, text in oracle.card_texts.items() if n not in oracle.cards[None]]
    assert private and not any(text in seen for text in private)
    assert "ANS-" not in seen and "NOTE" not in seen and "SOLUTION-SECRET" not in seen
