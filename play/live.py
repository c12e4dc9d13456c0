"""Live updates: a websocket push says "version N exists"; clients then fetch their own
view. A lost push costs nothing: clients also poll with the version as an ETag.

A player's socket may ask for its views instead (`?views=1`, for programs playing through
the API): after a move, each other player with such a socket open on the table is sent
their own view, the body `GET /api/tables/<id>/` would answer, in a group of their own
(`view_group`: the table and the user). The group is named by the user, and the view is
built for whoever holds the seat when the move is made, so a person who left the seat
hears nothing more of it. These sockets hear no version of a move (`viewers_group` hears
only what no move made: the start, a timer, a departure); the mover's answer holds its
view, and a second socket of the mover's with views is told the version. The version of
a move goes to `table_group` (pages, spectators, programs without views) only if such a
socket is open.

How a push leaves the process depends on the channel layer:

- the in-memory layer (the embedded default) is process-local: only sockets served by this
  very process can hear it. A push to a group nobody here listens to (a WSGI worker, a
  Celery worker, a table nobody watches) is skipped. Otherwise it is sent at once, in the
  caller's event loop when there is one, as the layer's queues belong to that loop;
- a network layer (channels-redis) keeps its connections per event loop. Sending through
  `async_to_sync` from a thread without a loop makes a new loop, and so a new Redis
  connection, for every push (~6 ms a move). Instead each process runs one event loop in
  a daemon thread, the `Pusher`: pushes are queued to it and sent in order over
  connections that live as long as the process. The request does not wait for Redis.
  A move over a socket holds its pushes instead (`pushes_held`), and its consumer sends
  them from the loop that serves the socket. There, a view for a player who holds one
  socket with views (as the move's lock read the sockets), served by that same loop, is
  handed to it without Redis (holmes_site/channel_layer.py).
  A push to a table no socket watches (play/presence.py keeps them in the database) is
  skipped: sending one costs the web process about 0.4 ms of CPU, and a table played
  by programs through the API alone has no listener at all.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import contextvars
import dataclasses
import logging
import os
import threading
from collections.abc import Callable

import orjson
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from .presence import anyone_watching

logger = logging.getLogger(__name__)

# A push that Redis has not taken after this long is dropped: clients poll anyway.
SEND_TIMEOUT_SECONDS = 5.0
# Pushes waiting for a slow or absent Redis, at most; past that new ones are dropped.
MAX_BACKLOG = 10_000


@dataclasses.dataclass
class HeldPushes:
    """The pushes a move over a socket made, held for its consumer to send."""

    sends: list[tuple[str, dict]] = dataclasses.field(default_factory=list)
    # The groups among them that hold one socket in all, as the move read the table's
    # sockets: a player's one socket with views. The consumer's process may hand such a
    # push to that socket itself, if it serves it (holmes_site/channel_layer.py).
    single: set[str] = dataclasses.field(default_factory=set)


# Pushes a move over a socket makes, held for its consumer to send (`pushes_held`).
held_pushes: contextvars.ContextVar[HeldPushes | None] = contextvars.ContextVar(
    "held_pushes", default=None
)


@contextlib.contextmanager
def pushes_held():
    """Pushes made inside are kept, not sent: a HeldPushes that a caller in an event loop
    sends itself. A move over a socket does (play/consumers.py): its consumer's loop holds
    a connection to the channel layer already, and the pushes skip the hop to the
    pusher's thread and back."""
    held = HeldPushes()
    token = held_pushes.set(held)
    try:
        yield held
    finally:
        held_pushes.reset(token)


async def send_pushes(layer, pushes: list[tuple[str, dict]], single=frozenset()) -> None:
    """Send held pushes in order, as the pusher would: one that fails or hangs is given up
    (clients poll anyway) and the rest go on. A layer that can send them all in one go
    (the Redis layer, holmes_site/channel_layer.py) does: there, a failure gives up the
    move's pushes that had not gone yet, and a group in `single` (one socket in all)
    whose socket this process serves gets its push without Redis."""
    if not pushes:
        return
    if hasattr(layer, "group_send_many"):
        try:
            sending = layer.group_send_many(pushes, frozenset(single))
            await asyncio.wait_for(sending, SEND_TIMEOUT_SECONDS)
        except Exception:  # Redis down or slow: clients fall back to polling
            logger.warning("Could not push %s messages", len(pushes), exc_info=True)
        return
    for group, message in pushes:
        try:
            await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT_SECONDS)
        except Exception:  # Redis down or slow: clients fall back to polling
            logger.warning("Could not push %s to %s", message["type"], group, exc_info=True)


def table_group(table_id: int) -> str:
    """The sockets that hear versions only: pages, spectators, programs."""
    return f"table-{table_id}"


def viewers_group(table_id: int) -> str:
    """The sockets that asked for their views: they hear a version only when no view came
    with it (what no move made: the start, a timer, a departure)."""
    return f"table-{table_id}-viewers"


def view_group(table_id: int, user_id: int) -> str:
    """The sockets of one player at one table that asked for their views."""
    return f"table-{table_id}-user-{user_id}"


