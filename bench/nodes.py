"""Holmes as two nodes behind HAProxy, one of them killed midway: `python -m bench nodes`.

Each node is what one machine of a deployment runs, the Procfile's web line: its own
`holmes_site.serve`, whose loaded parent forks its uvicorn workers (HOLMES_NODES_WORKERS,
2 by default) and its own Celery worker, bound to its own loopback address (127.0.0.2
and 127.0.0.3). HAProxy, on 127.0.0.1, spreads the players' sockets and
requests over both (round robin) and checks each node's `/readyz` twice a second. Both
nodes share one PostgreSQL database (created for the run and dropped after it) and one
Redis, which carries each move's news to the sockets of the other node.

Three simulated players sit at each table, each with its own socket through HAProxy (so
a table's players are usually on both nodes), and send their moves over it with an
idempotency key. Midway, every process of the second node is killed (SIGKILL: no goodbye
to anyone). Its players' sockets drop; they open new ones through HAProxy, which sends
them to the node left, and send again, with the same key, a move that had no answer.

Printed: how the sockets were spread; how many players were cut off and the longest any
of them waited, from the kill, for a view on a new socket; moves acknowledged, moves
lost (acknowledged, but not in the table's history at the end: must be 0), moves applied
twice (the same key, or the same table version, twice in the history: must be 0); move
latency p99 before, during and after the kill; versions a player never cut off did not
see. Options: HOLMES_NODES_TABLES (20), HOLMES_NODES_SECONDS (40), HOLMES_NODES_THINK
(3 s on average before a move), HOLMES_NODES_WORKERS (2); or the flags of
`python -m bench.nodes --help`, which runs it in this process.

Needs PostgreSQL, Redis and HAProxy (installed with `apt-get install -y haproxy` when
missing and run as root; otherwise skipped with a sentence), so `make bench` leaves it
out. Everything is stopped at the end, also on failure or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench._harness import (
    POSTGRES_URL,
    REDIS_URL,
    ROOT,
    Table,
    choose,
    clear_run_keys,
    free_port,
    percentile,
    postgres_create,
    postgres_drop,
    prepare,
    redis_problem,
    run_bounded_child,
    run_client,
    stop,
)
from bench.peers.run import serve

ADDRESSES = ("127.0.0.2", "127.0.0.3")
FRONT = "127.0.0.1"
CHECK_MS = 500  # HAProxy asks each node's /readyz this often,
CHECK_FALL = 2  # and takes it out after this many failures in a row (about a second)
START_SECONDS = 60.0
ARRIVAL_SECONDS = 2.0  # the players open their sockets within this time
REQUEST_SECONDS = 15.0  # a move or a view with no answer by then is given up
DURING_AT_LEAST = 3.0  # "during the kill": until every player cut off has a view, or this
CATCH_UP_SECONDS = 3.0  # at the end, for the last move's news to reach every player
RESULT_MARK = "NODES-RESULT "  # the line `--json` prints, for the integration test


# --- Options ------------------------------------------------------------------------------


@dataclass
class Options:
    tables: int = 20
    seconds: float = 40.0
    think: float = 3.0
    workers: int = 2
    # With `moves`, each table plays that many moves and the node is killed when half of
    # all of them are acknowledged (the integration test); otherwise it plays `seconds`
    # and the node is killed halfway.
    moves: int = 0
    json: bool = False

    @classmethod
    def from_environment(cls) -> Options:
        environ = os.environ
        return cls(
            tables=int(environ.get("HOLMES_NODES_TABLES", 20)),
            seconds=float(environ.get("HOLMES_NODES_SECONDS", 40)),
            think=float(environ.get("HOLMES_NODES_THINK", 3)),
            workers=int(environ.get("HOLMES_NODES_WORKERS", 2)),
        )

    @classmethod
    def from_flags(cls, argv: list[str]) -> Options:
        default = cls.from_environment()
        parser = argparse.ArgumentParser(
            prog="python -m bench.nodes",
            description="Holmes as two nodes behind HAProxy, one killed midway.",
        )
        parser.add_argument("--tables", type=int, default=default.tables)
        parser.add_argument("--seconds", type=float, default=default.seconds)
        parser.add_argument("--think", type=float, default=default.think)
        parser.add_argument("--workers", type=int, default=default.workers)
        parser.add_argument("--moves", type=int, default=0, help="moves a table, then stop")
        parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
        flags = parser.parse_args(argv)
        if flags.tables < 1 or flags.seconds <= 0 or flags.workers < 1 or flags.moves < 0:
            parser.error("--tables and --workers must be 1 or more, --seconds more than 0")
        return cls(flags.tables, flags.seconds, flags.think, flags.workers, flags.moves, flags.json)

    def as_flags(self) -> list[str]:
        return [
            f"--tables={self.tables}",
            f"--seconds={self.seconds:g}",
            f"--think={self.think:g}",
            f"--workers={self.workers}",
            f"--moves={self.moves}",
            *(["--json"] if self.json else []),
        ]

    def time_bound(self) -> float:
        """Seconds after which the whole run is stopped: set-up, play, a last request."""
        return 180 + 0.5 * self.tables + ARRIVAL_SECONDS + self.seconds + REQUEST_SECONDS


# --- HAProxy ------------------------------------------------------------------------------


def haproxy_path() -> str | None:
    return shutil.which("haproxy") or next(
        (path for path in ("/usr/sbin/haproxy",) if os.access(path, os.X_OK)), None
    )


def haproxy_problem() -> str | None:
    """None when HAProxy can run; installs Debian's package first when it is missing and
    this process may (root, apt-get present)."""
    if haproxy_path():
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "HAProxy is not installed (as root: apt-get install -y haproxy)"
    print("nodes: installing HAProxy (apt-get install -y haproxy)", flush=True)
    installed = subprocess.run(
        ["apt-get", "install", "-y", "haproxy"], capture_output=True, text=True, check=False
    )
    if installed.returncode or not haproxy_path():
        return f"apt-get could not install HAProxy: {installed.stderr.strip()[-300:]}"
    return None


def haproxy_config(port: int, nodes: list[Node]) -> str:
    """Round robin over the nodes; a node leaves the pool when /readyz fails twice in a
    row (about a second, checked every CHECK_MS). A connection refused by a dead node
    before that goes at once to the other: `option redispatch 1` sends every retry to
    another node (a retry on the same one would wait a second first). Sockets are
    tunnels: `timeout tunnel` lets them idle as long as a player sits at a table."""
    servers = "\n".join(
        f"    server {node.name} {node.address}:{node.port} check" for node in nodes
    )
    return f"""global
    maxconn 8000

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-keep-alive 5s
    option redispatch 1
    retries 2
    retry-on conn-failure empty-response junk-response

