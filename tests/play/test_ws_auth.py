"""The table websocket for programs: `Authorization: Token <key>` on the handshake, as on
the API. Through the real ASGI application (origin check, session, token, routing)."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync

from accounts.models import ApiToken
from accounts.services import api_token_create
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
    """(Whether the handshake was accepted, the close code that came instead of a hello,
    the hello): a refusal is accepted first, so that the client reads its code."""

    async def scenario():
        connected, code = await socket.connect()
        hello = None
        if connected:
            first = await socket.receive_output()
            if first["type"] == "websocket.close":
                code = first.get("code")
            else:
                hello = json.loads(first["text"])
        await socket.disconnect()
        return connected, code, hello

    return async_to_sync(scenario)()


def test_it_lets_a_player_in_with_their_api_token(started, bob):
    key = api_token_create(user=bob)[1]

    connected, _, hello = connect_and_greet(socket_with_token(started.pk, key))

    assert connected
    assert hello == {"type": "version", "version": started.version}


def test_it_refuses_a_token_that_does_not_exist(started):
    connected, code, _ = connect_and_greet(socket_with_token(started.pk, "not-a-real-token"))

    assert (connected, code) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_the_token_of_someone_without_a_seat(started, dave):
    key = api_token_create(user=dave)[1]

    connected, code, _ = connect_and_greet(socket_with_token(started.pk, key))

    assert (connected, code) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_an_expired_token(started, bob, settings):
    token, key = api_token_create(user=bob)
    ApiToken.objects.filter(pk=token.pk).update(
        created_at=token.created_at - timedelta(days=settings.API_TOKEN_DAYS, seconds=1)
    )

    connected, code, _ = connect_and_greet(socket_with_token(started.pk, key))

    assert (connected, code) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_a_token_made_before_a_new_password(started, bob):
    key = api_token_create(user=bob)[1]
    bob.set_password("a new password for bob")
    bob.save()

    connected, code, _ = connect_and_greet(socket_with_token(started.pk, key))

    assert (connected, code) == (True, CLOSE_NOT_A_MEMBER)


def test_it_refuses_the_token_of_a_deactivated_player(started, charlie):
    key = api_token_create(user=charlie)[1]
    charlie.is_active = False
    charlie.save(update_fields=["is_active"])

    connected, code, _ = connect_and_greet(socket_with_token(started.pk, key))

    assert (connected, code) == (True, CLOSE_NOT_A_MEMBER)


def test_it_still_checks_the_origin_of_a_socket_with_a_token(started, bob):
    key = api_token_create(user=bob)[1]
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