def push_table_version(
    *,
    table_id: int,
    version: int,
    watched: bool | None = None,
    views: Callable[[], dict[int, dict | None]] | None = None,
    hinted: bool = True,
    viewers_twice: frozenset[int] | None = None,
) -> None:
    """Tell the table's sockets that `version` exists. `watched`: whether a socket is open
    there, if the caller knows already (a move does: its lock read it); else it is asked
    here. `views`, for a move: the views of this version, by user id, for the players whose
    sockets asked for them (built only when a socket is open); None for a user who is told
    the version instead (the mover: their answer holds the view). `hinted`, for a move:
    whether a socket that hears versions only is open. `viewers_twice`, for a move: the
    seats whose player holds two sockets with views or more; every other view goes to a
    group of one socket (known only when given)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        _push_in_process(layer, table_id, version, views)
        return
    if watched is None:
        watched = anyone_watching(table_id=table_id)
    if not watched:
        return
    built = views() if views else None
    held = held_pushes.get()
    for group, message in table_messages(table_id, version, built, hinted):
        if held is None:
            pusher().push(layer, group, message)
        else:
            held.sends.append((group, message))
    if held is not None and built and viewers_twice is not None:
        held.single.update(_single_view_groups(table_id, built, viewers_twice))


def _single_view_groups(
    table_id: int, views: dict[int, dict | None], viewers_twice: frozenset[int]
) -> set[str]:
    """The view groups of players who hold one socket with views (None: the mover, whose
    other sockets are two at least)."""
    return {
        view_group(table_id, user_id)
        for user_id, view in views.items()
        if view is not None and view["you"]["seat"] not in viewers_twice
    }


def table_messages(
    table_id: int, version: int, views: dict[int, dict | None] | None, hinted: bool
) -> list[tuple[str, dict]]:
    """(group, message) for each push that tells of `version`. The views first: a socket
    that has its view by then skips a hint that follows."""
    hint = {"type": "table.version", "version": version}
    if views is None:  # not a move: everyone hears the version
        return [(table_group(table_id), hint), (viewers_group(table_id), hint)]
    messages = [
        (view_group(table_id, user_id), _view_message(view) if view is not None else hint)
        for user_id, view in views.items()
    ]
    if hinted:
        messages.append((table_group(table_id), hint))
    return messages


def _view_message(view: dict) -> dict:
    """The push of one player's view: the version it shows (the table may have moved on
    in the same transaction) and the socket's frame, as JSON text built here once. The
    layer carries a string as it is, where a view as a dict cost msgpack an encoding
    here and a decoding in the worker holding the socket, which then encoded it again as
    JSON (together about 0.1 ms a view on the benchmark machine)."""
    version = view["version"]
    frame = orjson.dumps({"type": "view", "version": version, "view": view}).decode()
    return {"type": "table.view", "version": version, "frame": frame}


def _push_in_process(layer, table_id: int, version: int, views) -> None:
    """The in-memory layer: only this process's sockets can hear, so only groups with a
    member here are sent to (a push to an empty group would be work for nobody). That
    says who listens better than the sockets' rows, which count other processes too."""
    built = None
    if views is not None:
        # Built only for a player listening here: nobody elsewhere can hear them.
        listening = any(name.startswith(f"table-{table_id}-user-") for name in layer.groups)
        built = views() if listening else {}
    for name, message in table_messages(table_id, version, built, hinted=True):
        if not layer.groups.get(name):
            continue  # nobody in this process listens, and nobody elsewhere can
        try:
            async_to_sync(layer.group_send)(name, message)
        except Exception:  # a push is a hint: never fail the caller
            logger.warning("Could not push %s to %s", message["type"], name, exc_info=True)


class Pusher:
    """One event loop in a daemon thread that sends pushes in the order they were queued.

    The channel layer's connections belong to this loop, so they are opened once and
    reused. `push` never blocks; `flush` waits until everything queued so far is sent.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self._backlog = 0
        self._lock = threading.Lock()
        self._queue: asyncio.Queue | None = None
        ready = threading.Event()
        self.thread = threading.Thread(
            target=self._run, args=(ready,), name="holmes-pusher", daemon=True
        )
        self.thread.start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self._queue = asyncio.Queue()
        self.loop.create_task(self._send_in_order())
        ready.set()
        self.loop.run_forever()

    async def _send_in_order(self) -> None:
        while True:
            layer, group, message, done = await self._queue.get()
            try:
                if layer is not None:
                    await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT_SECONDS)
            except Exception:  # Redis down or slow: clients fall back to polling
                logger.warning("Could not push %s to %s", message, group, exc_info=True)
            finally:
                with self._lock:
                    self._backlog -= 1
                done.set_result(None)

    def _enqueue(self, layer, group: str, message: dict) -> concurrent.futures.Future:
        done: concurrent.futures.Future = concurrent.futures.Future()
        with self._lock:
            if self._backlog >= MAX_BACKLOG:
                done.set_result(None)
                logger.warning("Push backlog full: dropped %s to %s", message, group)
                return done
            self._backlog += 1
        self.loop.call_soon_threadsafe(self._queue.put_nowait, (layer, group, message, done))
        return done

    def push(self, layer, group: str, message: dict) -> concurrent.futures.Future:
        return self._enqueue(layer, group, message)

    def flush(self, timeout: float = SEND_TIMEOUT_SECONDS) -> bool:
        """Wait until every push queued before this call is sent (or given up); False if
        that took longer than `timeout`."""
        marker = self._enqueue(None, "", {})
        try:
            marker.result(timeout)
        except concurrent.futures.TimeoutError:
            return False
        return True


_pusher: Pusher | None = None
_pusher_lock = threading.Lock()


def pusher() -> Pusher:
    """This process's pusher, started on first use (again in a forked child: threads do
    not survive a fork)."""
    global _pusher
    with _pusher_lock:
        if _pusher is None or _pusher.pid != os.getpid():
            _pusher = Pusher()
        return _pusher


@atexit.register
def _flush_at_exit() -> None:
    # A command or a worker that exits right after a move still sends its push.
    if _pusher is not None and _pusher.pid == os.getpid():
        _pusher.flush(timeout=2.0)
