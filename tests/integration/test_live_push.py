"""Live pushes through a real Redis (channels-redis, publish/subscribe): every push of a
process goes out over the pusher's one event loop, in order, so its connections are
opened once; none goes out for a table no socket watches; views reach only their own
player's group.

A subscriber lives in one event loop, as a server process's sockets do: each test
subscribes, lets the pusher send from its own thread, and receives, all in one loop."""

import asyncio
import contextlib
import uuid

import orjson
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer

from play import live
from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, redis_problem


@contextlib.contextmanager
def redis_layer(settings):
    require_service("Redis", redis_problem())
    # Its own prefix: other runs on the same Redis never hear these messages.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "holmes_site.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"holmes-test-{uuid.uuid4().hex}"},
        }
    }
    channel_layers.backends.clear()
    try:
        yield get_channel_layer()
    finally:
        channel_layers.backends.clear()


async def subscribed(layer, *groups) -> str:
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    return channel


async def pushed(send) -> None:
    """`send` (pushes, from this thread) once the subscriptions are live, then wait until
    the pusher has handed everything to Redis."""
    await asyncio.sleep(0.2)  # SUBSCRIBE is acknowledged before messages flow
    send()
    assert await asyncio.to_thread(live.pusher().flush)


def test_it_pushes_every_version_in_order_over_one_event_loop(settings):
    with redis_layer(settings) as layer:

        def send():
            # As a move says, having read whether a socket is open (play/presence.py).
            for version in range(1, 21):
                live.push_table_version(table_id=7, version=version, watched=True)
            live.push_table_version(table_id=7, version=21, watched=False)

        async def scenario():
            channel = await subscribed(layer, live.table_group(7))
            await pushed(send)
            versions = [(await layer.receive(channel))["version"] for _ in range(20)]
            with contextlib.suppress(TimeoutError):  # nothing more: 21 was never sent
                versions.append((await asyncio.wait_for(layer.receive(channel), 0.5))["version"])
            await layer.flush()
            return versions

        assert async_to_sync(scenario)() == list(range(1, 21))
        # The layer keeps connections per event loop: the pusher's loop is the one
        # that sent, however many pushes there were.
        assert live.pusher().loop in layer._layers


def test_each_player_who_asked_gets_only_their_own_view_through_redis(settings):
    """Views go to a group per table and user, before the hint of the same version; a
    socket in one user's group never receives another user's view."""
    views = {101: {"version": 3, "you": {"seat": 0}}, 102: {"version": 3, "you": {"seat": 1}}}

    with redis_layer(settings) as layer:

        async def scenario():
            anna = await subscribed(layer, live.table_group(8), live.view_group(8, 101))
            ben = await subscribed(layer, live.table_group(8), live.view_group(8, 102))
            await pushed(
                lambda: live.push_table_version(
                    table_id=8, version=3, watched=True, views=lambda: views
                )
            )
            received = {}
            for channel, user_id in ((anna, 101), (ben, 102)):
                received[user_id] = [await layer.receive(channel) for _ in range(2)]
                with contextlib.suppress(TimeoutError):  # and nothing of the other's
                    extra = await asyncio.wait_for(layer.receive(channel), 0.3)
                    received[user_id].append(extra)
            await layer.flush()
            return received

        received = async_to_sync(scenario)()
        for user_id in (101, 102):
            view, hint = received[user_id]
            assert view["type"] == "table.view" and view["version"] == 3
            frame = {"type": "view", "version": 3, "view": views[user_id]}
            assert orjson.loads(view["frame"]) == frame
            assert hint == {"type": "table.version", "version": 3}


def test_the_subscriber_blocks_until_a_message_and_still_hears_new_subscriptions(settings):
    """The layer's reader waits on the connection until a message comes (holmes_site/
    channel_layer.py): a message after an idle spell arrives, and so does one to a group
    subscribed while the reader was waiting (its SUBSCRIBE is answered on the connection
    the reader holds)."""
    with redis_layer(settings) as layer:

        async def scenario():
            first = await subscribed(layer, "holmes-test-first")
            await asyncio.sleep(0.3)  # the reader is blocked on an idle connection
            await layer.group_send("holmes-test-first", {"type": "x.one"})
            one = await asyncio.wait_for(layer.receive(first), 5)
            await asyncio.sleep(0.3)
            second = await subscribed(layer, "holmes-test-second")
            await asyncio.sleep(0.2)
            await layer.group_send("holmes-test-second", {"type": "x.two"})
            two = await asyncio.wait_for(layer.receive(second), 5)
            await layer.flush()
            return one, two

        assert async_to_sync(scenario)() == ({"type": "x.one"}, {"type": "x.two"})