frontend holmes
    bind {FRONT}:{port}
    option forwardfor
    # Prometheus asks each node itself; nobody asks it through the front door.
    http-request deny deny_status 404 if {{ path /metrics }}
    default_backend nodes

backend nodes
    balance roundrobin
    option httpchk GET /readyz HTTP/1.1
    http-check send hdr Host {FRONT}
    http-check expect status 200
    default-server inter {CHECK_MS}ms fastinter {CHECK_MS}ms fall {CHECK_FALL} rise 2
    # Which node answered: the bench counts how the sockets were spread.
    http-response set-header X-Holmes-Node %s
{servers}
"""


# --- The nodes ----------------------------------------------------------------------------


@dataclass
class Node:
    name: str
    address: str
    port: int
    folder: Path
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://{self.address}:{self.port}"


def node_environment(node: Node, database_url: str, queue: str) -> dict[str, str]:
    """What every node gets alike (the same settings, database, Redis and queue), and
    its own directory for its processes' Prometheus counts."""
    metrics = node.folder / "metrics"
    metrics.mkdir(parents=True, exist_ok=True)
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.node_settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "HOLMES_BENCH_QUEUE": queue,
        "HOLMES_TRUSTED_PROXIES": FRONT,  # HAProxy's X-Forwarded-For names the client
        "PROMETHEUS_MULTIPROC_DIR": str(metrics),
    }


