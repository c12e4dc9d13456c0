"""The table websocket, through the real ASGI application (origin check, session auth,
routing): members hear "version N exists", nobody else gets in.

The database work of the consumer runs in `database_sync_to_async`, which closes old
connections around each call, so these tests use committed data (transactional_db)."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from holmes_site.asgi import application
from play import services
from play.consumers import CLOSE_NOT_A_MEMBER
from play.models import Spectator, Table

pytestmark = pytest.mark.django_db(transaction=True)


def socket_for(table_id: int, user=None) -> WebsocketCommunicator:
    """A browser's socket to a table: same-site origin and, for a user, their session."""
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


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
        connected, code = await socket.connect()
        await socket.disconnect()
        return connected, code

    assert run(scenario) == (False, CLOSE_NOT_A_MEMBER)


def test_it_refuses_a_socket_to_an_anonymous_visitor(started):
    socket = socket_for(started.pk)

    async def scenario():
        connected, code = await socket.connect()
        await socket.disconnect()
        return connected, code

    assert run(scenario) == (False, CLOSE_NOT_A_MEMBER)


def test_it_refuses_a_socket_for_a_table_that_does_not_exist(started, alice):
    socket = socket_for(started.pk + 1000, alice)

    async def scenario():
        connected, code = await socket.connect()
        await socket.disconnect()
        return connected, code

    assert run(scenario) == (False, CLOSE_NOT_A_MEMBER)


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
