"""Live updates: a websocket push says "version N exists"; clients then fetch their own
view. A lost push costs nothing: clients also poll with the version as an ETag.

A player's socket may ask for its views instead (`?views=1`, for programs playing through
the API): after a move, each player with a socket open on the table is sent their own
view, the body `GET /api/tables/<id>/` would answer, in a group of their own
(`view_group`: the table and the user). The group is named by the user, and the view is
built for whoever holds the seat when the move is made, so a person who left the seat
hears nothing more of it. Everything else (spectators, pages, what no move made: the
start, a timer, a departure) goes on with hints.

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
  A push to a table no socket watches (play/presence.py keeps them in the database) is
  skipped: sending one costs the web process about 0.4 ms of CPU, and a table played
  by programs through the API alone has no listener at all.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import os
import threading
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from .presence import anyone_watching

logger = logging.getLogger(__name__)

# A push that Redis has not taken after this long is dropped: clients poll anyway.
SEND_TIMEOUT_SECONDS = 5.0
# Pushes waiting for a slow or absent Redis, at most; past that new ones are dropped.
MAX_BACKLOG = 10_000


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def view_group(table_id: int, user_id: int) -> str:
    """The sockets of one player at one table that asked for their views."""
    return f"table-{table_id}-user-{user_id}"


def push_table_version(
    *,
    table_id: int,
    version: int,
    watched: bool | None = None,
    views: Callable[[], dict[int, dict]] | None = None,
) -> None:
    """Tell the table's sockets that `version` exists. `watched`: whether a socket is open
    there, if the caller knows already (a move does: its lock read it); else it is asked
    here. `views`: the players' own views of this version, by user id, for the sockets
    that asked for them (built only when a socket is open)."""
    layer = get_channel_layer()
    if layer is None:
        return
    group = table_group(table_id)
    hint = {"type": "table.version", "version": version}
    if isinstance(layer, InMemoryChannelLayer):
        _push_in_process(layer, table_id, group, hint, views)
        return
    if watched is None:
        watched = anyone_watching(table_id=table_id)
    if not watched:
        return
    # The views first: a socket that has its view by then skips the hint that follows.
    for user_id, view in (views() if views else {}).items():
        pusher().push(layer, view_group(table_id, user_id), _view_message(view))
    pusher().push(layer, group, hint)


def _view_message(view: dict) -> dict:
    # The version the view shows: the table may have moved on in the same transaction.
    return {"type": "table.view", "version": view["version"], "view": view}


def _push_in_process(layer, table_id: int, group: str, hint: dict, views) -> None:
    """The in-memory layer: only this process's sockets can hear, so only groups with a
    member here are sent to (a push to an empty group would be work for nobody)."""
    sends = []
    if views and any(name.startswith(f"table-{table_id}-user-") for name in layer.groups):
        sends = [
            (view_group(table_id, user_id), _view_message(view))
            for user_id, view in views().items()
        ]
    sends.append((group, hint))
    for name, message in sends:
        if not layer.groups.get(name):
            continue  # nobody in this process listens, and nobody elsewhere can
        try:
            async_to_sync(layer.group_send)(name, message)
        except Exception:  # noqa: BLE001 - a push is a hint: never fail the caller
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
            except Exception:  # noqa: BLE001 - Redis down or slow: clients fall back to polling
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
