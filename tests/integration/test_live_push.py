"""Live pushes through a real Redis (channels-redis): every push of a process goes out
over the pusher's one event loop, in order, so its connections are opened once; none
goes out for a table no socket watches."""

import asyncio
import contextlib
import uuid

import redis
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer

from play import live
from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, redis_problem


def test_it_pushes_every_version_in_order_over_one_event_loop(settings):
    require_service("Redis", redis_problem())
    # Its own prefix: other runs on the same Redis never see these messages.
    prefix = f"holmes-test-{uuid.uuid4().hex}"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": prefix},
        }
    }
    channel_layers.backends.clear()
    layer = get_channel_layer()
    try:

        async def subscribe():
            channel = await layer.new_channel()
            await layer.group_add(live.table_group(7), channel)
            return channel

        channel = async_to_sync(subscribe)()
        # As a move says, having read whether a socket is open (play/presence.py).
        for version in range(1, 21):
            live.push_table_version(table_id=7, version=version, watched=True)
        live.push_table_version(table_id=7, version=21, watched=False)
        assert live.pusher().flush()

        async def receive_all():
            versions = [(await layer.receive(channel))["version"] for _ in range(20)]
            with contextlib.suppress(TimeoutError):  # nothing more: 21 was never sent
                versions.append((await asyncio.wait_for(layer.receive(channel), 0.5))["version"])
            return versions

        assert async_to_sync(receive_all)() == list(range(1, 21))
        # The layer keeps connections per event loop: the pusher's loop is the only one
        # that sent, however many pushes there were.
        assert live.pusher().loop in layer._layers
    finally:
        # Not layer.flush(): it would close the pusher loop's connections from this loop.
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
        channel_layers.backends.clear()


def test_each_player_who_asked_gets_only_their_own_view_through_redis(settings):
    """Views go to a group per table and user, before the hint of the same version, in
    one order; a socket in one user's group never receives another user's view."""
    require_service("Redis", redis_problem())
    prefix = f"holmes-test-{uuid.uuid4().hex}"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": prefix},
        }
    }
    channel_layers.backends.clear()
    layer = get_channel_layer()
    try:

        async def subscribe(*groups):
            channel = await layer.new_channel()
            for group in groups:
                await layer.group_add(group, channel)
            return channel

        anna = async_to_sync(subscribe)(live.table_group(8), live.view_group(8, 101))
        ben = async_to_sync(subscribe)(live.table_group(8), live.view_group(8, 102))
        views = {101: {"version": 3, "you": {"seat": 0}}, 102: {"version": 3, "you": {"seat": 1}}}
        live.push_table_version(table_id=8, version=3, watched=True, views=lambda: views)
        assert live.pusher().flush()

        async def receive_two(channel):
            return [await layer.receive(channel) for _ in range(2)]

        for channel, user_id in ((anna, 101), (ben, 102)):
            view, hint = async_to_sync(receive_two)(channel)
            assert view == {"type": "table.view", "version": 3, "view": views[user_id]}
            assert hint == {"type": "table.version", "version": 3}
    finally:
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
        channel_layers.backends.clear()
