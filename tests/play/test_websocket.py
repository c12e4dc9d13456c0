"""The table websocket, through the real ASGI application (origin check, session auth,
routing): members hear "version N exists", nobody else gets in.

The database work of the consumer runs in `database_sync_to_async`, which closes old
connections around each call, so these tests use committed data (transactional_db)."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import OperationalError
from django.test import Client

from holmes_site.asgi import application
from play import presence, selectors, services
from play.consumers import (
    CLOSE_NO_SUCH_SOCKET,
    CLOSE_NOT_A_MEMBER,
    CLOSE_TOO_MANY_SOCKETS,
)
from play.models import Spectator, Table, TableSocket
from play.presence import MAX_SOCKETS_PER_MEMBER
from tests.play.sockets import PatientSocket

pytestmark = pytest.mark.django_db(transaction=True)


def socket_for(table_id: int, user=None) -> PatientSocket:
    """A browser's socket to a table: same-site origin and, for a user, their session."""
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return PatientSocket(application, f"/ws/tables/{table_id}/", headers=headers)


def run(scenario):
    return async_to_sync(scenario)()


def current_version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


def move_on_turn(table_id: int) -> int:
    """The player on turn rests at the Carriage Stop; returns the new version."""
    table = Table.objects.get(pk=table_id)
    result = services.game_apply_action(
        table_id=table_id,
        player=table.state["turn"],
        action={"type": "carriage_stop"},
        expected_version=table.version,
    )
    return result.table.version


def test_it_refuses_a_socket_to_someone_without_a_seat(started, dave):
    socket = socket_for(started.pk, dave)

    async def scenario():
        refused = await socket.refusal()
        await socket.disconnect()
        return refused

    assert run(scenario) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_a_socket_to_an_anonymous_visitor(started):
    socket = socket_for(started.pk)

    async def scenario():
        refused = await socket.refusal()
        await socket.disconnect()
        return refused

    assert run(scenario) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_a_socket_for_a_table_that_does_not_exist(started, alice):
    socket = socket_for(started.pk + 1000, alice)

    async def scenario():
        refused = await socket.refusal()
        await socket.disconnect()
        return refused

    assert run(scenario) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_a_socket_from_another_site(started, alice):
    socket = socket_for(started.pk, alice)

    async def scenario():
        socket.scope["headers"] = [
            (b"origin", b"http://evil.example") if name == b"origin" else (name, value)
            for name, value in socket.scope["headers"]
        ]
        connected, _ = await socket.connect()
        await socket.disconnect()
        return connected

    assert run(scenario) is False


def test_it_tells_a_member_the_version_after_someone_elses_move(started, alice, bob, charlie):
    mover = Table.objects.get(pk=started.pk).state["turn"]
    listener = [alice, bob, charlie][(mover + 1) % 3]

    socket = socket_for(started.pk, listener)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        hello = await socket.receive_json_from()
        new_version = await sync_to_async(move_on_turn)(started.pk)
        pushed = await socket.receive_json_from()
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from()
        await socket.disconnect()
        return hello, new_version, pushed, pong

    hello, new_version, pushed, pong = run(scenario)
    assert hello == {"type": "version", "version": started.version}
    assert pushed == {"type": "version", "version": new_version}
    assert new_version == started.version + 1
    assert pong == {"type": "pong"}


def test_it_tells_a_spectator_the_version_too(started, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)

    socket = socket_for(started.pk, frank)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        hello = await socket.receive_json_from()
        new_version = await sync_to_async(move_on_turn)(started.pk)
        pushed = await socket.receive_json_from()
        nothing_more = await socket.receive_nothing()
        await socket.disconnect()
        return hello, new_version, pushed, nothing_more

    hello, new_version, pushed, nothing_more = run(scenario)
    assert hello == {"type": "version", "version": started.version}
    assert pushed == {"type": "version", "version": new_version}
    assert nothing_more