def spawn(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    with log.open("wb") as out:
        # Its own process group: killing the node kills its workers too.
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def start_node(node: Node, workers: int, env: dict[str, str], queue: str) -> None:
    """As the Procfile's web line runs a node: holmes_site.serve's loaded parent forks the
    uvicorn workers and the Celery worker (bench.peers.run.serve's command), here on the
    node's own address and the run's queue; the worker logs at INFO, for its "ready"."""
    celery = (
        f"--pool=solo --queues={queue} --hostname={node.name}@%h --loglevel=INFO "
        "--without-heartbeat --without-mingle --without-gossip"
    )
    command = [
        word
        for word in serve(node.port, workers)
        if not word.startswith(("--host=", "--celery-worker="))
    ]
    command += [f"--host={node.address}", f"--celery-worker={celery}"]
    node.processes.append(spawn(command, node.folder / "web.log", env))


def wait_for(what: str, ready, processes: list[subprocess.Popen], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in processes):
            raise RuntimeError(f"{what} exited:\n{log.read_text(errors='replace')[-3000:]}")
        if ready():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not start:\n{log.read_text(errors='replace')[-3000:]}")


def answers(url: str) -> tuple[int, str]:
    """The status and the X-Holmes-Node header of a GET (0 when nothing answers)."""
    request = urllib.request.Request(url, headers={"Host": FRONT})
    try:
        with urllib.request.urlopen(request, timeout=2) as answer:
            return answer.status, answer.headers.get("X-Holmes-Node", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("X-Holmes-Node", "")
    except OSError:
        return 0, ""


def node_ready(node: Node) -> bool:
    log = (node.folder / "web.log").read_text(errors="replace")
    return answers(f"{node.base}/readyz")[0] == 200 and " ready." in log


def both_in_pool(front: str, nodes: list[Node]) -> bool:
    """HAProxy sends requests to every node: each has passed its checks."""
    seen = {answers(f"{front}/healthz")[1] for _ in range(len(nodes) * 2)}
    return seen >= {node.name for node in nodes}


def kill(node: Node) -> None:
    """As a machine that dies: SIGKILL to every process of the node, no goodbye. Reaped
    apart (`reap`), so that this may run on the client's loop the moment it is wanted."""
    for process in node.processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def reap(node: Node) -> None:
    for process in node.processes:
        process.wait()


# --- The run's figures --------------------------------------------------------------------


@dataclass
class Run:
    options: Options
    tables: list[Table]
    start_versions: dict[int, int]
    started: float = field(default_factory=time.perf_counter)
    stop_at: float = math.inf
    killed_at: float = math.inf
    recovered_at: float = math.inf
    moves: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency)
    acknowledged: dict[int, set[str]] = field(default_factory=dict)  # table: keys
    retried: Counter = field(default_factory=Counter)  # what came of a retried move
    cut: set = field(default_factory=set)  # players whose socket dropped after the kill
    waits: list[float] = field(default_factory=list)  # cut off: from the kill to a view
    # Cut off: from the kill to the socket's close, and to a new one open.
    phases: dict[str, list[float]] = field(
        default_factory=lambda: {"socket closed": [], "new socket open": []}
    )
    spread: Counter = field(default_factory=Counter)  # node: players' first sockets
    moved_to: Counter = field(default_factory=Counter)  # node: sockets opened again
    table_nodes: dict[int, set[str]] = field(default_factory=dict)
    done: set = field(default_factory=set)  # tables that played their moves
    stale: int = 0
    problems: Counter = field(default_factory=Counter)
    acked_total: int = 0
    half_played: asyncio.Event = field(default_factory=asyncio.Event)
    victim: Node | None = None  # the node to kill, once `armed`
    armed: bool = False
    killed: asyncio.Event = field(default_factory=asyncio.Event)
    players: list = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)  # the node left's, at the end
    latest: dict[int, int] = field(default_factory=dict)  # table: latest version a player saw

    def over(self) -> bool:
        if self.options.moves and len(self.done) == len(self.tables):
            return True
        return time.perf_counter() >= self.stop_at

    def acknowledge(self, table: int, key: str, sent: float, latency: float) -> None:
        self.acknowledged.setdefault(table, set()).add(key)
        self.moves.append((sent, latency))
        self.acked_total += 1
        wanted = self.options.moves * len(self.tables) // 2
        if self.options.moves and self.acked_total >= wanted:
            self.half_played.set()

    def kill_now(self) -> None:
        if not self.killed.is_set():
            self.killed_at = time.perf_counter()
            kill(self.victim)
            self.killed.set()

    def reached(self, table: int, version: int) -> None:
        if self.options.moves and version >= self.start_versions[table] + self.options.moves:
            self.done.add(table)

    def view_again(self, player: Player) -> None:
        """A player cut off by the kill has a view on a new socket."""
        if player in self.cut and player.waited is None:
            player.waited = time.perf_counter() - self.killed_at
            self.waits.append(player.waited)
            self.phases["socket closed"].append(player.dropped_at - self.killed_at)
            self.phases["new socket open"].append(player.opened_at - self.killed_at)
            if all(other.waited is not None for other in self.cut):
                self.recovered_at = time.perf_counter()


