"""The child process of `python -m bench peers`: set up the sides, play, print, clean up.

`python -m bench.peers --help` lists the options; see bench/peers/__init__.py for what is
compared and how.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import load
from bench._harness import (
    POSTGRES_URL,
    QUEUE,
    REDIS_URL,
    ROOT,
    clear_queue,
    clear_run_keys,
    free_port,
    percentile,
    postgres_create,
    postgres_drop,
    prepare,
    procfile_websocket_options,
    redis_problem,
    run_client,
    start,
    stop,
    wait_until_up,
    wait_until_worker_ready,
)
from bench.peers import bgio
from bench.peers.meter import Meter, Sample, used

PEER = Path(__file__).resolve().parent / "boardgameio"
SIDES = ("holmes", "bgio-memory", "bgio-postgres")
LIKE_FOR_LIKE = "bgio-postgres"
TABLE_COUNTS = (50, 200, 1000)
ROUNDS = 2
# Runs of one round each that narrow down the largest table count a side holds, between
# the largest of TABLE_COUNTS it held and the next it did not.
SEARCH_RUNS = 2
SERVER_START_SECONDS = 60.0
# Each side measured with no players, before the runs, its CPU time to the nanosecond
# (bench/peers/meter.py's run_time): a minute evens out what wakes every few seconds.
IDLE_SECONDS = 60.0
# The Holmes side's own Redis (see start_redis): its housekeeping once a second, not ten
# times, and never sped up by the number of clients (dynamic-hz).
# Holmes's web workers: one a core (HOLMES_PEERS_WORKERS to change it). At 200 tables on
# two cores, four (bench.load's default) held 54 MB more (PSS 265 MB against 211: each
# worker's copies of the pages it shares with the others) for a p99 of 28 ms against
# 52, both far under the 250 ms bar, and the same CPU a move (5.16 ms against 5.00).
WEB_WORKERS = int(os.environ.get("HOLMES_PEERS_WORKERS", os.cpu_count() or 2))
REDIS_OPTIONS = ("--save", "", "--appendonly", "no", "--hz", "1", "--dynamic-hz", "no")


def database_url(name: str) -> str:
    """A database of its own on the bench's PostgreSQL server (`bench.load` uses the one
    POSTGRES_URL names, and may run meanwhile)."""
    return POSTGRES_URL.rsplit("/", 1)[0] + "/" + name


# Each run its own databases: a run started meanwhile (another engineer's, on a shared
# machine) dropped and made again one of a fixed name under a running one, tables and all.
HOLMES_DATABASE = f"holmes_bench_peers_{os.getpid()}"
PEER_DATABASE = f"holmes_bench_bgio_{os.getpid()}"
ADMIN_URL = database_url("postgres")


# --- Options ------------------------------------------------------------------------------


@dataclass
class Options:
    tables: tuple[int, ...] = TABLE_COUNTS
    seconds: float = load.SECONDS
    rounds: int = ROUNDS
    sides: tuple[str, ...] = SIDES
    search: int = SEARCH_RUNS
    idle: float = IDLE_SECONDS  # seconds of the idle row
    idle_only: bool = False  # the idle rows alone, no runs

    @classmethod
    def from_environment(cls) -> Options:
        environ = os.environ
        return cls(
            tables=table_counts(environ.get("HOLMES_PEERS_TABLES", "")) or TABLE_COUNTS,
            seconds=float(environ.get("HOLMES_PEERS_SECONDS", load.SECONDS)),
            rounds=int(environ.get("HOLMES_PEERS_ROUNDS", ROUNDS)),
            sides=side_names(environ.get("HOLMES_PEERS_SIDES", "")) or SIDES,
            search=int(environ.get("HOLMES_PEERS_SEARCH", SEARCH_RUNS)),
            idle=float(environ.get("HOLMES_PEERS_IDLE", IDLE_SECONDS)),
            idle_only=environ.get("HOLMES_PEERS_IDLE_ONLY", "") == "1",
        )

    @classmethod
    def from_flags(cls, argv: list[str]) -> Options:
        default = cls.from_environment()
        parser = argparse.ArgumentParser(
            prog="python -m bench.peers", description="Holmes side by side with boardgame.io."
        )
        parser.add_argument("--tables", type=table_counts, default=default.tables)
        parser.add_argument("--seconds", type=float, default=default.seconds)
        parser.add_argument("--rounds", type=int, default=default.rounds)
        parser.add_argument("--sides", type=side_names, default=default.sides)
        parser.add_argument("--search", type=int, default=default.search)
        parser.add_argument(
            "--idle", type=float, default=default.idle, help="seconds of each side's idle row"
        )
        parser.add_argument(
            "--idle-only",
            action="store_true",
            default=default.idle_only,
            help="print the idle rows (CPU with no player, memory at start) and stop",
        )
        flags = parser.parse_args(argv)
        if flags.rounds < 1 or flags.seconds <= 0 or flags.search < 0 or flags.idle <= 0:
            parser.error(
                "--rounds must be 1 or more, --seconds and --idle more than 0 and --search "
                "0 or more"
            )
        return cls(
            flags.tables,
            flags.seconds,
            flags.rounds,
            flags.sides,
            flags.search,
            flags.idle,
            flags.idle_only,
        )

    def as_flags(self) -> list[str]:
        return [
            f"--tables={','.join(map(str, self.tables))}",
            f"--seconds={self.seconds:g}",
            f"--rounds={self.rounds}",
            f"--sides={','.join(self.sides)}",
            f"--search={self.search}",
            f"--idle={self.idle:g}",
            *(["--idle-only"] if self.idle_only else []),
        ]

    def time_bound(self) -> float:
        """Seconds after which the whole run is stopped: set-up, then every run's bound."""
        runs = self.rounds * len(self.sides)
        setup = 300 + 0.5 * sum(self.tables)  # migrating, seating Holmes's tables
        each = sum(run_bound(self.seconds, count * 3) + 30 for count in self.tables)
        largest = run_bound(self.seconds, max(self.tables) * 3) + 30
        search = self.search * len(self.sides) * largest
        idle = self.idle * len(self.sides)
        return setup + idle + runs * each + search + 0.1 * sum(self.tables) * 3


