"""The pusher behind live updates: one event loop per process sends pushes in order, and
neither a failing layer nor an absent listener troubles the caller; a table no socket
watches gets no push. (With a real Redis: tests/integration/test_live_push.py.)"""

import asyncio
import threading
from datetime import timedelta

import orjson
import pytest
from channels.layers import InMemoryChannelLayer
from django.utils import timezone

from play import live, presence
from play.models import TableSocket


class RecordingLayer:
    """A channel layer that notes what it was asked to send, and on which event loop."""

    def __init__(self, fail_on: set[int] | None = None):
        self.sent: list[tuple[str, dict]] = []
        self.loops: set[int] = set()
        self.threads: set[int] = set()
        self.fail_on = fail_on or set()

    async def group_send(self, group: str, message: dict) -> None:
        self.loops.add(id(asyncio.get_running_loop()))
        self.threads.add(threading.get_ident())
        await asyncio.sleep(0)  # a real layer awaits the network here
        if message.get("version") in self.fail_on:
            raise ConnectionError("Redis is down")
        self.sent.append((group, message))


def test_it_sends_pushes_in_order_from_one_loop_in_another_thread():
    layer = RecordingLayer()
    pusher = live.Pusher()

    for version in range(1, 101):
        pusher.push(layer, "table-1", {"type": "table.version", "version": version})
    assert pusher.flush()

    assert [message["version"] for _, message in layer.sent] == list(range(1, 101))
    assert layer.loops == {id(pusher.loop)}
    assert threading.get_ident() not in layer.threads


def test_it_goes_on_after_a_push_fails():
    layer = RecordingLayer(fail_on={2})
    pusher = live.Pusher()

    for version in (1, 2, 3):
        pusher.push(layer, "table-1", {"type": "table.version", "version": version})

    assert pusher.flush()
    assert [message["version"] for _, message in layer.sent] == [1, 3]


def test_it_keeps_one_pusher_per_process():
    assert live.pusher() is live.pusher()


def test_it_skips_a_push_nobody_in_this_process_listens_to(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from channels.layers import channel_layers, get_channel_layer

    channel_layers.backends.clear()
    try:
        layer = get_channel_layer()
        assert isinstance(layer, InMemoryChannelLayer)

        live.push_table_version(table_id=12345, version=3)

        assert layer.channels == {}  # nothing queued for anyone
    finally:
        channel_layers.backends.clear()


class NetworkLayer(RecordingLayer):
    """Stands for channels-redis: not the in-memory layer, so pushes go through the
    pusher and the count of watching sockets in the cache."""

    def __init__(self, **config):
        super().__init__()


@pytest.fixture
def network_layer(settings):
    from channels.layers import channel_layers, get_channel_layer

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "tests.play.test_live.NetworkLayer"}}
    channel_layers.backends.clear()
    try:
        yield get_channel_layer()
    finally:
        channel_layers.backends.clear()


def pushed(layer) -> list[tuple[str, int]]:
    assert live.pusher().flush()
    return [(group, message["version"]) for group, message in layer.sent]


@pytest.mark.django_db
def test_it_pushes_only_to_a_table_some_socket_watches(network_layer, started):
    table_id, group, viewers = started.pk, f"table-{started.pk}", f"table-{started.pk}-viewers"
    live.push_table_version(table_id=table_id, version=1)  # nobody watches yet
    first = presence.socket_open(table_id=table_id, seat_id=None)
    second = presence.socket_open(table_id=table_id, seat_id=None)
    live.push_table_version(table_id=table_id, version=2)
    presence.socket_close(socket_id=first)
    live.push_table_version(table_id=table_id, version=3)  # one socket is still open
    presence.socket_close(socket_id=second)
    live.push_table_version(table_id=table_id, version=4)

    # What no move made goes to the sockets that asked for views too.
    assert pushed(network_layer) == [(group, 2), (viewers, 2), (group, 3), (viewers, 3)]


def test_a_moves_hint_goes_only_where_a_socket_hears_versions_only():
    views = {101: {"version": 7, "you": {"seat": 1}}, 102: None}  # 102 moved

    with_pages = live.table_messages(3, 7, views, hinted=True)
    views_only = live.table_messages(3, 7, views, hinted=False)

    hint = {"type": "table.version", "version": 7}
    frame = orjson.dumps({"type": "view", "version": 7, "view": views[101]}).decode()
    view = {"type": "table.view", "version": 7, "frame": frame}
    # The mover's other sockets, if any, hear the version: their answer had the view.
    assert views_only == [("table-3-user-101", view), ("table-3-user-102", hint)]
    assert with_pages == [*views_only, ("table-3", hint)]


def test_what_no_move_made_is_told_to_every_socket():
    hint = {"type": "table.version", "version": 2}

    assert live.table_messages(3, 2, None, hinted=False) == [
        ("table-3", hint),
        ("table-3-viewers", hint),
    ]


@pytest.mark.django_db
def test_it_does_not_push_to_a_socket_whose_pings_stopped(network_layer, started):
    presence.socket_open(table_id=started.pk, seat_id=None)
    TableSocket.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    live.push_table_version(table_id=started.pk, version=5)

    assert pushed(network_layer) == []