def test_it_pushes_lobby_changes_to_the_host(lobby, alice, dave):
    socket = socket_for(lobby.pk, alice)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_json_from()
        await sync_to_async(services.table_join)(invite_code=lobby.invite_code, user=dave)
        pushed = await socket.receive_json_from()
        await socket.disconnect()
        return pushed

    pushed = run(scenario)
    assert pushed == {"type": "version", "version": current_version(lobby.pk)}


# --- What a socket may send, where it may come from, how many (issue 22) ----------------


def socket_from(table_id: int, user, origin: bytes, host: bytes = b"localhost", scheme="ws"):
    socket = socket_for(table_id, user)
    socket.scope["headers"] = [
        (name, value) for name, value in socket.scope["headers"] if name != b"origin"
    ] + [(b"origin", origin), (b"host", host)]
    socket.scope["scheme"] = scheme
    return socket


def connects(socket: PatientSocket) -> bool:
    async def scenario():
        connected, _ = await socket.connect()
        await socket.disconnect()
        return connected

    return run(scenario)


@pytest.mark.parametrize(
    "origin, host, scheme, allowed",
    [
        (b"http://localhost", b"localhost", "ws", True),
        (b"http://localhost:80", b"localhost", "ws", True),
        (b"https://localhost", b"localhost", "wss", True),
        (b"http://localhost:8000", b"localhost:8000", "ws", True),
        (b"https://localhost", b"localhost", "ws", False),  # scheme
        (b"http://localhost", b"localhost", "wss", False),
        (b"http://localhost:8001", b"localhost:8000", "ws", False),  # port
        (b"http://localhost:8000", b"localhost", "ws", False),
        (b"http://127.0.0.1", b"localhost", "ws", False),  # another allowed host
        (b"null", b"localhost", "ws", False),
        (b"http://evil.example", b"evil.example", "ws", False),  # a host not allowed
    ],
)
def test_the_origin_must_be_the_sites_own_scheme_host_and_port(
    started, alice, origin, host, scheme, allowed
):
    assert connects(socket_from(started.pk, alice, origin, host, scheme)) is allowed