def table_counts(text: str) -> tuple[int, ...]:
    if not text.strip():
        return ()
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of table counts") from None
    if any(count < 1 for count in counts):
        raise argparse.ArgumentTypeError("every table count must be 1 or more")
    return counts


def side_names(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in SIDES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown side {unknown[0]!r}: choose from {SIDES}")
    return names


def run_bound(seconds: float, players: int) -> float:
    """The longest one run may take: arrival, settling, the window, a last request."""
    arrival = max(load.ARRIVAL_SECONDS, players / load.ARRIVAL_RATE)
    return (
        arrival
        + load.ARRIVAL_TIMEOUT
        + max(load.SETTLE_SECONDS, load.SETTLE_SHARE * arrival)
        + seconds
        + load.REQUEST_TIMEOUT
        + 10
    )


# --- The sides ----------------------------------------------------------------------------


@dataclass
class Side:
    name: str
    base: str = ""
    meter: Meter | None = None
    processes: list[subprocess.Popen] = field(default_factory=list)
    holmes_tables: list[load.Table] = field(default_factory=list)  # Holmes: seated ahead
    seated: list[list[bgio.Seat]] = field(default_factory=list)  # boardgame.io: ahead too


def node_problem() -> str | None:
    if shutil.which("node") is None:
        return "Node is not installed"
    if not (PEER / "node_modules" / "boardgame.io").is_dir():
        return f"its packages are not installed: run `npm ci` in {PEER.relative_to(ROOT)}"
    return None


def start_holmes(side: Side, folder: Path, table_total: int) -> None:
    """As the Procfile serves the site: uvicorn workers and a Celery worker forked from one
    loaded parent (holmes_site/serve.py), Redis (a server of its own when redis-server is
    installed)."""
    env = {
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DATABASE_URL": database_url(HOLMES_DATABASE),
    }
    os.environ.pop("HOLMES_SQLITE_PATH", None)
    workers, machine_wide, own = WEB_WORKERS, ("redis-server",), ()
    redis_url = REDIS_URL
    if shutil.which("redis-server"):
        redis, redis_url = start_redis(folder)
        side.processes.append(redis)
        machine_wide, own = (), (("redis", redis.pid),)
    problem = redis_problem(redis_url)
    if problem:
        # The in-memory channel layer reaches only its own process's sockets.
        workers, machine_wide = 1, ()
        os.environ.pop("REDIS_URL", None)
        print(f"holmes: Redis unreachable ({problem}): 1 worker, eager Celery", flush=True)
    else:
        env["REDIS_URL"] = redis_url
    os.environ.update(env)
    side.holmes_tables = prepare(table_total)
    port = free_port()
    log = folder / "holmes.log"
    queued = "REDIS_URL" in os.environ
    if queued:
        clear_queue(redis_url)  # the worker's queue starts empty
    web = start(serve(port, workers, celery=queued), log)
    side.processes.append(web)
    side.base = f"http://127.0.0.1:{port}"
    wait_until_up(side.base, web, log)
    if queued:
        wait_until_worker_ready(web, log)
    side.meter = Meter([web.pid], ADMIN_URL, HOLMES_DATABASE, machine_wide, own)


# The Celery worker's options: bench._harness.celery_worker's (one process, the bench's
# queue, none of the chatter between workers that a lone worker has no use for).
CELERY_OPTIONS = (
    f"--pool=solo --queues={QUEUE} --loglevel=WARNING "
    "--without-heartbeat --without-mingle --without-gossip"
)


def serve(port: int, workers: int, *, celery: bool = False) -> list[str]:
    """The Procfile's web server (holmes_site/serve.py), with its websocket options, the
    bench's quiet logging (bench._harness.uvicorn's) and, with `celery`, the Celery
    worker forked from it as the Procfile runs it."""
    return [
        sys.executable,
        "-m",
        "holmes_site.serve",
        "--host=127.0.0.1",
        f"--port={port}",
        f"--workers={workers}",
        "--no-access-log",
        "--log-level=warning",
        "--backlog=2048",
        *procfile_websocket_options(),
        *([f"--celery-worker={CELERY_OPTIONS}"] if celery else []),
    ]


def start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    """A Redis server of the Holmes side's own, for the run: the machine's serves other
    work too, which its CPU would count, and ticks ten times a second (REDIS_OPTIONS)."""
    port = free_port()
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder)]
    process = start([*command, *REDIS_OPTIONS], folder / "redis.log")
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + SERVER_START_SECONDS
    while redis_problem(url) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return process, url


