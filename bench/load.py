"""Tables played live: players with websockets, views fetched on each push, moves posted.

`python -m bench load` serves the site as the scaled set-up does (uvicorn with several
workers, a Celery worker, Redis for the broker and the channel layer; see the Procfile) on
a free loopback port, once on a temporary SQLite file and once on a fresh PostgreSQL
database (`holmes_bench`, created and dropped here; skipped when it cannot be reached).
On each it measures, in the same run:

- ``empty``: the empty authenticated endpoint (`bench/empty/`) under 16 busy clients,
  the baseline of what any API request costs;
- ``N tables`` (50, then 200): N tables of three simulated players. Each player holds the
  table's websocket open (authenticated by its API token) and asks it for its own views
  (`?views=1`), as a program playing through the API would: the socket opens with the
  player's view, and after each move brings each player its view. A player fetches its
  view with If-None-Match only when the socket says "version N exists" of a version it
  has no view of (a change no move made). When its view lists a move for it, it thinks
  for a while and posts one of its legal actions with the version it saw and an
  idempotency key.

It prints moves per second, p50 and p99 latency of the moves and of all API requests
(moves and views), views fetched (and how many were 304), stale moves (409: someone moved
first, which simultaneous phases cause) and errors (anything else: 5xx, refusals, lost
connections, sockets that closed). Goal: no errors and p99 under 250 ms on PostgreSQL at
200 tables.

Players think HOLMES_LOAD_THINK_SECONDS (default 12) on average before a move, like people
at a table; so the moves per second follow the number of tables, and latency tells
whether the server keeps up. The players arrive within ARRIVAL_SECONDS, or at
ARRIVAL_RATE players a second when there are more of them (12 s for 200 tables); the
figures are measured from shortly after the last one has its first view, so they are
those of tables in play, and the arrival is reported on a line of its own. Everything is
bounded: each run lasts a fixed time, then every socket is closed.

Each database runs in a child process (`python -m bench.load sqlite|postgresql`), because
Django can be set up only once per process.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench._harness import (
    POSTGRES_URL,
    REDIS_URL,
    ROOT,
    Table,
    celery_worker,
    choose,
    clear_queue,
    clear_run_keys,
    free_port,
    percentile,
    postgres_create,
    postgres_drop,
    prepare,
    redis_problem,
    run_client,
    start,
    stop,
    uvicorn,
    wait_until_up,
    wait_until_worker_ready,
)

TABLE_COUNTS = (50, 200)
WORKERS = int(os.environ.get("HOLMES_LOAD_WORKERS", "4"))
THINK_SECONDS = float(os.environ.get("HOLMES_LOAD_THINK_SECONDS", "12"))
SECONDS = float(os.environ.get("HOLMES_LOAD_SECONDS", "14"))  # measured, per table count
ARRIVAL_SECONDS = 2.5  # players open their tables within this time, as people arrive,
ARRIVAL_RATE = 50.0  # or at this many players a second, when there are more of them
ARRIVAL_TIMEOUT = 60.0  # measure from here even if some player never got a first view
SETTLE_SECONDS = 2.0  # after the last player's first view, before measuring, at least
# ... and a sixth of the arrival's time: 3,000 players arriving over 60 s keep two cores
# busy (on either side of bench peers) for seconds after the last of them, with their
# first moves queued behind the handshakes; the window measures tables in play.
SETTLE_SHARE = 1 / 6
PING_SECONDS = 30.0  # as play/static/play/table.js
EMPTY_CLIENTS = 16
EMPTY_SECONDS = 4.0
REQUEST_TIMEOUT = 30.0
# How players send their moves: over their socket (the default, as boardgame.io's clients
# do), or as `POST /api/tables/<id>/actions/`.
MOVES_OVER = os.environ.get("HOLMES_LOAD_MOVES", "socket")
GOAL_P99_MS = 250.0


def main() -> None:
    print(
        f"Live tables: uvicorn ({WORKERS} workers) + Celery worker + Redis on loopback; "
        f"3 players a table, each with a websocket; think {THINK_SECONDS:.0f} s on average; "
        f"{SECONDS:.0f} s measured per table count, from {SETTLE_SECONDS:.0f} s (or a sixth "
        f"of the arrival's time) after every player has arrived (opened the socket and had "
        "a first view)",
        flush=True,
    )
    for database in ("sqlite", "postgresql"):
        child = subprocess.run(
            [sys.executable, "-m", "bench.load", database], cwd=ROOT, check=False, timeout=240
        )
        if child.returncode:
            print(f"{database:<11}failed (exit {child.returncode}): see the error above")


# --- A child: prepare the database, serve, drive, clean up --------------------------------


def run_database(database: str) -> None:
    with tempfile.TemporaryDirectory(prefix="holmes-load-") as folder:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings"}
        env.pop("REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        if database == "sqlite":
            env["HOLMES_SQLITE_PATH"] = str(Path(folder) / "bench.sqlite3")
        else:
            problem = postgres_create(POSTGRES_URL)
            if problem:
                print(f"{database:<11}skipped: cannot reach PostgreSQL ({problem})", flush=True)
                return
            env["DATABASE_URL"] = POSTGRES_URL
        workers = WORKERS
        problem = redis_problem(REDIS_URL)
        if problem:
            # The in-memory channel layer reaches only its own process's sockets.
            workers = 1
            print(f"{database:<11}Redis unreachable ({problem}): 1 worker, eager Celery")
        else:
            env["REDIS_URL"] = REDIS_URL
        os.environ.update(env)
        processes: list[subprocess.Popen] = []
        try:
            tables = prepare(sum(TABLE_COUNTS))
            port = free_port()
            log = Path(folder) / "server.log"
            processes.append(start(uvicorn(port, workers), log))
            if "REDIS_URL" in env:
                worker_log = Path(folder) / "worker.log"
                processes.append(celery_worker(worker_log))
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, processes[0], log)
            if "REDIS_URL" in env:
                wait_until_worker_ready(processes[1], worker_log)
            run_client(drive(database, base, tables))
        finally:
            for process in reversed(processes):
                stop(process)
            if database == "postgresql":
                from django.db import connections

                connections.close_all()
                postgres_drop(POSTGRES_URL)
            if "REDIS_URL" in env:
                clear_queue(REDIS_URL)
                clear_run_keys(REDIS_URL)


async def drive(database: str, base: str, tables: list[Table]) -> None:
    import aiohttp

    # No limit on connections: every player holds a socket and may fetch at once. Idle
    # connections are dropped before uvicorn's keep-alive (5 s) would close them under a
    # request, as a browser does.
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=3)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as session:
        empty = await empty_load(session, tables[0].tokens[0])
        print(
            f"{database:<11}{'empty':<11}{EMPTY_CLIENTS:>3} clients {empty.rate:>7.0f} req/s"
            f"{empty.p50:>9.1f}{empty.p99:>9.1f} ms (p50, p99){empty.errors:>5} errors",
            flush=True,
        )
        offset = 0
        for count in TABLE_COUNTS:
            group = tables[offset : offset + count]
            offset += count
            figures = await play_tables(session, base, group)
            print(figures.arrival_row(database), flush=True)
            print(figures.row(database), flush=True)
            if database == "postgresql" and count == max(TABLE_COUNTS):
                met = figures.errors == 0 and figures.p99_all <= GOAL_P99_MS
                verdict = "met" if met else "not met"
                print(
                    f"{'':<11}goal at {count} tables (no errors, p99 < {GOAL_P99_MS:.0f} ms): "
                    f"{verdict}",
                    flush=True,
                )


# --- The baseline -------------------------------------------------------------------------


@dataclass
class Empty:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = EMPTY_SECONDS

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def p50(self) -> float:
        return percentile(sorted(self.latencies), 0.5) * 1000

    @property
    def p99(self) -> float:
        return percentile(sorted(self.latencies), 0.99) * 1000


async def empty_load(session, token: str) -> Empty:
    """Busy clients on the empty endpoint: a warm-up second, then EMPTY_SECONDS measured."""
    import aiohttp

    headers = {"Authorization": f"Token {token}"}
    body = {"action": {"type": "carriage_stop"}, "expected_version": 1, "idempotency_key": "k"}

    async def client(figures: Empty | None, deadline: float) -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                async with session.post("/bench/empty/", json=body, headers=headers) as answer:
                    await answer.read()
                    ok = answer.status == 200
            except (TimeoutError, aiohttp.ClientError):
                ok = False
            if figures is None:
                continue
            if ok:
                figures.latencies.append(time.perf_counter() - started)
            else:
                figures.errors += 1

    warmup = time.perf_counter() + 1.0
    await asyncio.gather(*(client(None, warmup) for _ in range(EMPTY_CLIENTS)))
    figures = Empty()
    deadline = time.perf_counter() + EMPTY_SECONDS
    await asyncio.gather(*(client(figures, deadline) for _ in range(EMPTY_CLIENTS)))
    return figures


# --- The tables ---------------------------------------------------------------------------


@dataclass
class Figures:
    tables: int
    seconds: float
    moves: list[float] = field(default_factory=list)  # latencies of applied moves
    views: list[float] = field(default_factory=list)  # latencies of view fetches (200/304)
    not_modified: int = 0
    first_views: list[float] = field(default_factory=list)  # latencies, while arriving
    arrived_after: float = float("nan")  # seconds until every player had a first view
    pushes: int = 0
    stale: int = 0
    errors: int = 0
    problems: dict[str, int] = field(default_factory=dict)
    # How late the load client's own event loop woke up in the measured window (seconds):
    # a client too busy to read its sockets adds that to every latency it measures.
    client_lag: list[float] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        self.problems[what] = self.problems.get(what, 0) + 1

    @property
    def p99_all(self) -> float:
        return percentile(sorted(self.moves + self.views), 0.99) * 1000

    def arrival_row(self, database: str) -> str:
        first = sorted(self.first_views)
        return (
            f"{database:<11}{self.tables:>4} tables arriving: {len(first)} of {self.tables * 3} "
            f"players had their first view after {self.arrived_after:.1f} s (first views p50 "
            f"{percentile(first, 0.5) * 1000:.0f} p99 {percentile(first, 0.99) * 1000:.0f} ms; "
            "not in the figures below)"
        )

    def row(self, database: str) -> str:
        moves, everything = sorted(self.moves), sorted(self.moves + self.views)
        rate = len(self.moves) / self.seconds
        views = len(self.views) / self.seconds
        share = self.not_modified / len(self.views) if self.views else 0.0
        problems = ", ".join(f"{what}: {n}" for what, n in sorted(self.problems.items()))
        return (
            f"{database:<11}{self.tables:>4} tables {self.tables * 3:>4} sockets "
            f"{rate:>6.1f} moves/s  moves p50 {percentile(moves, 0.5) * 1000:.0f} "
            f"p99 {percentile(moves, 0.99) * 1000:.0f} ms  all requests p50 "
            f"{percentile(everything, 0.5) * 1000:.0f} p99 {self.p99_all:.0f} ms  "
            f"{views:.0f} views/s ({share:.0%} 304)  {self.pushes / self.seconds:.0f} pushes/s  "
            f"stale {self.stale}  errors {self.errors}" + (f" ({problems})" if problems else "")
        )


async def play_tables(session, base: str, tables: list[Table]) -> Figures:
    figures = Figures(tables=len(tables), seconds=SECONDS)
    clock = Clock(players=len(tables) * 3, figures=figures)
    players = [
        Player(session, base, table, seat, figures, clock, random.Random(table.id * 10 + seat))
        for table in tables
        for seat in range(3)
    ]
    # Bounded: every player stops at `stop_at`; this is the backstop if one hangs.
    await asyncio.wait_for(
        asyncio.gather(*(player.play() for player in players)),
        timeout=clock.arrival_seconds
        + ARRIVAL_TIMEOUT
        + clock.settle_seconds
        + SECONDS
        + REQUEST_TIMEOUT
        + 10,
    )
    for _ in range(clock.players - clock.arrived):
        figures.error("never had a first view")
    return figures


@dataclass
class Clock:
    """Measures SECONDS of tables in play: from `settle_seconds` after the last player has
    arrived (its socket open, its first view in hand), so that the figures are not those
    of hundreds of people opening their tables in the same two seconds. Those are
    reported apart (`Figures.arrival_row`)."""

    players: int
    figures: Figures
    started: float = field(default_factory=time.perf_counter)
    arrived: int = 0
    measure_from: float = math.inf
    stop_at: float = math.inf
    # Measured: SECONDS as it is when the clock starts, unless given (bench.peers).
    seconds: float = field(default_factory=lambda: SECONDS)

    @property
    def arrival_seconds(self) -> float:
        """How long the players take to arrive: a thousand tables do not all open in the
        same two seconds (their 3,000 handshakes would be a test of something else)."""
        return max(ARRIVAL_SECONDS, self.players / ARRIVAL_RATE)

    @property
    def settle_seconds(self) -> float:
        """From the last arrival to the window: SETTLE_SECONDS, or SETTLE_SHARE of the
        arrival's time if longer (10 s after 1,000 tables' 60 s)."""
        return max(SETTLE_SECONDS, SETTLE_SHARE * self.arrival_seconds)

    def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.players:
            self._begin()

    def _begin(self) -> None:
        if self.measure_from == math.inf:
            now = time.perf_counter()
            self.figures.arrived_after = now - self.started
            self.measure_from = now + self.settle_seconds
            self.stop_at = self.measure_from + self.seconds

    def arriving(self) -> bool:
        return self.measure_from == math.inf

    def measuring(self) -> bool:
        now = time.perf_counter()
        return self.measure_from <= now <= self.stop_at

    def left(self) -> float:
        waited = time.perf_counter() - self.started
        if self.arriving() and waited > self.arrival_seconds + ARRIVAL_TIMEOUT:
            self._begin()  # someone never arrived: they count as errors, the rest play on
        return self.stop_at - time.perf_counter()


class Player:
    """One simulated player: a socket for its views and the news, the HTTP API for moves
    (and for a view the socket did not bring)."""

    def __init__(self, session, base, table: Table, seat: int, figures, clock, rnd):
        self.session, self.table, self.seat = session, table, seat
        self.figures, self.clock, self.rnd = figures, clock, rnd
        self.headers = {"Authorization": f"Token {table.tokens[seat]}"}
        self.origin = base  # the origin check of the socket wants the site's own
        self.url = f"/api/tables/{table.id}/"
        self.view: dict | None = None
        self.etag: str | None = None
        self.pushed = 0  # the latest version the socket announced
        self.news = asyncio.Event()
        self.leaving = False
        self.socket = None
        self.opened_at = math.inf  # when it began to open its socket
        self.moves_sent = 0
        # Keys name this player's moves in this run only: the next run (a larger table
        # count, the next round) plays the same tables, whose stored keys stay.
        self.run_key = secrets.token_hex(6)
        self.requests = 0  # moves sent over the socket, which number their answers
        self.answers: dict[int, asyncio.Future] = {}

    async def play(self) -> None:
        import aiohttp

        # Spread the connections over the first seconds, as people arrive.
        await asyncio.sleep(self.rnd.uniform(0, self.clock.arrival_seconds))
        self.opened_at = time.perf_counter()
        try:
            socket = await self.session.ws_connect(
                f"/ws/tables/{self.table.id}/?views=1",
                headers={**self.headers, "Origin": self.origin},
                heartbeat=None,
            )
        except (TimeoutError, aiohttp.ClientError):
            self.figures.error("socket refused")
            return
        self.socket = socket
        listening = asyncio.create_task(self.listen(socket))
        pinging = asyncio.create_task(self.ping(socket))
        try:
            await self.take_turns()
        finally:
            self.leaving = True
            listening.cancel()
            pinging.cancel()
            await socket.close()

    def arrived(self) -> None:
        """The player has its first view: how long since it began to open its socket."""
        self.figures.first_views.append(time.perf_counter() - self.opened_at)
        self.clock.arrive()

    async def ping(self, socket) -> None:
        """As the table page does: the server counts the player at the table meanwhile."""
        while True:
            await asyncio.sleep(PING_SECONDS)
            await socket.send_json({"type": "ping"})

    async def listen(self, socket) -> None:
        import aiohttp

        async for message in socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = message.json()
            if data.get("type") in ("moved", "refused"):
                answered = self.answers.get(data.get("request"))
                if answered is not None and not answered.done():
                    answered.set_result(data)
                continue
            if data.get("type") in ("version", "view"):
                if self.clock.measuring():
                    self.figures.pushes += 1
                self.pushed = max(self.pushed, data["version"])
                if data.get("view") and data["version"] > self.version_seen():
                    # Our own view, sent with the news (or as the socket opened): nothing
                    # to fetch.
                    if self.view is None:
                        self.arrived()
                    self.view, self.etag = data["view"], f'"{data["version"]}"'
                self.news.set()
        if not self.leaving:
            self.figures.error(f"socket closed ({socket.close_code}, {message.type.name})")

    def version_seen(self) -> int:
        return self.view["version"] if self.view else -1

    async def take_turns(self) -> None:
        while self.clock.left() > 0:
            try:
                # At most a second at a time: the end is not known until everyone arrived.
                await asyncio.wait_for(self.news.wait(), timeout=min(self.clock.left(), 1.0))
            except TimeoutError:
                continue
            self.news.clear()
            if self.view is None or self.pushed > self.view["version"]:
                await self.fetch()  # as the table page: a version it already shows is skipped
            move = self.choose()
            if move is None:
                continue
            seen = self.version_seen()
            await asyncio.sleep(self.rnd.uniform(0.5, 1.5) * THINK_SECONDS)
            if self.clock.left() <= 0:
                return
            # The table moved on while thinking (a pushed view replaced the one the move
            # was chosen from, or a version came): look again, news is set. As the
            # boardgame.io player does; a move sent with a later view's version could be
            # one that view no longer allows.
            if self.version_seen() != seen or self.pushed > seen:
                continue
            await self.post(move)

    def choose(self) -> dict | None:
        game = (self.view or {}).get("game")
        if not game or self.seat not in game.get("waiting_for", []):
            return None
        return choose(game.get("legal_actions", []), self.rnd)

    async def fetch(self) -> None:
        import aiohttp

        headers = dict(self.headers)
        if self.etag:
            headers["If-None-Match"] = self.etag
        started = time.perf_counter()
        try:
            async with self.session.get(self.url, headers=headers) as answer:
                body = await answer.json() if answer.status == 200 else None
                status, etag = answer.status, answer.headers.get("ETag")
        except (TimeoutError, aiohttp.ClientError):
            status, body, etag = 0, None, None
        measured = self.clock.measuring()
        if status == 200 and self.view is None:
            self.arrived()
        if status in (200, 304):
            if measured:
                self.figures.views.append(time.perf_counter() - started)
                self.figures.not_modified += status == 304
            if status == 200:
                self.view, self.etag = body, etag
        elif measured:
            self.figures.error(f"view {status}")

    async def post(self, move: dict) -> None:
        version = self.view["version"]
        self.moves_sent += 1
        body = {
            "action": move,
            "expected_version": version,
            # A key per move, not per version: a move refused at a version (someone else
            # moved first in a simultaneous phase) may be followed by another at the same
            # one, and a key sent again with another move is refused (422). Nor per
            # table: tables are played again by later runs.
            "idempotency_key": f"load-{self.run_key}-{self.seat}-{self.moves_sent}",
        }
        started = time.perf_counter()
        if MOVES_OVER == "socket":
            status, reply, etag = await self.move_over_socket(body)
        else:
            status, reply, etag = await self.move_over_http(body)
        measured = self.clock.measuring()
        if status == 200:
            if measured:
                self.figures.moves.append(time.perf_counter() - started)
            self.view, self.etag = reply, etag
        elif status == 409:
            if measured:
                self.figures.stale += 1
            # The table has moved on, even if its push has not arrived yet: fetch it.
            self.pushed = max(self.pushed, version + 1)
        elif measured:
            self.figures.error(f"move {status}")
        # Whatever came of it, look again: the table may wait for this player still.
        self.news.set()

    async def move_over_socket(self, body: dict) -> tuple[int | str, dict | None, str | None]:
        """The move as `{"type": "move"}` on the player's socket; its answer comes back on
        it (`listen` hands it over), as HTTP's status, view and ETag."""
        self.requests += 1
        request = self.requests
        answered = asyncio.get_running_loop().create_future()
        self.answers[request] = answered
        try:
            await self.socket.send_json({"type": "move", "request": request, **body})
            reply = await asyncio.wait_for(answered, REQUEST_TIMEOUT)
        except (TimeoutError, ConnectionError):
            return 0, None, None
        finally:
            self.answers.pop(request, None)
        if reply["type"] == "moved":
            return 200, reply["view"], f'"{reply["version"]}"'
        code = reply["error"]["code"]
        return (409 if code == "stale_version" else code), None, None

    async def move_over_http(self, body: dict) -> tuple[int, dict | None, str | None]:
        import aiohttp

        status, reply, etag = 0, None, None
        # A connection lost under the request is retried once with the same idempotency
        # key: if the first try was applied, the server answers it again, not twice.
        for _ in range(2):
            try:
                async with self.session.post(
                    f"{self.url}actions/", json=body, headers=self.headers
                ) as answer:
                    reply = await answer.json() if answer.status == 200 else None
                    status, etag = answer.status, answer.headers.get("ETag")
                break
            except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
                continue
            except (TimeoutError, aiohttp.ClientError):
                break
        return status, reply, etag


if __name__ == "__main__":
    run_database(sys.argv[1])
