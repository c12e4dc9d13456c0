"""Holmes side by side with boardgame.io: `python -m bench peers`.

The peer (bench/peers/boardgameio/) is the load benchmark's loop written as a boardgame.io
game and served as its documentation recommends. The same simulated players
(`bench.load.Player` on Holmes, `bench.peers.bgio.BgioPlayer` on boardgame.io: same
think time, same choice of moves, three a table, sockets held open) play N tables on:

- ``holmes``: the scaled set-up as the Procfile serves it (forked uvicorn workers,
  holmes_site/serve.py; a Celery worker; a Redis server of its own) on a fresh PostgreSQL
  database;
- ``bgio-memory``: boardgame.io with its default in-memory storage (not durable);
- ``bgio-postgres``: boardgame.io with `bgio-postgres` on a fresh database of the same
  PostgreSQL server: the like-for-like comparison, since Holmes's tables are durable.

For each table count the sides take turns (in alternating order from one round to the
next, so that noise on the machine hits them all), each with the same arrival, warm-up
and measured window as `bench.load`. Printed per side: moves/s, move latency p50/p99,
CPU per move (server processes, Redis for Holmes, the database's backends), the servers'
memory (PSS and RSS), stale moves and errors; then the ratios Holmes/peer.

Options, as environment variables (or flags of `python -m bench.peers`, see --help):
HOLMES_PEERS_TABLES (default 50,200,1000), HOLMES_PEERS_SECONDS (measured per run; default
HOLMES_LOAD_SECONDS, 14), HOLMES_PEERS_ROUNDS (default 2), HOLMES_PEERS_SIDES (default all
three); the think time is bench.load's HOLMES_LOAD_THINK_SECONDS (default 12).

Needs Node and `npm ci` in bench/peers/boardgameio (skipped with a sentence otherwise)
and PostgreSQL. Everything listens on 127.0.0.1, runs for a bounded time, and is stopped
and dropped at the end, also on failure or interruption.
"""

from __future__ import annotations

from bench._harness import run_bounded_child


def main() -> None:
    """Run the comparison in a child process (Django is set up there, once) and bound it."""
    from bench.peers.run import Options

    options = Options.from_environment()
    run_bounded_child("peers", "bench.peers", options.as_flags(), options.time_bound())