def test_a_moves_held_pushes_go_in_one_pipeline_each_to_its_own_group_in_order(settings):
    """A move over a socket sends its pushes from the consumer's loop in one pipeline
    (play/live.send_pushes, holmes_site/channel_layer.py): each reaches its group, in the
    order the move made them, and nothing reaches a group it was not sent to."""
    pushes = [
        (live.view_group(9, 201), {"type": "table.view", "version": 4, "frame": "{}"}),
        (live.view_group(9, 202), {"type": "table.view", "version": 4, "frame": "[]"}),
        (live.table_group(9), {"type": "table.version", "version": 4}),
    ]
    with redis_layer(settings) as layer:
        assert hasattr(layer, "group_send_many")

        async def scenario():
            cara = await subscribed(layer, live.view_group(9, 201), live.table_group(9))
            dan = await subscribed(layer, live.view_group(9, 202))
            await asyncio.sleep(0.2)  # SUBSCRIBE is acknowledged before messages flow
            await live.send_pushes(layer, pushes)
            caras = [await asyncio.wait_for(layer.receive(cara), 5) for _ in range(2)]
            dans = [await asyncio.wait_for(layer.receive(dan), 5)]
            with contextlib.suppress(TimeoutError):  # nothing of the others'
                dans.append(await asyncio.wait_for(layer.receive(dan), 0.3))
            await layer.flush()
            return caras, dans

        caras, dans = async_to_sync(scenario)()
        assert caras == [pushes[0][1], pushes[2][1]]
        assert dans == [pushes[1][1]]


def another_process_layer(layer):
    """A second layer on the same Redis and prefix, with subscriptions of its own: what
    another web process holds."""
    from holmes_site.channel_layer import RedisPubSubChannelLayer

    return RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=layer._kwargs["prefix"])


async def heard(layer, channel, wait: float = 0.3) -> list[dict]:
    """Every message the channel has by now, waiting `wait` for each after the first."""
    messages = []
    with contextlib.suppress(TimeoutError):
        while True:
            messages.append(await asyncio.wait_for(layer.receive(channel), wait))
    return messages


def test_a_push_to_a_single_socket_served_here_skips_redis_and_comes_once(settings):
    """A view for a player's one socket (as the move read the sockets), which this very
    loop serves, is handed to it here: once, and never published (a socket of the group
    elsewhere, which the move's reading says cannot be, hears nothing). A group not named
    single goes through Redis as before, and also comes once."""
    view = {"type": "table.view", "version": 5, "frame": "{}"}
    hint = {"type": "table.version", "version": 5}
    with redis_layer(settings) as layer:
        elsewhere = another_process_layer(layer)

        async def scenario():
            here = await subscribed(layer, live.view_group(9, 201))
            pages = await subscribed(layer, live.table_group(9))
            there = await subscribed(elsewhere, live.view_group(9, 201))
            await asyncio.sleep(0.2)  # SUBSCRIBE is acknowledged before messages flow
            pushes = [(live.view_group(9, 201), view), (live.table_group(9), hint)]
            await live.send_pushes(layer, pushes, {live.view_group(9, 201)})
            found = (
                await heard(layer, here, 1.0),
                await heard(layer, pages, 1.0),
                await heard(elsewhere, there),
            )
            await layer.flush()
            await elsewhere.flush()
            return found

        here, pages, there = async_to_sync(scenario)()
        assert here == [view]
        assert pages == [hint]
        assert there == []


def test_a_push_to_a_single_socket_served_elsewhere_goes_through_redis(settings):
    view = {"type": "table.view", "version": 6, "frame": "[]"}
    with redis_layer(settings) as layer:
        elsewhere = another_process_layer(layer)

        async def scenario():
            there = await subscribed(elsewhere, live.view_group(9, 202))
            await asyncio.sleep(0.2)  # SUBSCRIBE is acknowledged before messages flow
            group = live.view_group(9, 202)
            await live.send_pushes(layer, [(group, view)], {group})
            found = await heard(elsewhere, there, 2.0)
            await layer.flush()
            await elsewhere.flush()
            return found

        assert async_to_sync(scenario)() == [view]