def start_peer(side: Side, folder: Path, table_total: int) -> None:
    """boardgame.io's server, in memory or on its own PostgreSQL database."""
    port = free_port()
    command = ["node", str(PEER / "server.js"), str(port)]
    database = None
    if side.name == "bgio-postgres":
        database = PEER_DATABASE
        command.append(database_url(database))
    log = folder / f"{side.name}.log"
    os.environ.setdefault("NODE_ENV", "production")  # no per-move debug logging
    side.processes.append(start(command, log))
    side.base = f"http://127.0.0.1:{port}"
    wait_until_listening(side.processes[0], log)
    side.seated = run_client(seat_peer_tables(side.base, table_total))
    side.meter = Meter([side.processes[0].pid], ADMIN_URL, database)


async def seat_peer_tables(base: str, count: int) -> list[list[bgio.Seat]]:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        return await bgio.seat_tables(session, base, count)


def wait_until_listening(server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the peer's server exited:\n{log.read_text()[-3000:]}")
        if "listening" in log.read_text():
            return
        time.sleep(0.1)
    raise RuntimeError(f"the peer's server did not start:\n{log.read_text()[-3000:]}")


# --- One run: one side, one table count ---------------------------------------------------


@dataclass
class Result:
    side: str
    tables: int
    seconds: float = 0.0
    moves: list[float] = field(default_factory=list)
    requests: list[float] = field(default_factory=list)  # moves and views fetched
    stale: int = 0
    errors: int = 0
    problems: dict[str, int] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)  # seconds per part
    rss: int = 0  # bytes, the largest seen
    pss: int = 0  # bytes, the largest proportional size seen (bench/peers/meter.py)
    client_lag: float = 0.0  # seconds, the load client's longest stall
    first_views: list[float] = field(default_factory=list)  # arriving: socket to first view

    def add(self, figures: load.Figures, cpu: dict[str, float], rss: int, pss: int = 0) -> None:
        self.seconds += figures.seconds
        self.client_lag = max([self.client_lag, *figures.client_lag])
        self.first_views += figures.first_views
        self.moves += figures.moves
        self.requests += figures.moves + figures.views
        self.stale += figures.stale
        self.errors += figures.errors
        for what, count in figures.problems.items():
            self.problems[what] = self.problems.get(what, 0) + count
        for part, seconds in cpu.items():
            self.cpu[part] = self.cpu.get(part, 0.0) + seconds
        self.rss = max(self.rss, rss)
        self.pss = max(self.pss, pss)

    @property
    def rate(self) -> float:
        return len(self.moves) / self.seconds if self.seconds else math.nan

    def p(self, fraction: float) -> float:
        return percentile(sorted(self.moves), fraction) * 1000

    def p_all(self, fraction: float) -> float:
        return percentile(sorted(self.requests), fraction) * 1000

    def cpu_per_move(self, part: str | None = None) -> float:
        """Milliseconds of CPU per applied move, of one part or of them all."""
        seconds = self.cpu.get(part, 0.0) if part else sum(self.cpu.values())
        return seconds / len(self.moves) * 1000 if self.moves else math.nan

    def row(self) -> str:
        parts = ", ".join(f"{part} {self.cpu_per_move(part):.2f}" for part in sorted(self.cpu))
        problems = ", ".join(f"{what}: {n}" for what, n in sorted(self.problems.items()))
        return (
            f"{self.tables:>5} tables  {self.side:<14}{self.rate:>7.1f} moves/s  "
            f"p50 {self.p(0.5):>5.0f} p99 {self.p(0.99):>5.0f} ms (all {self.p_all(0.99):>4.0f})  "
            f"CPU {self.cpu_per_move():>6.2f} ms/move ({parts})  "
            f"PSS {self.pss / 2**20:>5.0f} MB (RSS {self.rss / 2**20:>5.0f})  "
            f"stale {self.stale}  errors {self.errors}"
            + (f" ({problems})" if problems else "")
            + f"  client stalled {self.client_lag * 1000:.0f} ms at most"
            + f"  (arriving: first view p99 {self.p_arriving(0.99):.0f} ms)"
        )

    def p_arriving(self, fraction: float) -> float:
        """From opening the socket to the first view, while the players arrived (before
        the measured window)."""
        return percentile(sorted(self.first_views), fraction) * 1000


