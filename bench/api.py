"""Throughput and latency of the move endpoint against an empty authenticated endpoint.

`python -m bench api` serves the real site (production settings, `bench.settings`) with
gunicorn on a free loopback port, once on a temporary SQLite file and once on a fresh
PostgreSQL database (`holmes_bench`, created and dropped here; skipped when PostgreSQL
cannot be reached). On each, the same concurrent clients drive, for the same time:

- ``empty``: `POST /bench/empty/`, an authenticated DRF view answering ``{}`` (it exists
  only in `bench.site_urls`): what any API request costs before our code runs;
- ``action``: `POST /api/tables/<id>/actions/`, real moves (visits, Watson, reading,
  police, the Carriage Stop) with the table version and an idempotency key, each client
  playing all three seats of its own tables, so no move is stale.

It prints requests per second, p50 and p99 latency and the ratio action/empty.
Goal: the action endpoint reaches at least half the throughput of the empty endpoint.

The moves are worked out before the clock starts, by playing each table's stored state
with the engine in this process (the engine is deterministic), so the action clients send
only POSTs, exactly like the empty ones, and the figure is that of the write path.

Celery runs as in the embedded default (eager, no REDIS_URL): the notifications a move
calls for ("your turn", with its e-mail) are done inside the request. That is the most a
move costs; with a broker they move to a worker, which on one machine shares its cores.

Each database runs in a child process (`python -m bench.api sqlite|postgresql`), because
Django can be set up only once per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "fixtures" / "cases" / "the-clerkenwell-repeater"
POSTGRES_URL = os.environ.get(
    "HOLMES_BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/holmes_bench"
)
REDIS_URL = os.environ.get("HOLMES_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUE = "holmes-bench"  # CELERY_TASK_DEFAULT_QUEUE in bench.settings
CLIENTS = int(os.environ.get("HOLMES_BENCH_CLIENTS", "16"))
TABLES_PER_CLIENT = 2
WORKERS = int(os.environ.get("HOLMES_BENCH_WORKERS", "4"))
WARMUP_SECONDS = 1.5
SECONDS = float(os.environ.get("HOLMES_BENCH_SECONDS", "8"))
SLICES = 4  # each endpoint's time is cut in slices, the endpoints taking turns
REQUEST_TIMEOUT = 30.0
# Actions per table worked out in advance: more than a client can send in the time.
SCRIPT_LENGTH = 700

# Moves that keep the game going, and how often to pick each when it is legal. Never
# 221B (it ends a player's game), notes, characters or Holmes.
WEIGHTS = {
    "visit": 5,
    "done_reading": 5,
    "watson_read": 5,
    "carriage_stop": 2,
    "place_police": 1,
    "take_watson": 1,
    "mycroft_read": 1,
}

COLUMNS = (
    f"{'database':<11}{'endpoint':<9}{'clients':>8}{'requests':>10}{'req/s':>9}"
    f"{'p50 ms':>9}{'p99 ms':>9}{'refused':>9}{'stale':>7}{'errors':>8}"
)


# --- The parent: one child process per database -----------------------------------------


def main() -> None:
    print(
        f"API: gunicorn ({WORKERS} sync workers) on loopback, {CLIENTS} clients, "
        f"{SECONDS:.0f} s per endpoint in {SLICES} alternating slices after a warm-up; "
        "goal: action >= 0.5 x empty"
    )
    print(COLUMNS, flush=True)
    for database in ("sqlite", "postgresql"):
        child = subprocess.run(
            [sys.executable, "-m", "bench.api", database], cwd=ROOT, check=False, timeout=300
        )
        if child.returncode:
            print(f"{database:<11}failed (exit {child.returncode}): see the error above")


# --- A child: prepare the database, serve, drive, clean up --------------------------------


@dataclass
class Table:
    id: int
    tokens: list[str]  # by seat number
    script: list[tuple[int, dict, int]]  # (seat, action, expected version)
    done: int = 0


def run_database(database: str) -> None:
    with tempfile.TemporaryDirectory(prefix="holmes-bench-") as folder:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings"}
        env.pop("REDIS_URL", None)
        setup = "embedded default: eager Celery"
        if database == "sqlite":
            env.pop("DATABASE_URL", None)
            env["HOLMES_SQLITE_PATH"] = str(Path(folder) / "bench.sqlite3")
        else:
            problem = postgres_create(POSTGRES_URL)
            if problem:
                print(f"{database:<11}skipped: cannot reach PostgreSQL ({problem})", flush=True)
                return
            env["DATABASE_URL"] = POSTGRES_URL
            problem = redis_problem(REDIS_URL)
            if problem:
                setup = f"eager Celery: Redis unreachable ({problem})"
            else:
                env["REDIS_URL"] = REDIS_URL
                setup = "scaled: Redis broker, 1 Celery worker, channels-redis"
        os.environ.update(env)
        processes: list[subprocess.Popen] = []
        try:
            tables = prepare()
            port = free_port()
            log = Path(folder) / "server.log"
            processes.append(serve(port, log))
            if "REDIS_URL" in env:
                processes.append(start_worker(Path(folder) / "worker.log"))
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, processes[0], log)
            figures = asyncio.run(drive(base, tables))
            backlog = queue_length(REDIS_URL) if "REDIS_URL" in env else 0
            for name, result in figures.items():
                print(result.row(database, name), flush=True)
            ratio = figures["action"].rate / figures["empty"].rate
            verdict = "goal met" if ratio >= 0.5 else "below the goal of 0.5"
            print(f"{'':<11}ratio action/empty: {ratio:.2f} ({verdict}); {setup}", flush=True)
            if backlog:
                print(f"{'':<11}{backlog} tasks still queued for the worker at the end")
        finally:
            for process in reversed(processes):
                stop(process)
            if database == "postgresql":
                from django.db import connections

                connections.close_all()
                postgres_drop(POSTGRES_URL)
                if "REDIS_URL" in env:
                    clear_queue(REDIS_URL)


def redis_problem(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        return str(error)
    return None


def queue_length(url: str) -> int:
    import redis

    return redis.Redis.from_url(url).llen(QUEUE)


def clear_queue(url: str) -> None:
    """Throw away tasks the worker had no time for: their database is gone."""
    import redis

    redis.Redis.from_url(url).delete(QUEUE)


def start_worker(log: Path) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "holmes_site",
        "worker",
        "--pool=solo",
        f"--queues={QUEUE}",
        "--loglevel=WARNING",
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
    ]
    with log.open("wb") as out:
        return subprocess.Popen(
            command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def postgres_create(url: str) -> str | None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    try:
        with psycopg.connect(admin_url(url), autocommit=True, connect_timeout=5) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            db.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        return str(error).strip().splitlines()[0]
    return None


def postgres_drop(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url(url), autocommit=True, connect_timeout=5) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def admin_url(url: str) -> str:
    return url.rsplit("/", 1)[0] + "/postgres"


def prepare() -> list[Table]:
    """Migrate, publish the tutorial case, seat three players at each table, start the
    games and work out each table's moves."""
    import django

    django.setup()
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from cases.package.reader import read_package_path
    from cases.services import case_import_package
    from play import services
    from play.models import Table as TableRow

    call_command("migrate", verbosity=0)
    # The console e-mail backend prints each notification, Celery logs each task: keep
    # set-up quiet.
    logging.disable(logging.WARNING)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        version = case_import_package(files=read_package_path(TUTORIAL), publish=True).version
        tables = []
        for number in range(CLIENTS * TABLES_PER_CLIENT):
            users = [
                # No password: the clients use API tokens (and hashing one takes a while).
                User.objects.create(
                    username=f"t{number}p{seat}",
                    display_name=f"Player {seat + 1}",
                    email=f"t{number}p{seat}@example.com",
                    password="!",
                )
                for seat in range(3)
            ]
            table = services.table_create(host=users[0], case_version=version)
            for user in users[1:]:
                services.table_join(invite_code=table.invite_code, user=user)
            services.table_start(table_id=table.pk, user=users[0])
            row = TableRow.objects.get(pk=table.pk)
            tokens = [Token.objects.create(user=user).key for user in users]
            script = play_ahead(row.state, row.version, random.Random(number))
            tables.append(Table(id=table.pk, tokens=tokens, script=script))
    return tables