# --- A player -----------------------------------------------------------------------------


class Player:
    """One seat: a socket through HAProxy for its views and its moves; on losing it, a new
    one, and the move that had no answer sent again with the same key."""

    def __init__(self, session, base: str, run: Run, table: Table, seat: int):
        self.session, self.base, self.run = session, base, run
        self.table, self.seat = table, seat
        self.rnd = random.Random(table.id * 10 + seat)
        self.headers = {"Authorization": f"Token {table.tokens[seat]}"}
        self.key_prefix = f"nodes-{secrets.token_hex(5)}-{seat}"
        self.sent = 0
        self.view: dict | None = None
        self.pushed = 0
        self.seen: set[int] = set()  # versions the sockets announced
        self.news = asyncio.Event()
        self.dropped = asyncio.Event()
        self.socket = None
        self.leaving = False
        self.answers: dict[int, asyncio.Future] = {}
        self.requests = 0
        self.pending: dict | None = None  # a move sent with no answer yet
        self.pending_since = 0.0
        self.tries = 0
        self.waited: float | None = None
        self.dropped_at = self.opened_at = math.nan
        self.node = ""

    def version(self) -> int:
        return self.view["version"] if self.view else -1

    async def play(self) -> None:
        await asyncio.sleep(self.rnd.uniform(0, ARRIVAL_SECONDS))
        while not self.run.over():
            if not await self.connect():
                await asyncio.sleep(0.2)
                continue
            listening = asyncio.create_task(self.listen(self.socket))
            try:
                await self.take_turns()
            finally:
                self.leaving = self.run.over()
                listening.cancel()
                await self.socket.close()
        if self.pending is not None:
            self.run.problems["a move still unanswered at the end"] += 1

    async def connect(self) -> bool:
        import aiohttp

        try:
            self.socket = await self.session.ws_connect(
                f"/ws/tables/{self.table.id}/?views=1",
                headers={**self.headers, "Origin": self.base},
                heartbeat=None,
            )
        except (TimeoutError, aiohttp.ClientError) as error:
            why = getattr(error, "status", None) or type(error).__name__
            self.run.problems[f"socket refused ({why}; tried again)"] += 1
            return False
        # aiohttp keeps the handshake's answer there; HAProxy named the node in it.
        first = not self.node
        self.node = self.socket._response.headers.get("X-Holmes-Node", "?")
        (self.run.spread if first else self.run.moved_to)[self.node] += 1
        self.run.table_nodes.setdefault(self.table.id, set()).add(self.node)
        self.dropped.clear()
        self.opened_at = time.perf_counter()
        return True

    async def listen(self, socket) -> None:
        import aiohttp

        async for message in socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            self.hear(message.json())
        self.dropped.set()
        self.dropped_at = time.perf_counter()
        for answered in self.answers.values():
            if not answered.done():
                answered.set_exception(ConnectionError("the socket closed"))
        if not self.run.over() and self.run.killed_at <= time.perf_counter():
            self.run.cut.add(self)
        self.news.set()

    def hear(self, data: dict) -> None:
        if data.get("type") in ("moved", "refused"):
            answered = self.answers.get(data.get("request"))
            if answered is not None and not answered.done():
                answered.set_result(data)
            return
        if data.get("type") not in ("version", "view"):
            return
        version = data["version"]
        self.seen.add(version)
        self.pushed = max(self.pushed, version)
        if data.get("view"):
            self.run.view_again(self)  # a socket opens with one: back after a cut
            if version > self.version():
                self.take_view(data["view"])
        self.news.set()

    def take_view(self, view: dict) -> None:
        self.view = view
        self.seen.add(view["version"])
        self.run.reached(self.table.id, view["version"])
        latest = self.run.latest
        latest[self.table.id] = max(latest.get(self.table.id, 0), view["version"])

    async def take_turns(self) -> None:
        if self.pending is not None:
            await self.send()  # the move the lost socket had no answer for, same key
        await self.turns()
        if self.run.over() and not self.dropped.is_set():
            await self.catch_up()

    async def catch_up(self) -> None:
        """At the end, a moment for the news of the table's last move (seen by another
        player, maybe on the other node) to reach this one, before it leaves."""
        deadline = time.perf_counter() + CATCH_UP_SECONDS
        while self.version() < self.run.latest.get(self.table.id, 0):
            left = deadline - time.perf_counter()
            if left <= 0 or self.dropped.is_set():
                return
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), timeout=left)
            if self.pushed > self.version():
                await self.fetch()

    async def turns(self) -> None:
        while not self.run.over() and not self.dropped.is_set():
            try:
                await asyncio.wait_for(self.news.wait(), timeout=1.0)
            except TimeoutError:
                continue
            self.news.clear()
            if self.dropped.is_set():
                return
            if self.view is None or self.pushed > self.version():
                await self.fetch()
            move = self.choose()
            if move is None:
                continue
            seen = self.version()
            # Thinking, but a lost socket is opened again at once, as the table page
            # does, not once the move is chosen.
            with contextlib.suppress(TimeoutError):
                think = self.rnd.uniform(0.5, 1.5) * self.run.options.think
                await asyncio.wait_for(self.dropped.wait(), timeout=think)
            if self.dropped.is_set() or self.run.over():
                return
            if self.version() != seen or self.pushed > seen:
                continue  # the table moved on while thinking: look again
            self.sent += 1
            self.pending = {
                "action": move,
                "expected_version": seen,
                "idempotency_key": f"{self.key_prefix}-{self.sent}",
            }
            self.pending_since, self.tries = time.perf_counter(), 0
            await self.send()

    def choose(self) -> dict | None:
        if self.run.options.moves and self.table.id in self.run.done:
            return None
        game = (self.view or {}).get("game")
        if not game or self.seat not in game.get("waiting_for", []):
            return None
        return choose(game.get("legal_actions", []), self.rnd)

    async def send(self) -> None:
        """The pending move over the socket. No answer because the socket went: it stays
        pending, and goes again on the next socket."""
        self.requests += 1
        self.tries += 1
        request = self.requests
        answered = asyncio.get_running_loop().create_future()
        self.answers[request] = answered
        try:
            await self.socket.send_json({"type": "move", "request": request, **self.pending})
            if self.run.armed and self.run.victim and self.node == self.run.victim.name:
                self.run.kill_now()
            reply = await asyncio.wait_for(answered, REQUEST_SECONDS)
        except (ConnectionError, TimeoutError, RuntimeError) as error:
            if not self.dropped.is_set():
                self.run.problems[f"move unanswered ({type(error).__name__})"] += 1
                self.pending = None
            return
        finally:
            self.answers.pop(request, None)
        self.answered(reply)

    def answered(self, reply: dict) -> None:
        body, retried = self.pending, self.tries > 1
        self.pending = None
        if reply["type"] == "moved":
            latency = time.perf_counter() - self.pending_since
            self.run.acknowledge(
                self.table.id, body["idempotency_key"], self.pending_since, latency
            )
            if retried:
                self.run.retried["replayed" if reply.get("replayed") else "applied"] += 1
            if reply["version"] > self.version():
                self.take_view(reply["view"])
        elif reply["error"]["code"] == "stale_version":
            # Someone moved first; after a retry, also: the first try never got applied.
            if retried:
                self.run.retried["stale: never applied"] += 1
            else:
                self.run.stale += 1
            self.pushed = max(self.pushed, body["expected_version"] + 1)
        else:
            self.run.problems[f"move refused ({reply['error']['code']})"] += 1
        self.news.set()

    async def fetch(self) -> None:
        """A version the socket announced without this player's view: asked over HTTP."""
        import aiohttp

        try:
            async with self.session.get(f"/api/tables/{self.table.id}/", headers=self.headers) as r:
                if r.status == 200:
                    view = await r.json()
                    if view["version"] > self.version():
                        self.take_view(view)
                    return
                status = r.status
        except (TimeoutError, aiohttp.ClientError) as error:
            status = type(error).__name__
        self.run.problems[f"view {status} (tried again)"] += 1
        self.news.set()