async def play(side: Side, count: int, seconds: float) -> tuple[load.Figures, dict, int, int]:
    """One run; returns its figures, the CPU seconds per part, the RSS and the PSS."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=3)
    timeout = aiohttp.ClientTimeout(total=load.REQUEST_TIMEOUT)
    base = side.base if side.name == "holmes" else None
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as session:
        figures = load.Figures(tables=count, seconds=seconds)
        clock = load.Clock(players=count * 3, figures=figures, seconds=seconds)
        if side.name == "holmes":
            players = holmes_players(session, side, count, figures, clock)
        else:
            players = bgio.players(session, side.base, side.seated[:count], figures, clock)
        window = asyncio.create_task(measured_window(side.meter, clock))
        lag = asyncio.create_task(client_lag(clock, figures))
        try:
            await asyncio.wait_for(
                asyncio.gather(*(player.play() for player in players)),
                timeout=run_bound(seconds, count * 3),
            )
        finally:
            lag.cancel()
            if not window.done():
                window.cancel()
            gc.unfreeze()  # the next run's players replace these
        for _ in range(clock.players - clock.arrived):
            figures.error("never had a first view")
        before, after = await window
    return figures, used(before, after), after.server_rss, after.server_pss


def holmes_players(session, side: Side, count: int, figures, clock) -> list[load.Player]:
    """The first `count` tables seated ahead (as on boardgame.io): the same tables play
    again in each round and at each count, going on from where they were."""
    return [
        load.Player(
            session, side.base, table, seat, figures, clock, random.Random(table.id * 10 + seat)
        )
        for table in side.holmes_tables[:count]
        for seat in range(3)
    ]


LAG_TICK_SECONDS = 0.05


async def client_lag(clock: load.Clock, figures: load.Figures) -> None:
    """How late the client's loop wakes from a short sleep, in the measured window: a
    latency measured while the client itself was stalled counts that stall too."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_TICK_SECONDS)
        if clock.measuring():
            figures.client_lag.append(time.perf_counter() - asked - LAG_TICK_SECONDS)


