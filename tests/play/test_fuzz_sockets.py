"""Fuzzing the table websocket (Hypothesis): whatever frames a member's socket sends, the
server answers, or closes the socket with a code that says why; it never dies without a
close frame (a crash: the client sees 1006 and its row would go on counting). When the
socket closes, its row (play/presence.py) is gone.

Each example opens a socket to a new started table of one of the games, as a player (with
or without `?views=1`) or a spectator, and sends a few frames: moves built from what the
seat is offered, spoiled or not; objects of any shape; numbers beyond 64 bits, NaN and
1e999; NUL and half characters in escapes; lists nested past the guard's depth and past
the JSON reader's own limit; text that is no JSON at all, or longer than a frame may be;
binary frames. After each one the test sends a sentinel (a move with nothing in it, which
the socket refuses and names by its `request`): everything before the sentinel's answer
is the frame's, so a frame the socket ignores is seen to leave it alive.

Bounded and derandomized: the same frames on every run.
"""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from hypothesis import given
from hypothesis import strategies as st

from games import GAMES
from play import selectors
from play.models import Seat, Spectator, Table, TableSocket
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
    socket_thread_closed,  # noqa: F401 (a fixture)
    started_table,
)
from tests.play.sockets import PATIENCE_SECONDS
from tests.play.test_websocket import socket_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("socket_thread_closed"),
]

SOCKET_EXAMPLES = 15  # per game: a socket each, with up to FRAMES frames
FRAMES = 5
# What a socket's close code may be: the application's own (4000-4999) and those RFC 6455
# names for a reason the client can act on; never 1011 (the server failed) nor none.
EXPLICIT = {1000, 1003, 1008, 1009, 1013, *range(4000, 5000)}
FIRST = asyncio.FIRST_COMPLETED


@pytest.fixture
def seating(request, game, alice, bob, charlie, frank):
    """How to open a started table of `game` (tests/play/fuzz.py), frank watching: the
    same deal each time, so the same moves offered to each seat, read once here."""
    people = {"alice": alice, "bob": bob, "charlie": charlie}
    case_version = request.getfixturevalue("tutorial") if GAMES[game].needs_case else None

    def open_table() -> int:
        table = started_table(game, people, case_version=case_version)
        Table.objects.filter(pk=table.pk).update(watching_allowed=True)
        Spectator.objects.create(table=table, user=frank)
        return table.pk

    first = open_table()
    seats = Seat.objects.filter(table_id=first, user__isnull=False).order_by("number")
    players = [seat.user for seat in seats]
    offered = {user.pk: offered_to(first, user) for user in [*players, frank]}
    Table.objects.filter(pk=first).delete()
    return {"open": open_table, "members": [*players, frank], "offered": offered}


def offered_to(table_id: int, user) -> tuple[list[dict], int]:
    """The moves the member is offered (none for a spectator), and the table's version."""
    membership = selectors.membership_for(table_id=table_id, user=user)
    view = selectors.table_view(membership=membership)
    return view["game"].get("legal_actions") or [], view["version"]


def moves(legal: list[dict], version: int) -> st.SearchStrategy:
    """A move frame's object: the API's move body. Half are readable (the socket's guard
    and the move's input check let them through to the rules: an offered move, spoiled
    or not, the version, a key); half hold junk anywhere."""
    readable = st.fixed_dictionaries(
        {
            "type": st.just("move"),
            "action": actions(legal, PLAIN_JSON, anything=False),
            "expected_version": st.just(version),
        },
        optional={"idempotency_key": st.uuids().map(str), "request": st.integers(0, 99)},
    )
    junk = st.fixed_dictionaries(
        {
            "type": st.just("move"),
            "action": actions(legal),
            "expected_version": st.one_of(st.just(version), JSON),
        },
        optional={
            "idempotency_key": st.one_of(st.uuids().map(str), JSON),
            "request": JSON,
            "more": JSON,
        },
    )
    return st.one_of(readable, junk)


