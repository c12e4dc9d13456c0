"""The API's fuzzing beyond tests/play/test_schemathesis.py, which fuzzes every operation
of the schema once, at a table of the case game, with random values in {slug} and
{number} (so a real case or seat is seldom named). Here:

- every route the site serves under /api/ is an operation of the schema, and each is
  fuzzed there: a new endpoint left out of the schema would go unfuzzed;
- the operations whose answers depend on the game (a table's view, its moves, events and
  notebook) are fuzzed at a started table of every other game too, the answers checked
  against the schema as there;
- the operations that name a case or a seat get real ones: the published case, and the
  seats of a lobby with a computer player;
- moves of every game are fuzzed as the socket fuzz sends them (tests/play/fuzz.py):
  offered moves spoiled, or junk, or nested deep;
- marking notifications read takes lists of ids up to past PostgreSQL's limit on a
  query's parameters, which the schema's bounds keep Schemathesis from.

Every answer is no server error. Each example runs in a savepoint rolled back afterwards:
every one starts from the same table (a computer player removed, a seat left or a move
made is undone); each request runs under Python's own recursion limit, as on a server.
Bounded and derandomized.
"""

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient
from schemathesis import GenerationMode

from accounts.services import api_token_create
from games import GAMES, case_game
from play import selectors, services
from play.models import Table
from tests.play.fuzz import (
    GAME_NAMES,
    JSON,
    JUNK_JSON_TEXT,
    PLAIN_JSON,
    actions,
    dumped,
    fuzz_settings,
    nested,
    servers_recursion_limit,
    started_table,
)
from tests.play.test_schemathesis import CHECKS, api_schema, operations  # noqa: F401

GAME_EXAMPLES = 10  # per operation, generation mode and game
NAMED_EXAMPLES = 15
MOVE_EXAMPLES = 30  # per game
# The operations a table's game shapes: its view, its moves, its history and its notes.
GAME_OPERATIONS = [
    "GET /api/tables/{table_id}/",
    "POST /api/tables/{table_id}/actions/",
    "GET /api/tables/{table_id}/events/",
    "PUT /api/tables/{table_id}/notebook/",
]
NOT_OPERATIONS = {"/api/schema/", "/api/docs/"}  # the schema and its page


@pytest.fixture(autouse=True)
def quick(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def in_savepoint(call):
    """Run `call`, then undo what it wrote (and the throttles' counts)."""
    cache.clear()
    with transaction.atomic(), servers_recursion_limit():
        call()
        transaction.set_rollback(True)


def served_operations() -> set[str]:
    """Each method of each route under /api/, as "METHOD /api/path/{param}/"."""
    from django.urls import get_resolver

    found = set()

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns, route)
                continue
            path = "/" + route
            for converter in ("id", "int", "slug", "str"):
                path = path.replace(f"<{converter}:", "{")
            path = path.replace(">", "}")
            view = getattr(pattern.callback, "cls", None)
            if not path.startswith("/api/") or path in NOT_OPERATIONS or view is None:
                continue
            for method in ("get", "post", "put", "patch", "delete"):
                if hasattr(view, method):
                    found.add(f"{method.upper()} {path}")

    walk(get_resolver().url_patterns, "")
    return found


def test_it_fuzzes_every_operation_the_api_serves():
    fuzzed = {label for label, mode in operations() if mode == GenerationMode.POSITIVE}

    assert served_operations() == fuzzed
    assert set(GAME_OPERATIONS) <= fuzzed


# --- The game's operations, at a table of every other game -------------------------------


@pytest.fixture
def playing(game, alice, bob, charlie):
    """A started table of `game`, and alice's token (she sits at seat 0)."""
    table = started_table(game, {"alice": alice, "bob": bob, "charlie": charlie})
    _, key = api_token_create(user=alice)
    return {"table": table.pk, "token": key}


def game_operations() -> list[tuple[str, str, GenerationMode]]:
    modes = dict.fromkeys(GAME_OPERATIONS, [GenerationMode.POSITIVE])
    for label, mode in operations():
        if label in modes and mode == GenerationMode.NEGATIVE:
            modes[label] = [GenerationMode.POSITIVE, mode]
    games = [name for name in GAME_NAMES if name != case_game().name]  # fuzzed there
    return [(game, label, mode) for game in games for label in modes for mode in modes[label]]


def fuzz_operation(operation, mode, fixed: dict, token: str, examples: int) -> None:
    """`examples` generated requests to `operation`, each in a savepoint, each answer
    checked as tests/play/test_schemathesis.py checks them."""
    headers = {"Authorization": f"Token {token}"}

    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_as_documented(case):
        in_savepoint(lambda: case.call_and_validate(headers=headers, checks=CHECKS))

    answers_as_documented()


@pytest.mark.parametrize(("game", "label", "mode"), game_operations())
def test_it_answers_a_games_operations_as_the_schema_says(api_schema, playing, game, label, mode):  # noqa: F811
    operation = api_schema.find_operation_by_label(label)
    fixed = {"table_id": playing["table"]}
    fuzz_operation(operation, mode, fixed, playing["token"], GAME_EXAMPLES)