async def measured_window(meter: Meter, clock: load.Clock) -> tuple[Sample, Sample]:
    """Samples at the start and at the end of the clock's measured window."""
    while clock.measure_from == math.inf:
        clock.left()  # counts an arrival timeout, as the players do
        await asyncio.sleep(0.05)
    # Everyone is in: what the client holds now (thousands of sockets and their players)
    # lives until the run ends. Frozen, it is out of the way of the client's own full
    # garbage collections, which otherwise stop its loop for hundreds of milliseconds
    # in the window, and count in the latencies of either side. Collected first, in the
    # settling seconds.
    gc.collect()
    gc.freeze()
    await asyncio.sleep(max(0.0, clock.measure_from - time.perf_counter()))
    before = await asyncio.to_thread(meter.sample)
    await asyncio.sleep(max(0.0, clock.stop_at - time.perf_counter()))
    after = await asyncio.to_thread(meter.sample)
    return before, after


# --- The whole comparison -----------------------------------------------------------------


def ratio_row(holmes: Result, peer: Result) -> str:
    efficiency = peer.cpu_per_move() / holmes.cpu_per_move()
    speed = peer.p(0.99) / holmes.p(0.99)
    like = "  (like for like: both durable)" if peer.side == LIKE_FOR_LIKE else ""
    return (
        f"{holmes.tables:>5} tables  Holmes/{peer.side} (the peer's figure over Holmes's, "
        f"1.00 or more: Holmes matches it): CPU per move {efficiency:.2f}, p99 {speed:.2f}{like}"
    )


def idle_row(side: Side, seconds: float = IDLE_SECONDS) -> str:
    """What a side spends with no player at all: divided over few moves (small table
    counts), it weighs on CPU per move; over many, it fades. And what its servers hold
    once started, before anyone plays."""
    before = side.meter.sample(precise=True)
    started = time.monotonic()
    time.sleep(seconds)
    after = side.meter.sample(precise=True)
    seconds = time.monotonic() - started
    parts = used(before, after)
    each = ", ".join(f"{part} {parts[part] / seconds * 1000:.2f}" for part in sorted(parts))
    total = sum(parts.values()) / seconds * 1000
    return (
        f"idle         {side.name:<14}CPU {total:.2f} ms/s ({each}) over {seconds:.0f} s  "
        f"PSS {after.server_pss / 2**20:.0f} MB (RSS {after.server_rss / 2**20:.0f})"
    )


# What "holds" means for a table count: the bar for a thousand tables.
HOLDS_P99_MS = 250.0


def holds(result: Result) -> bool:
    return (
        bool(result.moves)
        and result.errors == 0
        and result.p(0.99) < HOLDS_P99_MS
        and result.p_all(0.99) < HOLDS_P99_MS
    )


def search_limit(
    side: Side, options: Options, by_count: dict[int, dict[str, Result]]
) -> tuple[int, int | None]:
    """The largest table count the side holds, and the smallest found that it does not
    (None if it held every count): from the compared counts, narrowed by up to
    `options.search` runs of one round each, halfway between the two (in fifties)."""
    counts = sorted(by_count)
    low = max((count for count in counts if holds(by_count[count][side.name])), default=0)
    high = min((count for count in counts if count > low), default=None)
    for _ in range(options.search):
        if high is None:
            break
        probe = (low + high) // 2 // 50 * 50
        if not low < probe < high:
            break
        figures, cpu, *memory = run_client(play(side, probe, options.seconds))
        result = Result(side.name, probe)
        result.add(figures, cpu, *memory)
        print(f"  search: {result.row()}", flush=True)
        low, high = (probe, high) if holds(result) else (low, probe)
    return low, high