def play_ahead(state: dict, version: int, rnd: random.Random) -> list[tuple[int, dict, int]]:
    """The moves the clients will send, found by playing the state with the engine."""
    from play.engines import watson_holmes as engine
    from play.engines.watson_holmes.actions import waiting_on_players

    script = []
    while len(script) < SCRIPT_LENGTH and not engine.is_over(state):
        waiting = waiting_on_players(state)
        if not waiting:
            break
        seat = waiting[0]
        moves = [m for m in engine.legal_actions(state, seat) if m["type"] in WEIGHTS]
        if not moves:
            break
        action = rnd.choices(moves, weights=[WEIGHTS[m["type"]] for m in moves])[0]
        applied = engine.apply(state, seat, action)
        if not isinstance(applied, tuple):
            break
        script.append((seat, action, version))
        # Through JSON, as the server stores it, so both play exactly the same game.
        state = json.loads(json.dumps(applied[0]))
        version += 1
    return script


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int, log: Path) -> subprocess.Popen:
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "holmes_site.wsgi:application",
        f"--bind=127.0.0.1:{port}",
        f"--workers={WORKERS}",
        "--worker-class=sync",
        "--backlog=256",
        "--timeout=60",
    ]
    with log.open("wb") as out:
        # Its own process group, so that stopping it stops its workers too.
        return subprocess.Popen(
            command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def wait_until_up(base: str, server: subprocess.Popen, log: Path) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(f"{base}/bench/empty/", timeout=2)
        except urllib.error.HTTPError:
            return  # 401: up, and asking for a token
        except OSError:
            time.sleep(0.2)
        else:
            return
    raise RuntimeError(f"gunicorn did not answer within 30 s:\n{log.read_text()[-3000:]}")


def stop(server: subprocess.Popen | None) -> None:
    if server is None or server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


# --- The clients ---------------------------------------------------------------------------


@dataclass
class Figures:
    clients: int
    seconds: float
    latencies: list[float] = field(default_factory=list)  # of the successful requests
    refused: int = 0  # 400: the rules refused the move
    stale: int = 0  # 409: the table moved on
    errors: int = 0  # anything else (5xx, timeouts, lost connections)
    exhausted: int = 0  # clients that ran out of moves before the time was up

    def add(self, other: Figures) -> None:
        self.seconds += other.seconds
        self.latencies += other.latencies
        self.refused += other.refused
        self.stale += other.stale
        self.errors += other.errors
        self.exhausted = max(self.exhausted, other.exhausted)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def row(self, database: str, endpoint: str) -> str:
        ordered = sorted(self.latencies) or [float("nan")]
        p50 = ordered[len(ordered) // 2] * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        total = len(self.latencies) + self.refused + self.stale + self.errors
        note = f"  ({self.exhausted} clients ran out of moves)" if self.exhausted else ""
        return (
            f"{database:<11}{endpoint:<9}{self.clients:>8}{total:>10}{self.rate:>9.0f}"
            f"{p50:>9.1f}{p99:>9.1f}{self.refused:>9}{self.stale:>7}{self.errors:>8}{note}"
        )


async def drive(base: str, tables: list[Table]) -> dict[str, Figures]:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=CLIENTS)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as session:
        groups = [tables[n::CLIENTS] for n in range(CLIENTS)]
        empty = [empty_requests(group) for group in groups]
        actions = [action_requests(group) for group in groups]
        # Warm up both (workers import lazily, connections open), then measure each.
        await load(session, [empty_requests(group) for group in groups], WARMUP_SECONDS)
        await load(session, actions, WARMUP_SECONDS)
        # In alternating slices, so that a change in the machine's load (other work on the
        # same cores) weighs on both figures alike.
        figures = {"empty": Figures(CLIENTS, 0.0), "action": Figures(CLIENTS, 0.0)}
        for _ in range(SLICES):
            for name, requests in (("empty", empty), ("action", actions)):
                figures[name].add(await load(session, requests, SECONDS / SLICES))
        return figures


def empty_requests(group: list[Table]):
    """Endless POSTs to the empty endpoint, with a body like a move's."""
    body = {"action": {"type": "carriage_stop"}, "expected_version": 1, "idempotency_key": "k"}
    while True:
        for table in group:
            yield "/bench/empty/", table.tokens[0], body, None


def action_requests(group: list[Table]):
    """Each table's moves in order, taking the tables of the group in turn."""
    while True:
        playing = [table for table in group if table.done < len(table.script)]
        if not playing:
            return
        for table in playing:
            seat, action, version = table.script[table.done]
            body = {
                "action": action,
                "expected_version": version,
                "idempotency_key": f"bench-{table.id}-{version}",
            }
            yield f"/api/tables/{table.id}/actions/", table.tokens[seat], body, table


async def load(session, requests: list, seconds: float) -> Figures:
    figures = Figures(clients=len(requests), seconds=seconds)
    deadline = time.perf_counter() + seconds
    await asyncio.gather(*(client(session, each, deadline, figures) for each in requests))
    return figures


async def client(session, requests, deadline: float, figures: Figures) -> None:
    import aiohttp

    while time.perf_counter() < deadline:
        try:
            path, token, body, table = next(requests)
        except StopIteration:
            figures.exhausted += 1
            return
        headers = {"Authorization": f"Token {token}"}
        started = time.perf_counter()
        try:
            async with session.post(path, json=body, headers=headers) as response:
                await response.read()
                code = response.status
        except (TimeoutError, aiohttp.ClientError):
            code = 0
        elapsed = time.perf_counter() - started
        if code == 200:
            if table is not None:
                table.done += 1
            if time.perf_counter() <= deadline:
                figures.latencies.append(elapsed)
        elif code == 400:
            figures.refused += 1
        elif code == 409:
            figures.stale += 1
        else:
            figures.errors += 1
        if code != 200 and table is not None:
            table.done = len(table.script)  # out of step with the server: leave it


if __name__ == "__main__":
    run_database(sys.argv[1])