# --- Play, kill, count --------------------------------------------------------------------


async def play(base: str, run: Run, nodes: list[Node]) -> None:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=3)
    timeout = aiohttp.ClientTimeout(total=REQUEST_SECONDS)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as session:
        players = [
            Player(session, base, run, table, seat) for table in run.tables for seat in (0, 1, 2)
        ]
        run.players = players
        run.started = time.perf_counter()
        run.stop_at = run.started + ARRIVAL_SECONDS + run.options.seconds
        killer = asyncio.create_task(kill_midway(run, nodes[-1]))
        scraper = asyncio.create_task(scrape_before_the_end(run, nodes[0]))
        try:
            await asyncio.wait_for(
                asyncio.gather(*(player.play() for player in players)),
                timeout=ARRIVAL_SECONDS + run.options.seconds + REQUEST_SECONDS * 2,
            )
        finally:
            killer.cancel()
            scraper.cancel()
        if not run.metrics:  # the moves were all played before the time was up
            run.metrics = await asyncio.to_thread(scrape, nodes[0])


# What the run prints of the node left's /metrics (holmes_site/metrics.py).
READINGS = (
    "holmes_moves_applied_total",
    "holmes_moves_refused_total",
    "holmes_move_seconds_count",
    "holmes_open_sockets",
    "holmes_tasks_queued",
    "holmes_judgements_pending",
)


