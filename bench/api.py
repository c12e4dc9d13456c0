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

It prints requests per second, p50 and p99 latency and the ratio action/empty, and, for
each endpoint, the CPU a request costs in each process of the set-up (web server, worker,
database, Redis, and this load client, which share the machine's cores) with how many
cores were busy: where the time goes, and whether requests waited on locks rather than
on the CPU.
Goal: the action endpoint reaches at least half the throughput of the empty endpoint.

The moves are worked out before the clock starts, by playing each table's stored state
with the engine in this process (the engine is deterministic), so the action clients send
only POSTs, exactly like the empty ones, and the figure is that of the write path.

On SQLite, Celery runs as in the embedded default (eager, no REDIS_URL): the notifications
a move calls for are done inside the request. On PostgreSQL it runs scaled, with a Redis
broker and one worker, which on one machine shares the web server's cores. The clients
hold no websockets, like any program playing through the API: every player is away from
their table, so each is told once that it is their turn, not at every turn, and no socket
watches the table, so a move sends no push (play/presence.py, play/live.py); the move
still reads both, with its table's lock. The number of notifications stored during the
run is printed.

Each database runs in a child process (`python -m bench.api sqlite|postgresql`), because
Django can be set up only once per process.
"""

from __future__ import annotations

import asyncio
import os
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
    CpuMeter,
    Table,
    celery_worker,
    clear_queue,
    clear_run_keys,
    free_port,
    gunicorn,
    percentile,
    postgres_create,
    postgres_drop,
    prepare,
    queue_length,
    redis_problem,
    run_client,
    start,
    stop,
    wait_until_up,
    wait_until_worker_ready,
)

CLIENTS = int(os.environ.get("HOLMES_BENCH_CLIENTS", "16"))
TABLES_PER_CLIENT = 2
WORKERS = int(os.environ.get("HOLMES_BENCH_WORKERS", "4"))
WARMUP_SECONDS = 1.5
# 16 s per endpoint: on the 2-core machine the ratio of two 8 s runs swung by ±0.04 from
# run to run (other work on the same cores); twice the time narrows that by about √2.
SECONDS = float(os.environ.get("HOLMES_BENCH_SECONDS", "16"))
SLICES = 8  # each endpoint's time is cut in 2 s slices, the endpoints taking turns
REQUEST_TIMEOUT = 30.0
# Actions per table worked out in advance: more than a client can send in the time.
SCRIPT_LENGTH = 700

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
            tables = prepare(CLIENTS * TABLES_PER_CLIENT, script_length=SCRIPT_LENGTH)
            port = free_port()
            log = Path(folder) / "server.log"
            processes.append(start(gunicorn(port, WORKERS), log))
            if "REDIS_URL" in env:
                worker_log = Path(folder) / "worker.log"
                processes.append(celery_worker(worker_log))
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, processes[0], log)
            if "REDIS_URL" in env:
                wait_until_worker_ready(processes[1], worker_log)
            meter = CpuMeter(*processes)
            notified_before = notifications_stored()
            figures = run_client(drive(base, tables, meter))
            notified = notifications_stored() - notified_before
            backlog = queue_length(REDIS_URL) if "REDIS_URL" in env else 0
            for name, result in figures.items():
                print(result.row(database, name), flush=True)
            for name, result in figures.items():
                print(f"{'':<11}{result.cpu_row(name)}", flush=True)
            ratio = figures["action"].rate / figures["empty"].rate
            verdict = "goal met" if ratio >= 0.5 else "below the goal of 0.5"
            print(f"{'':<11}ratio action/empty: {ratio:.2f} ({verdict}); {setup}", flush=True)
            moves = len(figures["action"].latencies)
            print(
                f"{'':<11}{notified} notifications stored while the clients ran "
                f"({moves} moves measured)",
                flush=True,
            )
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
                    clear_run_keys(REDIS_URL)


def notifications_stored() -> int:
    from accounts.models import Notification

    return Notification.objects.count()


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
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by part (CpuMeter)

    def add(self, other: Figures) -> None:
        self.seconds += other.seconds
        self.latencies += other.latencies
        self.refused += other.refused
        self.stale += other.stale
        self.errors += other.errors
        self.exhausted = max(self.exhausted, other.exhausted)
        for part, seconds in other.cpu.items():
            self.cpu[part] = self.cpu.get(part, 0.0) + seconds

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def cpu_row(self, endpoint: str) -> str:
        """CPU milliseconds per request, by part of the set-up: where the time goes."""
        count = max(len(self.latencies), 1)
        parts = {part: seconds * 1000 / count for part, seconds in self.cpu.items()}
        shown = "  ".join(f"{part} {ms:.1f}" for part, ms in parts.items() if ms >= 0.05)
        busy = sum(self.cpu.values()) / self.seconds
        return (
            f"{endpoint} CPU per request: {sum(parts.values()):.1f} ms ({shown}); "
            f"{busy:.1f} of {os.cpu_count()} cores busy"
        )

    def row(self, database: str, endpoint: str) -> str:
        ordered = sorted(self.latencies)
        p50 = percentile(ordered, 0.5) * 1000
        p99 = percentile(ordered, 0.99) * 1000
        total = len(self.latencies) + self.refused + self.stale + self.errors
        note = f"  ({self.exhausted} clients ran out of moves)" if self.exhausted else ""
        return (
            f"{database:<11}{endpoint:<9}{self.clients:>8}{total:>10}{self.rate:>9.0f}"
            f"{p50:>9.1f}{p99:>9.1f}{self.refused:>9}{self.stale:>7}{self.errors:>8}{note}"
        )


async def drive(base: str, tables: list[Table], meter: CpuMeter) -> dict[str, Figures]:
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
                meter.mark()
                figures[name].add(await load(session, requests, SECONDS / SLICES, meter))
        # The worker runs the moves' tasks, and catches up on them while the empty endpoint
        # is measured: its time is the action's.
        worker = figures["empty"].cpu.pop("worker", 0.0)
        if "worker" in figures["action"].cpu:
            figures["action"].cpu["worker"] += worker
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


async def load(session, requests: list, seconds: float, meter: CpuMeter | None = None) -> Figures:
    figures = Figures(clients=len(requests), seconds=seconds)
    deadline = time.perf_counter() + seconds
    await asyncio.gather(*(client(session, each, deadline, figures) for each in requests))
    if meter is not None:
        figures.cpu = meter.used()
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
