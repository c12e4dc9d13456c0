"""The table websocket for programs: `Authorization: Token <key>` on the handshake, as on
the API. Through the real ASGI application (origin check, session, token, routing)."""

import pytest
from asgiref.sync import async_to_sync
from rest_framework.authtoken.models import Token

from holmes_site.asgi import application
from play.consumers import CLOSE_NOT_A_MEMBER
from play.ws_auth import token_from_headers
from tests.play.sockets import PatientSocket

pytestmark = pytest.mark.django_db(transaction=True)


def socket_with_token(table_id: int, key: str | None) -> PatientSocket:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if key is not None:
        headers.append((b"authorization", f"Token {key}".encode()))
    return PatientSocket(application, f"/ws/tables/{table_id}/", headers=headers)


def connect_and_greet(socket: PatientSocket):
    async def scenario():
        connected, code = await socket.connect()
        hello = await socket.receive_json_from() if connected else None
        await socket.disconnect()
        return connected, code, hello

    return async_to_sync(scenario)()


def test_it_lets_a_player_in_with_their_api_token(started, bob):
    key = Token.objects.create(user=bob).key

    connected, _, hello = connect_and_greet(socket_with_token(started.pk, key))

    assert connected
    assert hello == {"type": "version", "version": started.version}


def test_it_refuses_a_token_that_does_not_exist(started):
    connected, code, _ = connect_and_greet(socket_with_token(started.pk, "not-a-real-token"))

    assert (connected, code) == (False, CLOSE_NOT_A_MEMBER)


def test_it_refuses_the_token_of_someone_without_a_seat(started, dave):
    key = Token.objects.create(user=dave).key

    connected, code, _ = connect_and_greet(socket_with_token(started.pk, key))

    assert (connected, code) == (False, CLOSE_NOT_A_MEMBER)


def test_it_refuses_the_token_of_a_deactivated_player(started, charlie):
    key = Token.objects.create(user=charlie).key
    charlie.is_active = False
    charlie.save(update_fields=["is_active"])

    connected, code, _ = connect_and_greet(socket_with_token(started.pk, key))

    assert (connected, code) == (False, CLOSE_NOT_A_MEMBER)


def test_it_still_checks_the_origin_of_a_socket_with_a_token(started, bob):
    key = Token.objects.create(user=bob).key
    socket = socket_with_token(started.pk, key)
    socket.scope["headers"] = [
        (b"origin", b"http://evil.example") if name == b"origin" else (name, value)
        for name, value in socket.scope["headers"]
    ]

    connected, _, _ = connect_and_greet(socket)

    assert connected is False


def test_it_reads_only_the_token_scheme_of_the_authorization_header():
    assert token_from_headers([(b"Authorization", b"Token abc123")]) == "abc123"
    assert token_from_headers([(b"authorization", b"token  abc123 ")]) == "abc123"
    assert token_from_headers([(b"authorization", b"Bearer abc123")]) is None
    assert token_from_headers([(b"authorization", b"Token ")]) is None
    assert token_from_headers([(b"cookie", b"Token abc123")]) is None