async def scrape_before_the_end(run: Run, node: Node) -> None:
    """The node left's /metrics a second before the players leave, sockets still open."""
    await asyncio.sleep(max(0.0, run.stop_at - 1.0 - time.perf_counter()))
    run.metrics = await asyncio.to_thread(scrape, node)


def scrape(node: Node) -> dict[str, float]:
    """As Prometheus would, from the node itself (HAProxy keeps /metrics from the world):
    each of READINGS summed over its labels."""
    try:
        asked = urllib.request.Request(f"{node.base}/metrics", headers={"Host": FRONT})
        with urllib.request.urlopen(asked, timeout=5) as answer:
            text = answer.read().decode()
    except OSError as error:
        return {"(unread)": float("nan"), str(error): float("nan")}
    sums: dict[str, float] = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        name = name.split("{", 1)[0]
        if name in READINGS:
            sums[name] = sums.get(name, 0.0) + float(value)
    return sums


async def kill_midway(run: Run, node: Node) -> None:
    """Halfway through the time; or, playing a number of moves, once half of them are
    acknowledged, the moment a player on the node sends one (so that a move is on its way
    when the node dies: it must be sent again, and applied once), or a few seconds later
    if none does."""
    run.victim = node
    if run.options.moves:
        await run.half_played.wait()
        run.armed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.killed.wait(), timeout=DURING_AT_LEAST)
    else:
        await asyncio.sleep(ARRIVAL_SECONDS + run.options.seconds / 2)
    run.kill_now()
    await asyncio.to_thread(reap, node)


def stored_moves(table_ids: list[int]) -> list[tuple[int, str, int]]:
    """(table, key as the client sent it, version made) of every applied move with a key."""
    from play.models import TableEvent

    rows = TableEvent.objects.filter(table_id__in=table_ids, request_key__isnull=False)
    return [
        (table, key.split(":", 1)[1], version)
        for table, key, version in rows.values_list("table_id", "request_key", "table_version")
    ]


def table_versions(table_ids: list[int]) -> dict[int, int]:
    from play.models import Table as TableRow

    return dict(TableRow.objects.filter(pk__in=table_ids).values_list("pk", "version"))


@dataclass
class Figures:
    """What the run showed, as printed and as `--json` gives it."""

    tables: int
    players: int
    spread: dict[str, int]
    moved_to: dict[str, int]
    tables_on_both: int
    killed: str
    cut_off: int
    reconnected: int
    longest_wait_ms: float
    wait_ms: dict[str, tuple[float, float]]  # p50 and max, from the kill to each step
    acknowledged: int
    applied: int
    lost: int
    applied_twice: int
    retried: dict[str, int]
    stale: int
    missed_versions: int
    behind: int
    tables_done: int
    p99_ms: dict[str, float]
    counts: dict[str, int]
    problems: dict[str, int]
    metrics: dict[str, float]


