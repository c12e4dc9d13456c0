"""What the server benchmarks (`bench.api`, `bench.load`) share: databases to create and
drop, servers and Celery workers to start and stop, tables to seat and start, moves to
choose, and latency figures. Not a benchmark itself (the leading underscore keeps it out
of `python -m bench`).

Every server listens on a free port of 127.0.0.1 only; every process started here runs in
its own process group, so that stopping it stops its workers too.
"""

from __future__ import annotations

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
import time
from dataclasses import dataclass
from pathlib import Path

from holmes_site.postgres import postgres_create, postgres_drop  # noqa: F401 (re-exported)

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "fixtures" / "cases" / "the-clerkenwell-repeater"
POSTGRES_URL = os.environ.get(
    "HOLMES_BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/holmes_bench"
)
REDIS_URL = os.environ.get("HOLMES_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUE = "holmes-bench"  # CELERY_TASK_DEFAULT_QUEUE in bench.settings

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


@dataclass
class Table:
    id: int
    tokens: list[str]  # API tokens, by seat number
    script: list[tuple[int, dict, int]]  # (seat, action, expected version), if planned
    done: int = 0


# --- Databases and Redis ------------------------------------------------------------------
# PostgreSQL chores live in holmes_site.postgres (make up and make test use them too).


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
    """Throw away the bench's queued tasks: at the end, those the worker had no time for
    (their database is gone); at the start (celery_worker), any left behind by a stopped
    run or by setting up the tables, which the new worker would otherwise run while the
    clients are measured."""
    import redis

    redis.Redis.from_url(url).delete(QUEUE)


def clear_run_keys(url: str) -> None:
    """Forget this run's channel groups, messages and cache marks (bench.settings gives
    them the run's own prefix)."""
    import redis

    client = redis.Redis.from_url(url)
    for key in client.scan_iter(f"{os.environ['HOLMES_BENCH_RUN']}*", count=1000):
        client.delete(key)


# --- Processes ----------------------------------------------------------------------------


def run_client(coroutine):
    """Run a load client's coroutine on uvloop, the loop uvicorn serves on. The client
    shares the machine's two cores with the servers it measures: a cheaper loop leaves
    them more, and stalls its own clock less (a latency measured across a stall of the
    client counts that stall, on whichever side it drives)."""
    import asyncio

    import uvloop  # with uvicorn[standard]

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(command: list[str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        # Its own process group, so that stopping it stops its workers too.
        return subprocess.Popen(
            command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def gunicorn(port: int, workers: int) -> list[str]:
    """The WSGI site with sync workers (bench.api)."""
    return [
        str(Path(sys.executable).with_name("gunicorn")),
        "holmes_site.wsgi:application",
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        "--worker-class=sync",
        "--backlog=256",
        "--timeout=60",
    ]


def uvicorn(port: int, workers: int) -> list[str]:
    """The ASGI site, HTTP and websockets, as the Procfile serves it (bench.load), with its
    websocket options taken from there."""
    return [
        str(Path(sys.executable).with_name("uvicorn")),
        "holmes_site.asgi:application",
        "--host=127.0.0.1",
        f"--port={port}",
        f"--workers={workers}",
        "--no-access-log",
        "--lifespan=off",
        "--log-level=warning",
        "--backlog=2048",
        *procfile_websocket_options(),
    ]


def procfile_websocket_options() -> list[str]:
    """The `--ws-...` options of the Procfile's web line, with their values."""
    web = next(
        line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:")
    )
    words = web.split()
    return [
        f"{word}={words[index + 1]}" for index, word in enumerate(words) if word.startswith("--ws-")
    ]


def celery_worker(log: Path) -> subprocess.Popen:
    """A worker for the bench's queue, which starts empty (see wait_until_worker_ready)."""
    clear_queue(REDIS_URL)
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
    return start(command, log)


def wait_until_up(base: str, server: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    """Until the server answers `bench/empty/` (401 without a token counts)."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(f"{base}/bench/empty/", timeout=2)
        except urllib.error.HTTPError:
            return  # 401: up, and asking for a token
        except OSError:
            time.sleep(0.2)
        else:
            return
    raise RuntimeError(
        f"the server did not answer within {seconds:.0f} s:\n{log.read_text()[-3000:]}"
    )


def wait_until_worker_ready(worker: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    """Until the Celery worker answers a ping. Its start-up (a whole Django set-up, about
    3 s of CPU here) would otherwise share the cores with the first figures taken."""
    from holmes_site.celery import app

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(f"the Celery worker exited:\n{log.read_text()[-3000:]}")
        if app.control.ping(timeout=0.5):
            return
    raise RuntimeError(
        f"the Celery worker did not answer within {seconds:.0f} s:\n{log.read_text()[-3000:]}"
    )


def stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def run_bounded_child(name: str, module: str, flags: list[str], bound_seconds: float) -> None:
    """Run `python -m <module> <flags>` in a session of its own (Django is set up there,
    once) and stop it after `bound_seconds` or on Ctrl-C; say so when it fails."""
    child = subprocess.Popen(
        [sys.executable, "-m", module, *flags], cwd=ROOT, start_new_session=True
    )
    try:
        code = child.wait(timeout=bound_seconds)
    except subprocess.TimeoutExpired:
        print(f"{name}: stopped after {bound_seconds:.0f} s (the run's bound)", flush=True)
        code = stop_child(child)
    except KeyboardInterrupt:
        code = stop_child(child)
    if code:
        print(f"{name}: failed (exit {code}): see above", flush=True)


def stop_child(child: subprocess.Popen) -> int:
    """SIGTERM first: the child then stops its processes and drops its databases."""
    os.killpg(child.pid, signal.SIGTERM)
    try:
        return child.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        return child.wait()


# --- Tables -------------------------------------------------------------------------------


def prepare(count: int, *, script_length: int = 0) -> list[Table]:
    """Migrate, publish the tutorial case, seat three players at each of `count` tables,
    start the games, and (with `script_length`) work out each table's moves ahead.

    Runs in the process that will not serve: Django is set up here, from the environment
    the caller prepared (DJANGO_SETTINGS_MODULE, DATABASE_URL or HOLMES_SQLITE_PATH).
    """
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import ApiToken, User
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
        # No password: the clients use API tokens (and hashing one takes a while).
        users = User.objects.bulk_create(
            User(
                username=f"t{number}p{seat}",
                display_name=f"Player {seat + 1}",
                email=f"t{number}p{seat}@example.com",
                password="!",
            )
            for number in range(count)
            for seat in range(3)
        )
        tokens = [ApiToken.issue(user=user) for user in users]
        ApiToken.objects.bulk_create(token for token, _ in tokens)
        tables = []
        for number in range(count):
            players = users[number * 3 : number * 3 + 3]
            table = services.table_create(host=players[0], case_version=version)
            for user in players[1:]:
                services.table_join(invite_code=table.invite_code, user=user)
            services.table_start(table_id=table.pk, user=players[0])
            script = []
            if script_length:
                row = TableRow.objects.get(pk=table.pk)
                script = play_ahead(row.state, row.version, random.Random(number), script_length)
            keys = [key for _, key in tokens[number * 3 : number * 3 + 3]]
            tables.append(Table(id=table.pk, tokens=keys, script=script))
    logging.disable(logging.NOTSET)
    return tables


def choose(moves: list[dict], rnd: random.Random) -> dict | None:
    """One of `moves` (legal actions) that keeps the game going, by WEIGHTS; None if none."""
    moves = [move for move in moves if move["type"] in WEIGHTS]
    if not moves:
        return None
    return rnd.choices(moves, weights=[WEIGHTS[move["type"]] for move in moves])[0]


def play_ahead(
    state: dict, version: int, rnd: random.Random, length: int
) -> list[tuple[int, dict, int]]:
    """The moves a client will send, found by playing the state with the engine (it is
    deterministic, so the server will play exactly the same game)."""
    from games.watson_holmes import rules as engine
    from games.watson_holmes.rules.actions import waiting_on_players

    script = []
    while len(script) < length and not engine.is_over(state):
        waiting = waiting_on_players(state)
        if not waiting:
            break
        seat = waiting[0]
        action = choose(engine.legal_actions(state, seat), rnd)
        if action is None:
            break
        applied = engine.apply(state, seat, action)
        if not isinstance(applied, tuple):
            break
        script.append((seat, action, version))
        # Through JSON, as the server stores it, so both play exactly the same game.
        state = json.loads(json.dumps(applied[0]))
        version += 1
    return script


# --- Figures ------------------------------------------------------------------------------


def percentile(ordered: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted `ordered` lie (nan if empty)."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class CpuMeter:
    """CPU seconds used by each part of a set-up between `mark()` and `used()`: the web
    server's processes, the Celery worker's, PostgreSQL's, Redis's, and this process (the
    load client). On one machine they share the cores, so what a request costs is all of
    it. Counted per process, so that a process started meanwhile counts whole and one that
    ended counts nothing (PostgreSQL's backends live as long as the pooled connections)."""

    def __init__(self, server: subprocess.Popen, worker: subprocess.Popen | None = None):
        self.roots = {"web": server.pid, "worker": worker.pid if worker else None}
        self.start = self._read()

    def mark(self) -> None:
        self.start = self._read()

    def used(self) -> dict[str, float]:
        used: dict[str, float] = {}
        for (part, pid), seconds in self._read().items():
            used[part] = used.get(part, 0.0) + seconds - self.start.get((part, pid), 0.0)
        return used

    def _read(self) -> dict[tuple[str, int], float]:
        import psutil

        parts = {"client": [psutil.Process()]}
        for part, pid in self.roots.items():
            if pid is not None:
                with contextlib.suppress(psutil.NoSuchProcess):
                    root = psutil.Process(pid)
                    parts[part] = [root, *root.children(recursive=True)]
        names = {"postgres": "database", "redis-server": "redis"}
        for process in psutil.process_iter(["name"]):
            if process.info["name"] in names:
                parts.setdefault(names[process.info["name"]], []).append(process)
        seconds = {}
        for part, processes in parts.items():
            for process in processes:
                with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                    times = process.cpu_times()
                    seconds[part, process.pid] = times.user + times.system
        return seconds
