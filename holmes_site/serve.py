"""The scaled set-up's web server: `python -m holmes_site.serve --workers N` (the Procfile).

uvicorn serves each worker; this module replaces its `--workers` supervisor for two
reasons measured with `python -m bench peers` (idle, 20 tables; /proc/<pid>/stat over 40 s):

- Waking for nothing. uvicorn's server loop wakes ten times a second to see whether it
  should stop (1.25 ms of CPU a second per worker with nobody playing), and its supervisor
  pings every worker over a pipe twice a second (1.0 ms/s in the supervisor, and each
  worker's answering thread). Here a worker's loop sleeps until SIGTERM/SIGINT: the Date
  header uvicorn renewed on its ticks is stamped when a response is sent (DatedHeaders);
  the parent sleeps in `sigwait` until a signal comes.
- Memory. uvicorn's workers are spawned: each imports Django and the apps itself. Here
  the parent loads the application once (holmes_site/asgi.py sets Django up, warms it up
  and freezes what it loaded out of the garbage collector's way) and forks the workers,
  which share those pages until they write to them.

With `--celery-worker "OPTIONS"` the parent forks a Celery worker too: one process
fewer that loads Django by itself (the Celery worker's own pages were 93 MB of PSS).

A worker that dies is replaced (forked again from the loaded parent, in milliseconds);
SIGTERM or SIGINT to the parent stops the workers gracefully and waits for them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable
from email.utils import formatdate

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from holmes_site.channel_layer import Inbox

APPLICATION = "holmes_site.asgi:application"
STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}
WATCHED = STOP_SIGNALS | {signal.SIGCHLD}
PR_SET_PDEATHSIG = 1  # prctl(2)
STARTUP_FAILURE = 3  # uvicorn's exit code when a worker cannot start: no point forking again
FAST_EXIT_SECONDS = 5.0  # a worker that ends sooner after its fork did not start either


class DatedHeaders(list):
    """The headers uvicorn adds to every response, with a Date stamped when they are read
    (formatted at most once a second) instead of renewed by a timer. uvicorn's protocols
    take them as `default_headers + headers` or iterate over them."""

    def __init__(self, headers: list[tuple[bytes, bytes]]):
        super().__init__(headers)
        self._stamped = (-1, b"")  # the second and its date, formatted

    def current(self) -> list[tuple[bytes, bytes]]:
        second, date = self._stamped
        now = int(time.time())
        if now != second:
            date = formatdate(now, usegmt=True).encode()
            self._stamped = (now, date)
        return [(b"date", date), *super().__iter__()]

    def __iter__(self):
        return iter(self.current())

    def __add__(self, other):
        return self.current() + list(other)


class QuietServer(uvicorn.Server):
    """A uvicorn server whose main loop sleeps until a stop signal, instead of waking
    every tenth of a second to see whether one came and to renew the Date header."""

    _woken: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        headers = self.config.encoded_headers
        self.server_state.default_headers = (
            DatedHeaders(headers) if self.config.date_header else list(headers)
        )
        while not self.should_exit:
            await self._woken.wait()
            self._woken.clear()

    def handle_exit(self, sig: int, frame) -> None:
        super().handle_exit(sig, frame)
        # A signal handler runs between two steps of the loop's own thread: the loop may be
        # asleep in its selector, so it is woken through its self-pipe.
        if self._loop is not None and self._woken is not None:
            self._loop.call_soon_threadsafe(self._woken.set)


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol on the websockets library's sans-I/O core (what its
    "auto" picks when that library is installed), holding less for each open socket:

    - its queue of events for the application is an Inbox, not an asyncio.Queue (the
      channel layer's reasons: 2.6 KB a socket, holmes_site/channel_layer.py);
    - the handshake's request and response headers are let go once the response is
      sent: uvicorn keeps both messages as long as the socket, and so does the websockets
      library's parser (the request, a local of its generator), while the scope holds
      the request's headers the application reads, a copy of them;
    - `writable` is a FlowSwitch, not an asyncio.Event (a deque of 600 bytes each).

    Measured on one worker holding 600 idle table sockets: its PSS grew 42 KB a socket,
    against 56 KB with uvicorn's own protocol and channels-redis's queues.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.queue = Inbox()
        self.writable = FlowSwitch()
        self.writable.set()  # as uvicorn's: writable until the transport says otherwise

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        if self.handshake_complete:  # refused as it came: the response went out
            self._forget_handshake()

    async def send(self, message) -> None:
        await super().send(message)
        if self.handshake_complete and getattr(self, "response", None) is not None:
            self._forget_handshake()

    def _forget_handshake(self) -> None:
        for message in (self.request, self.response):
            if message is not None:
                message.headers.clear()  # in place: the parser's reference stays
        self.request = None
        self.response = None


class FlowSwitch:
    """What uvicorn's protocol uses of asyncio.Event for `writable` (set, clear, wait),
    with its waiters' list made only while someone waits: a socket's sends seldom wait
    for the transport to drain, yet every socket held an Event's deque."""

    __slots__ = ("_on", "_waiters")

    def __init__(self) -> None:
        self._on = False
        self._waiters: list[asyncio.Future] | None = None

    def is_set(self) -> bool:
        return self._on

    def set(self) -> None:
        self._on = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(True)

    def clear(self) -> None:
        self._on = False

    async def wait(self) -> bool:
        if self._on:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            return await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)