def test_an_origin_listed_in_csrf_trusted_origins_is_allowed(started, alice, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.holmes.example"]

    assert connects(socket_from(started.pk, alice, b"https://play.holmes.example"))
    assert not connects(socket_from(started.pk, alice, b"http://play.holmes.example"))


def test_a_socket_behind_a_tls_proxy_takes_its_scheme_from_the_proxy_header(
    started, alice, settings
):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    socket = socket_from(started.pk, alice, b"https://localhost")
    socket.scope["headers"].append((b"x-forwarded-proto", b"https"))

    assert connects(socket)
    assert not connects(socket_from(started.pk, alice, b"https://localhost"))


@pytest.mark.parametrize(
    "frame",
    [
        {"text_data": "not json"},
        {"text_data": "[1, 2]"},
        {"text_data": '"ping"'},
        {"text_data": "5"},
        {"text_data": "[" * 5000 + "]" * 5000},
    ],
    ids=["not-json", "a-list", "a-string", "a-number", "deep"],
)
def test_a_frame_that_is_not_a_json_object_is_answered_and_the_socket_stays(
    started, alice, frame, caplog
):
    socket = socket_for(started.pk, alice)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_json_from()
        await socket.send_to(**frame)
        answer = await socket.receive_json_from()
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from()
        await socket.disconnect()
        return answer, pong

    answer, pong = run(scenario)
    assert answer == {"type": "error", "message": 'Send a JSON object, such as {"type": "ping"}.'}
    assert pong == {"type": "pong"}
    assert [record for record in caplog.records if record.levelname == "ERROR"] == []


def test_a_binary_frame_closes_the_socket_as_unsupported_data(started, alice):
    socket = socket_for(started.pk, alice)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_json_from()
        await socket.send_to(bytes_data=b"\x00\x01")
        closed = await socket.receive_output()
        await socket.disconnect()  # as the server says once the close is sent
        return closed

    assert run(scenario) == {"type": "websocket.close", "code": 1003}
    assert not TableSocket.objects.filter(table_id=started.pk).exists()


@pytest.mark.parametrize("path", [f"/ws/tables/{2**64}/", "/ws/elsewhere/"])
def test_a_table_id_beyond_64_bits_or_an_unknown_path_is_refused_cleanly(alice, path):
    socket = socket_for(1, alice)
    socket.scope["path"] = path

    async def scenario():
        return await socket.refusal()

    assert run(scenario) == (True, CLOSE_NO_SUCH_SOCKET)


def test_a_player_may_open_only_so_many_sockets_on_a_table(started, alice, bob):
    sockets = [socket_for(started.pk, alice) for _ in range(MAX_SOCKETS_PER_MEMBER + 1)]
    others = socket_for(started.pk, bob)

    async def scenario():
        results = [await socket.connect() for socket in sockets[:-1]]
        results.append(await sockets[-1].refusal())
        bobs = await others.connect()
        rows = await sync_to_async(TableSocket.objects.filter(table_id=started.pk).count)()
        for socket in [*sockets, others]:
            await socket.disconnect()
        return results, bobs, rows

    results, bobs, rows = run(scenario)
    assert results[:-1] == [(True, None)] * MAX_SOCKETS_PER_MEMBER
    assert results[-1] == (True, CLOSE_TOO_MANY_SOCKETS)
    assert bobs[0] is True  # another player's sockets are counted apart
    assert rows == MAX_SOCKETS_PER_MEMBER + 1


def test_a_spectator_may_open_only_so_many_sockets_on_a_table(started, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    sockets = [socket_for(started.pk, frank) for _ in range(MAX_SOCKETS_PER_MEMBER + 1)]

    async def scenario():
        results = [await socket.connect() for socket in sockets[:-1]]
        results.append(await sockets[-1].refusal())
        for socket in sockets:
            await socket.disconnect()
        return results

    results = run(scenario)
    assert results == [(True, None)] * MAX_SOCKETS_PER_MEMBER + [(True, CLOSE_TOO_MANY_SOCKETS)]


def views_socket_for(table_id: int, user) -> PatientSocket:
    """A player's socket that asks for its own views (`?views=1`), as API programs do."""
    socket = socket_for(table_id, user)
    socket.scope["path"] = f"/ws/tables/{table_id}/"
    socket.scope["query_string"] = b"views=1"
    return socket


def api_body(table_id: int, user) -> dict:
    client = Client()
    client.force_login(user)
    return client.get(f"/api/tables/{table_id}/").json()


def test_a_socket_that_asks_for_views_gets_its_own_view_after_a_move(started, alice, bob, charlie):
    table = Table.objects.get(pk=started.pk)
    players = [alice, bob, charlie]
    mover = table.state["turn"]
    listener = (mover + 1) % 3
    socket = views_socket_for(started.pk, players[listener])

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        hello = await socket.receive_json_from()
        new_version = await sync_to_async(move_on_turn)(started.pk)
        pushed = await socket.receive_json_from()
        nothing_more = await socket.receive_nothing()  # the hint of that version is skipped
        await socket.disconnect()
        return hello, new_version, pushed, nothing_more

    first_view = api_body(started.pk, players[listener])
    hello, new_version, pushed, nothing_more = run(scenario)
    # Its own view first, when the socket opens: a program needs no fetch to start.
    assert hello == {"type": "view", "version": started.version, "view": first_view}
    assert pushed["type"] == "view"
    assert pushed["version"] == new_version
    # Exactly what the API answers that player, and nothing of anyone else's.
    assert pushed["view"] == api_body(started.pk, players[listener])
    assert pushed["view"]["you"]["seat"] == listener
    assert nothing_more


def test_a_pushed_view_holds_nothing_private_of_another_seat(started, alice, bob, charlie):
    from games import get_game

    players = [alice, bob, charlie]
    sockets = [views_socket_for(started.pk, player) for player in players]

    async def scenario():
        for socket in sockets:
            assert (await socket.connect())[0]
            await socket.receive_json_from()
        views = {}
        for _ in range(6):  # a few moves, so that cards are read in private
            await sync_to_async(move_or_read)(started.pk)
        for seat, socket in enumerate(sockets):
            while not await socket.receive_nothing(timeout=0.2):
                message = await socket.receive_json_from()
                if message["type"] == "view":
                    views.setdefault(seat, []).append(message["view"])
            await socket.disconnect()
        return views

    views = run(scenario)
    assert views, "no view was pushed"
    final = Table.objects.get(pk=started.pk)
    game = get_game(final.engine)
    for seat, seen in views.items():
        others = set().union(*(game.private_items(final.state, s) for s in range(3) if s != seat))
        mine = game.private_items(final.state, seat)
        for view in seen:
            assert view["you"]["seat"] == seat
            text = str(view)
            assert not [item for item in others - mine if item in text]


def move_or_read(table_id: int) -> None:
    """One legal move of a player the game waits for: a visit, a card read, and so on."""
    from games import get_rules

    table = Table.objects.get(pk=table_id)
    rules = get_rules(table.engine)
    seat = rules.waiting_for(table.state)[0]
    moves = rules.legal_actions(table.state, seat)
    preferred = [m for m in moves if m["type"] in ("visit", "done_reading", "carriage_stop")]
    services.game_apply_action(
        table_id=table_id,
        player=seat,
        action=(preferred or moves)[0],
        expected_version=table.version,
    )


def test_a_spectator_asking_for_views_is_told_versions_only(started, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    socket = views_socket_for(started.pk, frank)

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        new_version = await sync_to_async(move_on_turn)(started.pk)
        pushed = await socket.receive_json_from()
        await socket.disconnect()
        return new_version, pushed

    new_version, pushed = run(scenario)
    assert pushed == {"type": "version", "version": new_version}


# --- Moves over the socket (play/socket_moves.py) ----------------------------------------


def socket_move(socket, **move):
    async def send():
        await socket.send_json_to({"type": "move", **move})
        while True:  # past any hint or view of other moves
            reply = await socket.receive_json_from()
            if reply["type"] in ("moved", "refused"):
                return reply

    return send()


def test_a_player_moves_over_the_socket_and_the_others_see_it(started, alice, bob, charlie):
    players = [alice, bob, charlie]
    table = Table.objects.get(pk=started.pk)
    mover = table.state["turn"]
    other = (mover + 1) % 3
    mine, theirs = (
        socket_for(started.pk, players[mover]),
        views_socket_for(started.pk, players[other]),
    )

    async def scenario():
        for socket in (mine, theirs):
            assert (await socket.connect())[0]
            await socket.receive_json_from()
        reply = await socket_move(
            mine,
            request="r1",
            action={"type": "carriage_stop"},
            expected_version=started.version,
            idempotency_key="k-1",
        )
        seen = await theirs.receive_json_from()
        mine_after = await mine.receive_nothing()  # its own hint is no news
        again = await socket_move(
            mine,
            request=2,
            action={"type": "carriage_stop"},
            expected_version=started.version,
            idempotency_key="k-1",
        )
        for socket in (mine, theirs):
            await socket.disconnect()
        return reply, seen, mine_after, again

    reply, seen, mine_after, again = run(scenario)
    assert reply["type"] == "moved" and reply["request"] == "r1"
    assert reply["version"] == started.version + 1 and reply["replayed"] is False
    assert reply["view"] == api_body(started.pk, players[mover])
    assert seen["type"] == "view" and seen["version"] == started.version + 1
    assert seen["view"]["you"]["seat"] == other
    assert mine_after
    # The same key again: answered as the first time, nothing applied twice.
    assert again["type"] == "moved" and again["replayed"] is True and again["request"] == 2
    assert current_version(started.pk) == started.version + 1


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"action": {"type": "carriage_stop"}, "expected_version": 0}, "stale_version"),
        ({"action": {"type": "fly_to_the_moon"}}, "unknown_action"),
        ({"action": "carriage_stop"}, "invalid"),
        ({}, "invalid"),
        # Answers are counted against a limit per person: over HTTP only.
        ({"action": {"type": "answer", "answers": {}}}, "answer_over_http"),
    ],
)
def test_a_refused_socket_move_says_why_and_changes_nothing(
    started, alice, bob, charlie, move, code
):
    players = [alice, bob, charlie]
    mover = Table.objects.get(pk=started.pk).state["turn"]
    move = {"expected_version": started.version, **move}
    socket = socket_for(started.pk, players[mover])

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        reply = await socket_move(socket, request="x", **move)
        await socket.disconnect()
        return reply

    reply = run(scenario)
    assert reply["type"] == "refused" and reply["request"] == "x"
    assert reply["error"]["code"] == code
    assert reply["error"]["message"].endswith(".")
    if code == "stale_version":
        assert reply["error"]["details"] == {"version": started.version}
    assert current_version(started.pk) == started.version