def holding_rows(
    by_count: dict[int, dict[str, Result]], limits: dict[str, tuple[int, int | None]]
) -> list[str]:
    """For each side: the table counts it held (move and all-requests p99 under 250 ms, no
    errors), the largest count found to hold (`search_limit`), and how many tables its
    CPU per move at the largest compared count it held would allow on this machine's
    cores, counting the server side only (the load client shares them), and so what a
    millisecond less a move would buy. Past what it holds, players who never got in make
    fewer moves a table, so the largest count's own rate would flatter it."""
    rows = []
    cores = os.cpu_count() or 1
    for name in next(iter(by_count.values()), {}):
        results = [by_count[count][name] for count in sorted(by_count)]
        held = [result for result in results if holds(result)]
        base = held[-1] if held else results[0]
        moves_per_table = base.rate / base.tables if base.tables else math.nan
        ceiling = cores * 1000 / (base.cpu_per_move() * moves_per_table)
        counts = ", ".join(str(result.tables) for result in held) or "none"
        largest, failed = limits.get(name, (held[-1].tables if held else 0, None))
        found = f"largest found {largest or 'none'}" + (f" ({failed} did not)" if failed else "")
        rows.append(
            f"{name:<14} holds (p99 < {HOLDS_P99_MS:.0f} ms, no errors) at: {counts}; "
            f"{found}; at {base.tables} tables {base.cpu_per_move():.1f} ms CPU a move x "
            f"{moves_per_table:.3f} moves/s a table: its CPU alone would allow about "
            f"{ceiling:.0f} tables on {cores} cores, each ms less a move about "
            f"{ceiling / base.cpu_per_move():.0f} more"
        )
    return rows


def compare(options: Options, sides: list[Side]) -> None:
    for side in sides:
        print(idle_row(side, options.idle), flush=True)
    if options.idle_only:
        return
    by_count: dict[int, dict[str, Result]] = {}
    for count in options.tables:
        results = {side.name: Result(side.name, count) for side in sides}
        for round_number in range(options.rounds):
            order = sides if round_number % 2 == 0 else list(reversed(sides))
            for side in order:
                figures, cpu, *memory = run_client(play(side, count, options.seconds))
                results[side.name].add(figures, cpu, *memory)
                single = Result(side.name, count)
                single.add(figures, cpu, *memory)
                print(f"  round {round_number + 1}: {single.row()}", flush=True)
        print(f"{count} tables, {options.rounds} round(s) of {options.seconds:g} s:", flush=True)
        for result in results.values():
            print(result.row(), flush=True)
        holmes = results.get("holmes")
        for result in results.values():
            if holmes and result is not holmes and holmes.moves and result.moves:
                print(ratio_row(holmes, result), flush=True)
        by_count[count] = results
    limits = {side.name: search_limit(side, options, by_count) for side in sides}
    for row in holding_rows(by_count, limits):
        print(row, flush=True)


def run(options: Options) -> int:
    # A SIGTERM from the parent (its time bound) unwinds through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(
        f"Peers: {', '.join(options.sides)}; {WEB_WORKERS} uvicorn workers for Holmes; "
        f"3 players a table, think {load.THINK_SECONDS:g} s on average; {options.seconds:g} s "
        f"measured per run from {load.SETTLE_SECONDS:g} s (or a sixth of the arrival's time) "
        "after every player arrived; "
        f"{options.rounds} round(s), alternating. Ratios Holmes/peer are the peer's figure "
        "over Holmes's (CPU per move, p99): 1.00 or more means Holmes matches or beats it.",
        flush=True,
    )
    wanted = list(options.sides)
    problem = node_problem()
    if problem and any(name != "holmes" for name in wanted):
        print(f"peers skipped: boardgame.io cannot run ({problem})", flush=True)
        return 0
    databases = [HOLMES_DATABASE] if "holmes" in wanted else []
    databases += [PEER_DATABASE] if "bgio-postgres" in wanted else []
    for name in databases:
        problem = postgres_create(database_url(name))
        if problem:
            print(f"peers skipped: cannot reach PostgreSQL ({problem})", flush=True)
            return 0
    sides = [Side(name) for name in wanted]
    try:
        with tempfile.TemporaryDirectory(prefix="holmes-peers-") as folder:
            for side in sides:
                if side.name == "holmes":
                    start_holmes(side, Path(folder), max(options.tables))
                else:
                    start_peer(side, Path(folder), max(options.tables))
            compare(options, sides)
    finally:
        for side in sides:
            for process in reversed(side.processes):
                stop(process)
        clean_up(databases, holmes="holmes" in wanted)
    return 0


def clean_up(databases: list[str], *, holmes: bool) -> None:
    if holmes:
        from django.apps import apps

        if apps.ready:
            from django.db import connections

            connections.close_all()
        if "REDIS_URL" in os.environ and "HOLMES_BENCH_RUN" in os.environ:
            clear_queue(REDIS_URL)
            clear_run_keys(REDIS_URL)
    for name in databases:
        postgres_drop(database_url(name))