def config_from(flags: argparse.Namespace) -> uvicorn.Config:
    return uvicorn.Config(
        APPLICATION,
        host=flags.host,
        port=flags.port,
        backlog=flags.backlog,
        log_level=flags.log_level,
        access_log=flags.access_log,
        lifespan="off",
        # Django alone decides whom to believe about a client's address (the Procfile).
        proxy_headers=False,
        ws=LeanWebSocketProtocol,
        ws_per_message_deflate=flags.ws_per_message_deflate,
        ws_ping_interval=flags.ws_ping_interval,
    )


def in_child(work: Callable[[], object]) -> None:
    """In a forked child: do `work` with the signals a process normally has, then exit
    with its code (never return into the parent's loop)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    die_with_parent()
    code = 0
    try:
        work()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (1 if stop.code else 0)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def die_with_parent() -> None:
    """A SIGTERM when the parent dies, even by SIGKILL: no orphaned worker keeps serving
    the port or taking tasks (Linux's PR_SET_PDEATHSIG; elsewhere nothing)."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)


def web_worker(config: uvicorn.Config, sock) -> Callable[[], object]:
    return lambda: QuietServer(config).run(sockets=[sock])


def celery_worker(options: list[str]) -> Callable[[], object]:
    """A Celery worker run in a child of the loaded parent: Django and the tasks' modules
    are the parent's pages, shared, instead of a whole process's own."""

    def work() -> None:
        from holmes_site.celery import app

        app.worker_main(["worker", *options])

    return work


def fork(work: Callable[[], object]) -> int:
    pid = os.fork()
    if pid == 0:
        in_child(work)
    return pid


Child = tuple[Callable[[], object], float]  # what it does, when it was forked


def reap(children: dict[int, Child]) -> list[tuple[Child, int]]:
    """The children that ended, removed from `children`, with their exit codes."""
    ended = []
    while children:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            break
        if pid in children:
            ended.append((children.pop(pid), os.waitstatus_to_exitcode(status)))
    return ended


def start_child(work: Callable[[], object]) -> tuple[int, Child]:
    return fork(work), (work, time.monotonic())


def supervise(works: list[Callable[[], object]]) -> int:
    """Fork a child for each of `works`, fork again any that ends, stop them all on
    SIGTERM or SIGINT, or when a child could not start."""
    # Blocked before the first fork, so that no signal is lost between two waits; each
    # child unblocks them for itself.
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
    children = dict(start_child(work) for work in works)
    while True:
        received = signal.sigwait(WATCHED)
        if received in STOP_SIGNALS:
            return stop_children(children, received)
        for (work, forked), code in reap(children):
            # One that exits by itself as it starts would again, as fast as it is forked
            # (one killed by a signal, a negative code, is forked again).
            fast = code > 0 and time.monotonic() - forked < FAST_EXIT_SECONDS
            if code == STARTUP_FAILURE or fast:
                print(
                    f"holmes serve: a worker could not start (exit {code}); stopping.",
                    file=sys.stderr,
                )
                return stop_children(children, signal.SIGTERM) or STARTUP_FAILURE
            print(f"holmes serve: a worker ended (exit {code}); starting another.", flush=True)
            pid, child = start_child(work)
            children[pid] = child


def stop_children(children: dict[int, Child], sent: int) -> int:
    for pid in children:
        os.kill(pid, sent)
    while children:
        pid, _ = os.waitpid(-1, 0)
        children.pop(pid, None)
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m holmes_site.serve", description="Serve the site with forked workers."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--backlog", type=int, default=2048)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-access-log", dest="access_log", action="store_false")
    parser.add_argument("--ws-per-message-deflate", type=on_off, default=False)
    parser.add_argument("--ws-ping-interval", type=float, default=60.0)
    parser.add_argument(
        "--celery-worker",
        metavar="OPTIONS",
        type=shlex.split,
        default=None,
        help="also run a Celery worker, forked from the loaded site, with these options "
        "of `celery worker` (one quoted argument)",
    )
    flags = parser.parse_args(argv)
    if flags.workers < 1:
        parser.error("--workers must be 1 or more")
    return flags


def on_off(text: str) -> bool:
    if text.lower() in ("true", "1", "yes", "on"):
        return True
    if text.lower() in ("false", "0", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"{text!r} is neither true nor false")


def main(argv: list[str]) -> int:
    flags = parse(argv)
    config = config_from(flags)
    config.load()  # imports holmes_site.asgi: Django set up, warmed up, frozen
    sock = config.bind_socket()
    works = [web_worker(config, sock) for _ in range(flags.workers)]
    if flags.celery_worker is not None:
        works.append(celery_worker(flags.celery_worker))
    try:
        return supervise(works)
    finally:
        sock.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
