"""Two nodes behind HAProxy, one killed mid-game: the nodes bench's own run, short
(`python -m bench.nodes --moves ...`), on the machine's real PostgreSQL, Redis and
HAProxy. Its players on the killed node open new sockets through HAProxy and send again,
with the same key, the move the node died under; the games go on to their last move on
the node left, nothing acknowledged is lost and nothing is applied twice.

The bench runs in a child process (it sets Django up for a database of its own and starts
the nodes), so this test needs no test database; it runs in the PostgreSQL pass of
`make test`, as the other tests that start servers sharing a database do."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from bench.nodes import RESULT_MARK, haproxy_path
from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, redis_problem

PROJECT = Path(__file__).resolve().parents[2]
TABLES, MOVES = 2, 12


def postgres_server() -> str:
    """The test database's server, where the bench creates (and drops) its own database."""
    settings = connection.settings_dict
    user = settings["USER"] or "postgres"
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}"


def run_the_bench() -> tuple[dict | None, str]:
    env = {
        **os.environ,
        "HOLMES_BENCH_POSTGRES_URL": f"{postgres_server()}/holmes_bench",
        "HOLMES_BENCH_REDIS_URL": REDIS_URL,
    }
    flags = [f"--tables={TABLES}", f"--moves={MOVES}", "--think=0.2", "--seconds=60", "--json"]
    result = subprocess.run(
        [sys.executable, "-m", "bench.nodes", *flags],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    marked = [line for line in result.stdout.splitlines() if line.startswith(RESULT_MARK)]
    return (json.loads(marked[0][len(RESULT_MARK) :]) if marked else None), output


def test_a_node_killed_mid_game_loses_no_move_and_applies_none_twice():
    if connection.vendor != "postgresql":
        pytest.skip("runs in the PostgreSQL pass: both nodes need a shared database")
    require_service("Redis", redis_problem())
    require_service("HAProxy", None if haproxy_path() else "haproxy is not installed")

    figures, output = run_the_bench()

    assert figures is not None, output  # a service the bench found missing says so here
    assert figures["tables_on_both"] >= 1, output  # a table's players on the two nodes
    assert figures["cut_off"] >= 1, output
    assert figures["reconnected"] == figures["cut_off"], output
    # The node died with a move on its way: sent again after the reconnect, same key.
    assert sum(figures["retried"].values()) >= 1, output
    assert figures["tables_done"] == TABLES, output  # every game played to its last move
    assert figures["lost"] == 0, output
    assert figures["applied_twice"] == 0, output
    assert figures["applied"] == figures["acknowledged"] == TABLES * MOVES, output
    assert figures["behind"] == 0, output  # every player saw its table's last move
    # The node left counted, in its /metrics, the moves it applied after the kill.
    assert figures["metrics"].get("holmes_moves_applied_total", 0) >= 1, output
    unexpected = [what for what in figures["problems"] if "tried again" not in what]
    assert unexpected == [], output
