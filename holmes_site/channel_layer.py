"""The channel layer for the scaled set-up: channels-redis's publish/subscribe layer,
with a reader that waits for Redis instead of polling it.

channels-redis 4 reads a process's subscriptions by asking for a message with a 0.1 s
timeout, again and again: ten wake-ups a second in every web process when nothing at all
happens, and a timeout set up and torn down around every message it does read. This
reader blocks on the connection until a message comes, and, while the process has no
subscription, sleeps until its first. And `group_send_many` publishes a move's pushes
(its players' views, a hint) in one round trip. Everything else (publishing one message,
subscribing, what reaches which consumer, reconnecting) is channels-redis's own, but
for each consumer's queue: an Inbox, not an asyncio.Queue (see Inbox).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from channels_redis import pubsub

logger = logging.getLogger(__name__)


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels_redis.pubsub.RedisPubSubChannelLayer, with WaitingShard for each host."""

    async def group_send_many(
        self, sends: list[tuple[str, dict]], single: frozenset[str] = frozenset()
    ) -> None:
        """Send each (group, message) as group_send would, in order, in one pipeline per
        Redis host: a move's two or three pushes cost one round trip, one lock and one
        wait, where each was all three.

        `single`: groups the caller knows to hold one socket in all (a player's one socket
        with views, as the move read the table's sockets). One of them whose member is
        in this very loop is handed its message here: through Redis, it cost a publish,
        Redis's fan-out and this process's reading it back, for a socket next door."""
        layer = self._get_layer()
        by_shard: dict[WaitingShard, list[tuple[str, bytes]]] = {}
        for group, message in sends:
            channel = layer._get_group_channel_name(group)
            if group in single and _deliver_here(layer, channel, self.serialize(message)):
                continue
            publishes = by_shard.setdefault(layer._get_shard(channel), [])
            publishes.append((channel, self.serialize(message)))
        for shard, publishes in by_shard.items():
            await shard.publish_many(publishes)

    def _get_layer(self):
        """channels-redis's, making a LoopLayer for each event loop."""
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            pubsub._wrap_close(self, loop)
        return layer


class LoopLayer(pubsub.RedisPubSubLoopLayer):
    """One event loop's layer: WaitingShard for each host, an Inbox for each channel."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [WaitingShard(shard.host, self) for shard in self._shards]

    async def _subscribe_to_channel(self, channel):
        self.channels[channel] = Inbox()
        await self._get_shard(channel).subscribe(channel)


class Inbox:
    """The part of asyncio.Queue that a consumer's channel uses (put_nowait, get, empty,
    qsize), for one reader at a time, holding nothing while it is empty.

    Every open socket has one that waits, almost always empty, as long as the socket
    lives. An asyncio.Queue makes three deques and an Event (a fourth) up front, and a
    deque's first block is some 600 bytes: 2.6 KB a socket for a queue that seldom holds
    a message (tracemalloc in a web worker holding 450 sockets). Here the deque exists
    only while messages wait, and the reader waits on a future of its own."""

    __slots__ = ("_items", "_reader")

    def __init__(self) -> None:
        self._items: deque | None = None
        self._reader: asyncio.Future | None = None

    def put_nowait(self, item) -> None:
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        reader = self._reader
        if reader is not None and not reader.done():
            reader.set_result(None)

    async def get(self):
        while not self._items:
            if self._reader is not None:
                raise RuntimeError("An Inbox has one reader at a time.")
            self._reader = asyncio.get_running_loop().create_future()
            try:
                await self._reader
            finally:
                self._reader = None
        # An item that came as the reader was cancelled stays for the next get.
        item = self._items.popleft()
        if not self._items:
            self._items = None
        return item

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items) if self._items else 0


def _deliver_here(layer, group_channel: str, data: bytes) -> bool:
    """Queue `data` for the group's one member if that member is a channel of this loop
    (as the layer's reader would on hearing it from Redis); False, and nothing queued,
    otherwise."""
    members = layer.groups.get(group_channel)
    if not members or len(members) != 1:
        return False
    (member,) = members
    queue = layer.channels.get(member)
    if queue is None:
        return False
    queue.put_nowait(data)
    return True


class WaitingShard(pubsub.RedisSingleShardConnection):
    def __init__(self, host, channel_layer):
        super().__init__(host, channel_layer)
        self._subscribed = asyncio.Event()

    async def subscribe(self, channel):
        await super().subscribe(channel)
        self._subscribed.set()

    async def publish_many(self, publishes: list[tuple[str, bytes]]) -> None:
        async with self._lock:
            self._ensure_redis()
            async with self._redis.pipeline(transaction=False) as pipe:
                for channel, message in publishes:
                    pipe.publish(channel, message)
                await pipe.execute()

    async def _do_receiving(self):
        while True:
            try:
                if self._pubsub is None or not self._pubsub.subscribed:
                    self._subscribed.clear()
                    await self._subscribed.wait()
                    continue
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=None
                )
                self._receive_message(message)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                continue  # a client library that still times out a blocking read
            except Exception:
                # Redis went away: the next read reconnects and subscribes again.
                logger.exception("Could not read the channel layer's subscriptions")
                await asyncio.sleep(1)
