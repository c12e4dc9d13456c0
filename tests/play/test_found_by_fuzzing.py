"""What the fuzz suite (tests/play/test_fuzz_*.py, tests/web/test_fuzz_pages.py) found,
each kept as a plain test:

- a move whose "type" is a list or an object (unhashable): the answer budget's look-up
  in the set of answering types raised TypeError, a 500 from POST .../actions/ and, on a
  socket, a consumer that died without a close frame, its row left counting;
- removing a computer player (DELETE .../bots/<number>/) answered 200 with the table,
  where the schema said 204 (drf-spectacular's default for a DELETE).
"""

import json

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from rest_framework.test import APIClient

from play import services
from play.models import Table, TableSocket
from tests.play.fuzz import socket_thread_closed  # noqa: F401 (a fixture)
from tests.play.test_websocket import socket_for

ODD_TYPES = [[], {}, ["answer"], {"answer": 1}]


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ODD_TYPES, ids=["list", "object", "list-of-a-type", "object-2"])
def test_it_refuses_a_move_whose_type_is_no_text_over_the_api(started, alice, kind):
    table = Table.objects.get(pk=started.pk)
    body = {"action": {"type": kind}, "expected_version": table.version}

    response = api_client(alice).post(
        f"/api/tables/{table.pk}/actions/", json.dumps(body), content_type="application/json"
    )

    assert response.status_code == 400, response.content
    assert Table.objects.get(pk=table.pk).version == table.version


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_thread_closed")
@pytest.mark.parametrize("kind", ODD_TYPES[:2], ids=["list", "object"])
def test_it_refuses_a_move_whose_type_is_no_text_over_a_socket(started, alice, kind):
    table = Table.objects.get(pk=started.pk)
    socket = socket_for(table.pk, alice)
    frame = {"type": "move", "action": {"type": kind}, "expected_version": table.version}

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()  # the version
        await socket.send_json_to({**frame, "request": 5})
        answer = await socket.receive_json_from()
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from()
        await socket.disconnect()
        return answer, pong

    answer, pong = async_to_sync(scenario)()

    assert answer["type"] == "refused" and answer["request"] == 5, answer
    assert pong == {"type": "pong"}
    assert not TableSocket.objects.filter(table_id=table.pk).exists()
    assert Table.objects.get(pk=table.pk).version == table.version


@pytest.mark.django_db
def test_it_documents_removing_a_computer_player_as_it_answers(alice):
    table = services.table_create(host=alice, game="holmes_elementary")
    services.seat_add_bot(table_id=table.pk, user=alice)
    schema = json.loads(Client().get("/api/schema/", {"format": "json"}).content)
    documented = schema["paths"]["/api/tables/{table_id}/bots/{number}/"]["delete"]["responses"]

    response = api_client(alice).delete(f"/api/tables/{table.pk}/bots/1/")

    assert response.status_code == 200, response.content
    assert "200" in documented and "204" not in documented
    assert [seat["bot"] for seat in response.json()["seats"]] == [False]