def frames(legal: list[dict], version: int) -> st.SearchStrategy:
    """(kind, payload): a text frame's text, or a binary frame's bytes. Moves the most
    (they go furthest in), then other objects, junk text, the guard's and the reader's
    limits (a move nested deep, one with a number of 5,000 digits, a frame over the
    length a socket reads), and binary frames."""
    move = moves(legal, version).map(dumped)
    others = st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["ping", "move"])}, optional={"x": JSON}),
        st.fixed_dictionaries({"type": JSON}),
        st.dictionaries(st.text(max_size=8), JSON, max_size=4),
    ).map(dumped)
    deep = st.sampled_from([33, 1000, 1025]).map(lambda depth: deep_move(depth, version))
    limits = st.one_of(
        st.sampled_from([1000, 1025]).map(
            lambda depth: '{"type": "move", "action": ' + nested(depth) + "}"
        ),
        st.sampled_from(
            [
                '{"type": "move", "expected_version": ' + "9" * 5000 + "}",
                '{"type": "ping", "pad": "' + "a" * 8_000 + '"}',
                "x" * 8_001,
                '{"type": "ping"',
                "\ufeff{}",
            ]
        ),
    )
    texts = st.one_of(move, move, move, others, JUNK_JSON_TEXT, deep, deep, limits)
    return st.one_of(
        *[texts.map(lambda text: ("text", text))] * 5,
        st.binary(max_size=40).map(lambda data: ("bytes", data)),
    )


def deep_move(depth: int, version: int) -> str:
    """A move as the API takes it (an action, the version, a key) with a list nested
    `depth` deep in its action: the guard's depth, and the JSON reader's own limit."""
    action = '{"type": "x", "n": ' + nested(depth) + "}"
    return (
        f'{{"type": "move", "action": {action}, "expected_version": {version}, '
        f'"idempotency_key": "deep-{depth}", "request": {depth}}}'
    )


def open_rows(table_id: int) -> int:
    return TableSocket.objects.filter(table_id=table_id).count()


async def next_output(socket):
    """The socket's next message to the client. Where the consumer has raised, its
    exception at once (receive_output() raises it only once its wait has run out)."""
    getter = asyncio.ensure_future(socket.output_queue.get())
    await asyncio.wait({getter, socket.future}, timeout=PATIENCE_SECONDS, return_when=FIRST)
    if getter.done():
        return getter.result()
    getter.cancel()
    if socket.future.done():
        socket.future.result()  # the consumer's exception
        raise AssertionError("the consumer ended without closing the socket")
    raise AssertionError(f"no answer in {PATIENCE_SECONDS} s")


def exchange(table_id: int, user, views: bool, sent: list[tuple[str, object]]) -> dict | None:
    """Open a socket, send the frames, each followed by the sentinel, and read until the
    sentinel's answer or a close; then the client goes. The server's close, if any."""
    socket = socket_for(table_id, user)
    if views:
        socket.scope["query_string"] = b"views=1"

    async def scenario():
        connected, code = await socket.connect()
        assert connected, code
        await socket.receive_output()  # the version, or the player's view
        closed = None
        for number, (kind, payload) in enumerate(sent):
            # As a server hands a frame on: empty ones too, which send_to() refuses.
            await socket.send_input({"type": "websocket.receive", kind: payload})
            sentinel = f"sentinel-{number}-after-{kind}"
            await socket.send_to(text_data=json.dumps({"type": "move", "request": sentinel}))
            while closed is None:
                message = await next_output(socket)
                if message["type"] == "websocket.close":
                    closed = message
                elif json.loads(message["text"]).get("request") == sentinel:
                    break
            if closed is not None:
                break
        await socket.disconnect()
        return closed

    with servers_recursion_limit():
        return async_to_sync(scenario)()


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(SOCKET_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_frames_or_closes_with_a_code(seating, game, data):
    who = data.draw(st.sampled_from(seating["members"]), label="who")
    spectator = who == seating["members"][-1]
    views = not spectator and data.draw(st.booleans(), label="views")
    legal, version = seating["offered"][who.pk]
    sent = data.draw(st.lists(frames(legal, version), min_size=1, max_size=FRAMES), label="sent")
    # A table of its own for each example: each starts from the same deal, and a socket
    # row a failure left behind counts against no later example.
    table_id = seating["open"]()
    try:
        closed = exchange(table_id, who, views, sent)
        if closed is not None:
            assert closed.get("code") in EXPLICIT, closed
        assert open_rows(table_id) == 0
    finally:
        Table.objects.filter(pk=table_id).delete()
