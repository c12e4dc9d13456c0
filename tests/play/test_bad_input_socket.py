"""A socket's frames pass the site's guard (holmes_site/safe_input.py): a move nested a
thousand deep, with an idempotency key, raised RecursionError in its fingerprint; the
socket died without a close frame, and its row stayed, refusing the member's new sockets
for up to 90 s. Now the frame is answered with a sentence, and the socket goes on."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from play.models import Table, TableSocket
from tests.play.test_websocket import socket_for

pytestmark = pytest.mark.django_db(transaction=True)

TOO_DEEP = "The message nests lists and objects deeper than 32 levels."


def rows(table_id: int) -> int:
    return TableSocket.objects.filter(table_id=table_id).count()


@pytest.mark.parametrize("depth", [40, 1000])
def test_a_move_nested_deep_is_answered_with_a_sentence_and_the_socket_goes_on(
    started, alice, depth
):
    table = Table.objects.get(pk=started.pk)
    player = [seat.user for seat in table.seats.order_by("number")][table.state["turn"]]
    socket = socket_for(table.pk, player)
    nested = "[" * depth + "]" * depth
    frame = (
        '{"type": "move", "action": {"type": "carriage_stop", "x": ' + nested + "}, "
        f'"expected_version": {table.version}, "idempotency_key": "deep-1", "request": 7}}'
    )

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()  # the version
        await socket.send_to(text_data=frame)
        answer = await socket.receive_json_from()
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from()
        open_rows = await sync_to_async(rows)(table.pk)
        await socket.disconnect()
        return answer, pong, open_rows

    answer, pong, open_rows = async_to_sync(scenario)()

    assert answer == {"type": "error", "message": TOO_DEEP}
    assert pong == {"type": "pong"} and open_rows == 1
    assert rows(table.pk) == 0
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_frame_holding_nul_is_answered_with_a_sentence(started, alice):
    socket = socket_for(started.pk, alice)

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        await socket.send_to(text_data='{"type": "ping", "x": "a\\u0000b"}')
        answer = await socket.receive_json_from()
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()

    assert answer == {"type": "error", "message": "The message holds the NUL character."}
