"""`python -m bench peers`: the boardgame.io peer's rules, its socket.io client, and the
pieces that turn a run into figures.

The tests that need the peer run only where Node and its packages are installed (`npm ci`
in bench/peers/boardgameio); elsewhere they are skipped, so `make test` never needs npm.
"""

import asyncio
import json
import shutil
import subprocess

import pytest

from bench import load
from bench._harness import ROOT
from bench.peers import bgio, meter
from bench.peers.run import PEER, Options, Result, ratio_row, serve, table_counts

NODE = shutil.which("node")
needs_peer = pytest.mark.skipif(
    NODE is None or not (PEER / "node_modules" / "boardgame.io").is_dir(),
    reason="the peer needs Node and `npm ci` in bench/peers/boardgameio",
)


# --- The game (node) ----------------------------------------------------------------------


@needs_peer
def test_the_peer_conserves_carriages_and_keeps_each_card_to_its_reader():
    result = subprocess.run(
        [NODE, "check.js"], cwd=PEER, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed, 0 failed" in result.stdout


# --- The client against the real server ---------------------------------------------------


def card_texts() -> dict[int, str]:
    script = "const { CARDS } = require('./game'); console.log(JSON.stringify(CARDS))"
    printed = subprocess.run(
        [NODE, "-e", script], cwd=PEER, capture_output=True, text=True, check=True
    ).stdout
    return {int(location): card["text"] for location, card in json.loads(printed).items()}


class RecordingPlayer(bgio.BgioPlayer):
    """Keeps every view the server sent this seat, as it came over the socket."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.received: list[dict] = []

    async def on_sync(self, match, info):
        self.received.append(info)
        await super().on_sync(match, info)

    async def on_update(self, match, state, log=None):
        self.received.append({"state": state, "log": log})
        await super().on_update(match, state, log)


@pytest.fixture
def peer_server(tmp_path):
    from bench._harness import free_port, start, stop
    from bench.peers.run import wait_until_listening

    port = free_port()
    log = tmp_path / "peer.log"
    server = start([NODE, str(PEER / "server.js"), str(port)], log)
    try:
        wait_until_listening(server, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(server)


@needs_peer
def test_the_players_play_a_table_over_socket_io_and_see_only_their_own_card(
    peer_server, monkeypatch
):
    # A quick table: players think 50 ms, two seconds measured.
    monkeypatch.setattr(bgio, "THINK_SECONDS", 0.05)
    monkeypatch.setattr(load, "ARRIVAL_SECONDS", 0.1)
    monkeypatch.setattr(load, "SETTLE_SECONDS", 0.2)
    texts = card_texts()

    async def play():
        import random

        import aiohttp

        async with aiohttp.ClientSession() as session:
            (seats,) = await bgio.seat_tables(session, peer_server, 1)
            figures = load.Figures(tables=1, seconds=2.0)
            clock = load.Clock(players=3, figures=figures, seconds=2.0)
            players = [
                RecordingPlayer(session, peer_server, seat, figures, clock, random.Random(n))
                for n, seat in enumerate(seats)
            ]
            await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 30)
            return figures, players

    figures, players = asyncio.run(play())

    assert figures.errors == 0, figures.problems
    assert len(figures.moves) >= 5, "the table should have moved several times in 2 s"
    read_own = 0
    for player in players:
        for message in player.received:
            own = message["state"]["G"]["card"]
            seen = json.dumps(message, ensure_ascii=False)
            for location, text in texts.items():
                if own and own["location"] == location:
                    assert text in seen
                    read_own += 1
                else:
                    assert text not in seen, f"seat {player.seat.player} saw card {location}"
    assert read_own, "some player should have read a card in 2 s"


# --- The client's pieces ------------------------------------------------------------------


def test_a_legal_move_becomes_the_action_boardgame_io_expects():
    seat = bgio.Seat(match="m1", player="2", credentials="secret")

    visit = bgio.move_message(seat, {"type": "visit", "location": 4, "carriages": 1})
    done = bgio.move_message(seat, {"type": "done_reading"})

    assert visit == {
        "type": "MAKE_MOVE",
        "payload": {"type": "visit", "args": [4, 1], "playerID": "2", "credentials": "secret"},
    }
    assert done["payload"]["args"] == [] and done["payload"]["type"] == "done_reading"


def test_an_update_answers_a_move_only_when_its_log_holds_that_players_move():
    log = [
        {"action": {"type": "MAKE_MOVE", "payload": {"type": "visit", "playerID": "1"}}},
        {"action": {"type": "GAME_EVENT", "payload": {"type": "endTurn", "playerID": "2"}}},
    ]

    assert bgio.made_by(log, "1")
    assert not bgio.made_by(log, "2")  # an automatic event is not its move
    assert not bgio.made_by(None, "1")


def test_the_legal_moves_are_read_from_the_view():
    assert bgio.legal_moves({"G": {"legal": [{"type": "carriage_stop"}]}}) == [
        {"type": "carriage_stop"}
    ]
    assert bgio.legal_moves(None) == []


# --- Figures ------------------------------------------------------------------------------


def test_a_proc_stat_line_is_read_even_with_a_name_holding_spaces_and_parentheses():
    fields = ["S", "41"] + ["0"] * 9 + ["300", "200"] + ["0"] * 8 + ["10"]
    line = "1234 (node (peer) x) " + " ".join(fields)

    stat = meter.parse_stat(1234, line)

    assert (stat.name, stat.parent) == ("node (peer) x", 41)
    assert stat.cpu == pytest.approx(500 / meter.TICKS)
    assert stat.rss == 10 * meter.PAGE


def test_a_process_tree_holds_the_roots_descendants_only():
    processes = {
        pid: meter.ProcStat(pid, "p", parent, 1.0, 0)
        for pid, parent in [(10, 1), (11, 10), (12, 11), (20, 1)]
    }

    assert sorted(p.pid for p in meter.tree(processes, [10])) == [10, 11, 12]


def test_cpu_used_counts_a_new_process_whole_and_an_ended_one_not_at_all():
    before = meter.Sample(cpu={("server", 1): 2.0, ("server", 2): 5.0})
    after = meter.Sample(cpu={("server", 1): 3.5, ("database", 3): 0.25})

    assert meter.used(before, after) == {"server": 1.5, "database": 0.25}


def test_the_ratios_say_how_the_peer_compares_with_holmes():
    holmes, peer = Result("holmes", 50), Result("bgio-postgres", 50)
    for result, cpu, latency in ((holmes, 2.0, 0.020), (peer, 3.0, 0.010)):
        figures = load.Figures(tables=50, seconds=10.0, moves=[latency] * 100)
        result.add(figures, {"server": cpu}, rss=0)

    assert holmes.cpu_per_move() == pytest.approx(20.0)
    assert holmes.rate == pytest.approx(10.0)
    row = ratio_row(holmes, peer)
    assert "CPU per move 1.50" in row  # the peer spends 1.5 times Holmes's CPU per move
    assert "p99 0.50" in row  # and answers in half Holmes's time
    assert "like for like" in row


def test_the_options_come_from_the_environment_and_are_checked(monkeypatch):
    monkeypatch.setenv("HOLMES_PEERS_TABLES", "5,10")
    monkeypatch.setenv("HOLMES_PEERS_SECONDS", "20")
    monkeypatch.setenv("HOLMES_PEERS_SIDES", "holmes,bgio-postgres")

    options = Options.from_environment()

    assert options.tables == (5, 10) and options.seconds == 20
    assert options.sides == ("holmes", "bgio-postgres")
    assert Options.from_flags(options.as_flags()) == options
    monkeypatch.delenv("HOLMES_PEERS_TABLES")
    assert Options.from_environment().tables == (50, 200, 1000)
    with pytest.raises(SystemExit):
        Options.from_flags(["--tables", "ten"])
    assert table_counts("") == ()


def test_the_idle_options_go_through_the_child_process_flags(monkeypatch):
    monkeypatch.setenv("HOLMES_PEERS_IDLE", "30")
    monkeypatch.setenv("HOLMES_PEERS_IDLE_ONLY", "1")

    options = Options.from_environment()

    assert (options.idle, options.idle_only) == (30, True)
    assert Options.from_flags(options.as_flags()) == options
    with pytest.raises(SystemExit):
        Options.from_flags(["--idle", "0"])


def test_holmes_is_served_as_the_procfile_serves_it():
    web = next(
        line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:")
    )
    command = serve(8000, 4)

    assert "holmes_site.serve" in web and command[1:3] == ["-m", "holmes_site.serve"]
    assert "--ws-per-message-deflate=false" in command and "--ws-ping-interval=60" in command
    assert "--workers=4" in command
    # The Celery worker is forked from the web server's parent, not a process of its own.
    procfile = (ROOT / "Procfile").read_text().splitlines()
    assert "--celery-worker" in web and not [
        line for line in procfile if line.startswith("worker:")
    ]
    assert [word for word in serve(8000, 4, celery=True) if word.startswith("--celery-worker=")]


def test_the_proportional_size_of_a_process_is_read_and_of_a_gone_one_is_0():
    import os

    assert meter.proportional_size(os.getpid()) > 0
    assert meter.proportional_size(2**22 + 1) == 0  # above the kernel's largest pid


def test_a_row_gives_the_proportional_size_and_the_resident_one():
    result = Result("holmes", 50)
    figures = load.Figures(tables=50, seconds=10.0, moves=[0.01] * 10)
    result.add(figures, {"server": 1.0}, 300 * 2**20, 120 * 2**20)

    assert "PSS   120 MB (RSS   300)" in result.row()


def test_the_load_benchmarks_clock_still_measures_its_own_seconds():
    clock = load.Clock(players=1, figures=load.Figures(tables=1, seconds=load.SECONDS))

    clock.arrive()

    assert clock.stop_at - clock.measure_from == pytest.approx(load.SECONDS)


def test_a_row_says_how_long_the_load_client_stalled_at_most():
    result = Result("holmes", 50)
    for stalls in ([0.004, 0.120], [0.030]):
        figures = load.Figures(tables=50, seconds=10.0, moves=[0.01] * 10, client_lag=stalls)
        result.add(figures, {"server": 1.0}, rss=0)
    assert result.client_lag == pytest.approx(0.120)
    assert "client stalled 120 ms at most" in result.row()


def test_a_row_says_how_long_arriving_players_waited_for_their_first_view():
    result = Result("holmes", 50)
    for waits in ([0.010] * 98, [0.300, 0.400]):
        figures = load.Figures(tables=50, seconds=10.0, moves=[0.01] * 10, first_views=waits)
        result.add(figures, {"server": 1.0}, rss=0)
    assert result.row().endswith("(arriving: first view p99 400 ms)")


def test_the_client_lag_is_counted_in_the_measured_window_only():
    from bench.peers.run import client_lag

    async def run(measuring: bool) -> list[float]:
        figures = load.Figures(tables=1, seconds=1.0)
        clock = load.Clock(players=1, figures=figures, seconds=1.0)
        clock.measuring = lambda: measuring  # the window, open or shut
        task = asyncio.create_task(client_lag(clock, figures))
        await asyncio.sleep(0.2)
        task.cancel()
        return figures.client_lag

    assert len(asyncio.run(run(True))) >= 2
    assert asyncio.run(run(False)) == []


def test_the_search_narrows_down_the_largest_count_a_side_holds(monkeypatch):
    """Between the largest compared count held (200) and the next (1,000), one round at
    each probe, in fifties: 600 holds, 800 does not, 700 does not."""
    from bench.peers import run

    probed = []

    def one_round(count):
        probed.append(count)
        latency = 0.01 if count <= 650 else 0.5
        figures = load.Figures(tables=count, seconds=10.0, moves=[latency] * 100)
        return figures, {"server": 1.0}, 0

    monkeypatch.setattr(run, "play", lambda side, count, seconds: count)
    monkeypatch.setattr(run, "run_client", one_round)
    by_count = {}
    for count, latency in ((50, 0.01), (200, 0.01), (1000, 0.9)):
        result = Result("holmes", count)
        figures = load.Figures(tables=count, seconds=10.0, moves=[latency] * 100)
        result.add(figures, {"server": 1.0}, 0)
        by_count[count] = {"holmes": result}

    side = run.Side("holmes")
    limit = run.search_limit(side, Options(search=3), by_count)

    assert probed == [600, 800, 700]
    assert limit == (600, 700)
    assert run.search_limit(side, Options(search=0), by_count) == (200, 1000)
    rows = run.holding_rows(by_count, {"holmes": limit})
    assert (
        "holds (p99 < 250 ms, no errors) at: 50, 200; largest found 600 (700 did not)" in (rows[0])
    )


def test_the_run_time_of_a_busy_process_grows_by_what_it_spent():
    import os
    import time

    before = meter.run_time(os.getpid())
    if before is None:
        pytest.skip("this kernel keeps no schedstat")
    spent = time.thread_time()
    while time.thread_time() - spent < 0.05:
        pass
    assert meter.run_time(os.getpid()) - before >= 0.05 * 0.9
    assert meter.run_time(2**22 + 1) is None  # above the kernel's largest pid