# --- Operations that name a case or a seat --------------------------------------------------


@pytest.fixture
def named(tutorial, alice, bob):
    """The published case's slug; a lobby of a game with computer players, alice hosting,
    bob at seat 1 and a computer at seat 2; and alice's token."""
    game = next(name for name in GAME_NAMES if GAMES[name].bot and GAMES[name].max_players > 2)
    lobby = services.table_create(host=alice, game=game)
    services.table_join(invite_code=lobby.invite_code, user=bob)
    services.seat_add_bot(table_id=lobby.pk, user=alice)
    _, key = api_token_create(user=alice)
    return {"slug": tutorial.case.slug, "lobby": lobby.pk, "token": key}


NAMED = [
    ("GET /api/cases/{slug}/", lambda named: {"slug": named["slug"]}),
    (
        "DELETE /api/tables/{table_id}/bots/{number}/",
        lambda named: {"table_id": named["lobby"], "number": 2},
    ),
    (
        "POST /api/tables/{table_id}/seats/{number}/remove/",
        lambda named: {"table_id": named["lobby"], "number": 1},
    ),
]


@pytest.mark.parametrize(("label", "fixing"), NAMED, ids=[label for label, _ in NAMED])
def test_it_answers_for_a_real_case_or_seat_as_the_schema_says(api_schema, named, label, fixing):  # noqa: F811
    operation = api_schema.find_operation_by_label(label)
    fuzz_operation(
        operation, GenerationMode.POSITIVE, fixing(named), named["token"], NAMED_EXAMPLES
    )


# --- Moves of every game -------------------------------------------------------------------


@pytest.fixture
def seats(request, game, alice, bob, charlie):
    """A started table of `game`; each person's client, and the moves they are offered."""
    case_version = request.getfixturevalue("tutorial") if GAMES[game].needs_case else None
    people = {"alice": alice, "bob": bob, "charlie": charlie}
    table = started_table(game, people, case_version=case_version)
    seated = [seat.user for seat in table.seats.filter(user__isnull=False).order_by("number")]
    clients = {}
    for user in seated:
        clients[user.username] = APIClient()
        clients[user.username].force_login(user)
    offered = {}
    for user in seated:
        membership = selectors.membership_for(table_id=table.pk, user=user)
        offered[user.username] = (
            selectors.table_view(membership=membership)["game"].get("legal_actions") or []
        )
    return {"table": Table.objects.get(pk=table.pk), "clients": clients, "offered": offered}


def bodies(legal: list[dict], version: int) -> st.SearchStrategy:
    """The API's move body, as JSON text: readable (an offered move, spoiled with plain
    values, the version, a key), junk anywhere, or a readable move with a list nested
    past the guard's depth or the JSON reader's own limit. NaN and infinities are
    written as Python writes them, half characters as \\ud800 escapes."""
    readable = st.fixed_dictionaries(
        {
            "action": actions(legal, PLAIN_JSON, anything=False),
            "expected_version": st.just(version),
        },
        optional={"idempotency_key": st.uuids().map(str)},
    )
    junk = st.fixed_dictionaries(
        {"action": actions(legal), "expected_version": st.one_of(st.just(version), JSON)},
        optional={"idempotency_key": JSON, "more": JSON},
    )
    deep = st.sampled_from([33, 990, 1025, 5_000]).map(
        lambda depth: (
            '{"action": {"type": "x", "n": ' + nested(depth) + "}, "
            f'"expected_version": {version}, "idempotency_key": "deep-{depth}"}}'
        )
    )
    return st.one_of(
        readable.map(dumped), readable.map(dumped), junk.map(dumped), deep, JUNK_JSON_TEXT
    )


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(MOVE_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_move_without_a_server_error(seats, game, data):
    table = seats["table"]
    who = data.draw(st.sampled_from(sorted(seats["clients"])), label="who")
    body = data.draw(bodies(seats["offered"][who], table.version), label="body")
    client = seats["clients"][who]
    url = f"/api/tables/{table.pk}/actions/"

    def move():
        response = client.post(url, body, content_type="application/json")
        assert response.status_code < 500, response.content[:500]

    in_savepoint(move)


# --- Many values in one request ------------------------------------------------------------


@pytest.fixture
def reader(alice):
    client = APIClient()
    client.force_login(alice)
    return client


@pytest.mark.parametrize("size", [0, 1, 1_000, 1_001, 65_535, 65_536, 100_000])
def test_it_answers_any_number_of_ids_to_mark_read_without_a_server_error(reader, size):
    """Schemathesis keeps to the schema's bounds, or just past them; a program may send a
    hundred thousand ids (past PostgreSQL's limit on a query's parameters, 65,535)."""
    body = dumped({"ids": list(range(1, size + 1))})

    def mark_read():
        response = reader.post("/api/notifications/read/", body, content_type="application/json")
        assert response.status_code < 500, response.content[:500]

    in_savepoint(mark_read)