def count(run: Run, killed: Node) -> Figures:
    ids = [table.id for table in run.tables]
    stored = stored_moves(ids)
    keys = Counter((table, key) for table, key, _ in stored)
    versions = Counter((table, version) for table, _, version in stored)
    lost = sum(
        (table, key) not in keys for table, acked in run.acknowledged.items() for key in acked
    )
    twice = sum(n - 1 for n in keys.values()) + sum(n - 1 for n in versions.values())
    final = table_versions(ids)
    windows = latency_windows(run)
    return Figures(
        tables=len(ids),
        players=len(ids) * 3,
        spread=dict(run.spread),
        moved_to=dict(run.moved_to),
        tables_on_both=sum(len(nodes - {"?"}) > 1 for nodes in run.table_nodes.values()),
        killed=killed.name,
        cut_off=len(run.cut),
        reconnected=len(run.waits),
        longest_wait_ms=max(run.waits, default=math.nan) * 1000,
        wait_ms={
            step: (percentile(sorted(values), 0.5) * 1000, max(values, default=math.nan) * 1000)
            for step, values in {**run.phases, "view": run.waits}.items()
        },
        acknowledged=run.acked_total,
        applied=len(stored),
        lost=lost,
        applied_twice=twice,
        retried=dict(run.retried),
        stale=run.stale,
        missed_versions=missed_versions(run, final),
        behind=sum(player.version() < final[player.table.id] for player in run.players),
        tables_done=sum(
            final[table] >= run.start_versions[table] + run.options.moves for table in ids
        )
        if run.options.moves
        else 0,
        p99_ms={name: percentile(sorted(values), 0.99) * 1000 for name, values in windows.items()},
        counts={name: len(values) for name, values in windows.items()},
        problems=dict(run.problems),
        metrics=dict(run.metrics),
    )


def latency_windows(run: Run) -> dict[str, list[float]]:
    """Moves by when they were sent: before the kill; during it (until every player cut
    off had a view again, DURING_AT_LEAST at least); after."""
    end_of_during = max(run.recovered_at, run.killed_at + DURING_AT_LEAST)
    if run.recovered_at == math.inf and run.cut:
        end_of_during = math.inf  # someone never got back: all of it was "during"
    windows: dict[str, list[float]] = {"before": [], "during": [], "after": []}
    for sent, latency in run.moves:
        name = "before" if sent < run.killed_at else "during" if sent < end_of_during else "after"
        windows[name].append(latency)
    return windows


def missed_versions(run: Run, final: dict[int, int]) -> int:
    """Version numbers a player never cut off was not told of, between the first and the
    last it saw: each move's news reaches the players on the other node too, through
    Redis. One can go missing with a node killed between a move's commit and its news;
    the next view shows that move all the same (`behind` counts views left behind)."""
    missed = 0
    for player in run.players:
        if player in run.cut or not player.seen:
            continue
        first, last = min(player.seen), max(player.seen)
        missed += sum(version not in player.seen for version in range(first, last + 1))
    return missed


def report(figures: Figures, options: Options, front: str) -> None:
    spread = ", ".join(f"{name} {n}" for name, n in sorted(figures.spread.items()))
    moved = ", ".join(f"{name} {n}" for name, n in sorted(figures.moved_to.items())) or "none"
    print(
        f"players' sockets: {spread}; opened again: {moved}; tables with players on both nodes: "
        f"{figures.tables_on_both} of {figures.tables}",
        flush=True,
    )
    print(
        f"killed {figures.killed} (SIGKILL to its parent, web workers and Celery worker): "
        f"{figures.cut_off} players cut off, {figures.reconnected} had a view again through "
        f"HAProxy; the longest wait for a view after the kill {figures.longest_wait_ms:.0f} ms",
        flush=True,
    )
    steps = "; ".join(
        f"{step} p50 {p50:.0f}, max {most:.0f}" for step, (p50, most) in figures.wait_ms.items()
    )
    print(f"  from the kill, in ms, for the players cut off: {steps}", flush=True)
    retried = ", ".join(f"{what} {n}" for what, n in sorted(figures.retried.items())) or "none"
    print(
        f"moves acknowledged {figures.acknowledged}, with a key in the history "
        f"{figures.applied}; lost {figures.lost}; applied twice {figures.applied_twice}; "
        f"sent again after a reconnect: {retried}; stale {figures.stale}",
        flush=True,
    )
    windows = ", ".join(
        f"{name} {figures.p99_ms[name]:.0f} ms ({figures.counts[name]} moves)"
        if figures.counts[name]
        else f"{name}: no moves"
        for name in ("before", "during", "after")
    )
    print(
        f"move latency p99: {windows} (during: from the kill until every player cut off "
        f"had a view again, {DURING_AT_LEAST:g} s at least)",
        flush=True,
    )
    problems = ", ".join(f"{what}: {n}" for what, n in sorted(figures.problems.items()))
    done = (
        f"; tables that played their {options.moves} moves: {figures.tables_done} of "
        f"{figures.tables}"
        if options.moves
        else ""
    )
    print(
        f"players whose last view was behind their table's last version: {figures.behind}; "
        f"version numbers never announced to players never cut off: "
        f"{figures.missed_versions}{done}" + (f"; {problems}" if problems else ""),
        flush=True,
    )
    readings = ", ".join(f"{name} {value:g}" for name, value in figures.metrics.items())
    print(f"/metrics of the node left, before the players left: {readings}", flush=True)
    if options.json:
        print(RESULT_MARK + json.dumps(figures.__dict__), flush=True)