def test_a_spectator_cannot_move_over_the_socket(started, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    socket = socket_for(started.pk, frank)

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        reply = await socket_move(
            socket, action={"type": "carriage_stop"}, expected_version=started.version
        )
        await socket.disconnect()
        return reply

    reply = run(scenario)
    assert reply["type"] == "refused" and reply["error"]["code"] == "not_a_player"
    assert current_version(started.pk) == started.version


def test_through_redis_a_socket_move_reaches_the_others_from_the_movers_own_loop(
    started, alice, bob, charlie, settings, monkeypatch
):
    """On a network layer the consumer that took the move sends its pushes itself: the
    other player's view, and no hint where no socket hears versions only."""
    from play import live
    from tests.integration.test_live_push import redis_layer

    def no_pusher():
        raise AssertionError("a socket move's push went through the pusher's thread")

    monkeypatch.setattr(live, "pusher", no_pusher)
    players = [alice, bob, charlie]
    mover = Table.objects.get(pk=started.pk).state["turn"]
    other = (mover + 1) % 3
    mine = views_socket_for(started.pk, players[mover])
    theirs = views_socket_for(started.pk, players[other])

    with redis_layer(settings):

        async def scenario():
            for socket in (mine, theirs):
                assert (await socket.connect())[0]
                await socket.receive_json_from()
            reply = await socket_move(
                mine, action={"type": "carriage_stop"}, expected_version=started.version
            )
            seen = await theirs.receive_json_from(timeout=5)
            quiet = await theirs.receive_nothing(timeout=0.5) and await mine.receive_nothing()
            for socket in (mine, theirs):
                await socket.disconnect()
            return reply, seen, quiet

        reply, seen, quiet = run(scenario)

    assert reply["type"] == "moved" and reply["version"] == started.version + 1
    assert seen["type"] == "view" and seen["version"] == started.version + 1
    assert seen["view"] == api_body(started.pk, players[other])
    assert quiet  # no hint after the view, none to the mover


def test_a_movers_other_socket_with_views_is_told_the_version(started, alice, bob, charlie):
    players = [alice, bob, charlie]
    mover = Table.objects.get(pk=started.pk).state["turn"]
    moving, other = (views_socket_for(started.pk, players[mover]) for _ in range(2))

    async def scenario():
        for socket in (moving, other):
            assert (await socket.connect())[0]
            await socket.receive_json_from()
        reply = await socket_move(
            moving, action={"type": "carriage_stop"}, expected_version=started.version
        )
        told = await other.receive_json_from()
        quiet = await moving.receive_nothing()
        for socket in (moving, other):
            await socket.disconnect()
        return reply, told, quiet

    reply, told, quiet = run(scenario)
    assert reply["type"] == "moved"
    assert told == {"type": "version", "version": started.version + 1}
    assert quiet  # the socket that moved has the view in its answer


def _database_down(*args, **kwargs):
    raise OperationalError("the database is not answering")


def test_without_a_database_a_socket_is_told_to_try_again_later(started, alice, monkeypatch):
    from play.consumers import CLOSE_TRY_AGAIN_LATER

    monkeypatch.setattr(selectors, "api_membership_for", _database_down)

    socket = socket_for(started.pk, alice)

    async def scenario():
        return await socket.refusal()

    connected, code = run(scenario)

    assert (connected, code) == (True, CLOSE_TRY_AGAIN_LATER)


def test_without_a_database_a_ping_is_answered_and_a_move_refused_with_a_sentence(
    started, alice, monkeypatch, caplog
):
    socket = socket_for(started.pk, alice)
    # Renewed at every ping, as half of PRESENCE_SECONDS after the last renewal.
    monkeypatch.setattr(presence, "RENEW_WITHIN_SECONDS", presence.PRESENCE_SECONDS + 1)

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        monkeypatch.setattr(presence, "socket_refresh", _database_down)
        monkeypatch.setattr(presence, "socket_close", _database_down)
        monkeypatch.setattr(services, "game_apply_player_action", _database_down)
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from()
        move = await socket_move(
            socket, action={"type": "carriage_stop"}, expected_version=started.version
        )
        await socket.disconnect()
        return pong, move

    pong, move = run(scenario)
    assert pong == {"type": "pong"}
    assert move["type"] == "refused" and move["error"]["code"] == "unavailable"
    assert "try again" in move["error"]["message"]
    assert [record for record in caplog.records if record.levelname == "ERROR"] == []


def test_through_redis_a_view_for_a_single_socket_here_skips_redis(
    started, alice, bob, charlie, settings, monkeypatch
):
    """A player with one socket with views, served by the mover's own process, gets the
    move's view without Redis; a player with two gets it on both, through Redis (the
    move cannot know where the second is served). Each socket once."""
    from holmes_site import channel_layer
    from tests.integration.test_live_push import redis_layer

    published = []
    publish_many = channel_layer.WaitingShard.publish_many

    async def recording(shard, publishes):
        published.extend(channel for channel, _ in publishes)
        await publish_many(shard, publishes)

    monkeypatch.setattr(channel_layer.WaitingShard, "publish_many", recording)
    players = [alice, bob, charlie]
    mover = Table.objects.get(pk=started.pk).state["turn"]
    single, double = (mover + 1) % 3, (mover + 2) % 3
    mine = views_socket_for(started.pk, players[mover])
    one = views_socket_for(started.pk, players[single])
    two = [views_socket_for(started.pk, players[double]) for _ in range(2)]

    with redis_layer(settings):

        async def scenario():
            for socket in (mine, one, *two):
                assert (await socket.connect())[0]
                await socket.receive_json_from()
            reply = await socket_move(
                mine, action={"type": "carriage_stop"}, expected_version=started.version
            )
            seen = [await socket.receive_json_from(timeout=5) for socket in (one, *two)]
            quiet = [await socket.receive_nothing(timeout=0.5) for socket in (one, *two)]
            for socket in (mine, one, *two):
                await socket.disconnect()
            return reply, seen, quiet

        reply, seen, quiet = run(scenario)

    assert reply["type"] == "moved"
    assert [view["view"]["you"]["seat"] for view in seen] == [single, double, double]
    assert all(view["version"] == started.version + 1 for view in seen)
    assert all(quiet)
    assert [channel.split("-user-")[-1] for channel in published] == [str(players[double].pk)]


def test_a_socket_closed_by_its_player_forgets_its_row_and_marks_the_seat_seen(started, alice):
    from datetime import timedelta

    from django.utils import timezone

    from play.models import Seat

    seat = Seat.objects.get(table_id=started.pk, user=alice)
    long_ago = timezone.now() - timedelta(hours=1)
    socket = socket_for(started.pk, alice)

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        await sync_to_async(Seat.objects.filter(pk=seat.pk).update)(seen_at=long_ago)
        await socket.disconnect()

    run(scenario)
    seat.refresh_from_db()
    assert not TableSocket.objects.filter(table_id=started.pk).exists()
    assert seat.seen_at > long_ago