# --- The whole run ------------------------------------------------------------------------


def run(options: Options) -> int:
    # A SIGTERM from the parent (its time bound) unwinds through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    for name, problem in (
        ("HAProxy", haproxy_problem()),
        ("Redis", redis_problem(REDIS_URL)),
    ):
        if problem:
            print(f"nodes skipped: {name} cannot run here ({problem})", flush=True)
            return 0
    database_url = POSTGRES_URL.rsplit("/", 1)[0] + f"/holmes_bench_nodes_{os.getpid()}"
    problem = postgres_create(database_url)
    if problem:
        print(f"nodes skipped: cannot reach PostgreSQL ({problem})", flush=True)
        return 0
    nodes: list[Node] = []
    haproxy: subprocess.Popen | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="holmes-nodes-") as folder:
            os.environ.update(
                DJANGO_SETTINGS_MODULE="bench.node_settings",
                DATABASE_URL=database_url,
                REDIS_URL=REDIS_URL,
                HOLMES_BENCH_QUEUE=f"holmes-bench-nodes-{os.getpid()}",
            )
            os.environ.pop("HOLMES_SQLITE_PATH", None)
            tables = prepare(options.tables)
            start_versions = table_versions([table.id for table in tables])
            port = free_port()
            for number, address in enumerate(ADDRESSES, start=1):
                node = Node(f"node{number}", address, port, Path(folder) / f"node{number}")
                nodes.append(node)
                env = node_environment(node, database_url, os.environ["HOLMES_BENCH_QUEUE"])
                start_node(node, options.workers, env, env["HOLMES_BENCH_QUEUE"])
            for node in nodes:
                log = node.folder / "web.log"
                wait_for(node.name, lambda node=node: node_ready(node), node.processes, log)
            front_port = free_port()
            config = Path(folder) / "haproxy.cfg"
            config.write_text(haproxy_config(front_port, nodes))
            log = Path(folder) / "haproxy.log"
            haproxy = spawn([haproxy_path(), "-db", "-f", str(config)], log, dict(os.environ))
            front = f"http://{FRONT}:{front_port}"
            wait_for("HAProxy", lambda: both_in_pool(front, nodes), [haproxy], log)
            print(heading(options, front), flush=True)
            state = Run(options, tables, start_versions)
            run_client(play(front, state, nodes))
            report(count(state, nodes[-1]), options, front)
    finally:
        stop(haproxy)
        for node in nodes:
            for process in node.processes:
                stop(process)
        clean_up(database_url)
    return 0


def heading(options: Options, front: str) -> str:
    what = f"{options.moves} moves a table" if options.moves else f"{options.seconds:g} s"
    return (
        f"Nodes: {', '.join(ADDRESSES)} (each holmes_site.serve: {options.workers} uvicorn "
        f"workers and a Celery worker) behind HAProxy at {front} (round robin; GET /readyz every "
        f"{CHECK_MS} ms, out after {CHECK_FALL} failures); one PostgreSQL database and one "
        f"Redis shared. {options.tables} tables x 3 players, think {options.think:g} s on "
        f"average, {what}; the second node killed midway."
    )


def clean_up(database_url: str) -> None:
    from django.apps import apps

    if apps.ready:
        from django.db import connections

        connections.close_all()
    if "HOLMES_BENCH_RUN" in os.environ:
        import redis

        clear_run_keys(REDIS_URL)
        redis.Redis.from_url(REDIS_URL).delete(os.environ.get("HOLMES_BENCH_QUEUE", ""))
    postgres_drop(database_url)


def main() -> None:
    """Run it in a child process (Django is set up there, once) and bound it in time."""
    options = Options.from_environment()
    run_bounded_child("nodes", "bench.nodes", options.as_flags(), options.time_bound())


if __name__ == "__main__":
    sys.exit(run(Options.from_flags(sys.argv[1:])))
