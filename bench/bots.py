"""How strong each game's computer players are, over the pure rules (no database).

For every game with computer players and each of its player counts, over seeded games
with the seats rotated (game n puts the seat under test at position n % players):
- `expert` vs `normal`: one expert seat, every other seat normal;
- `normal` vs `easy`: one normal seat, every other seat easy;
- each level vs random: one seat of that level, the others uniformly random legal players;
- seat balance: normal bots in every seat, the win rate by seat position (first-player
  advantage);
- decision time p50 and p99 per level, over every decision it made in those games.

A shared win counts as its share (a two-way tie is half a win each), so the wins of all
seats add up to the games that had a winner. The goal of a line is the issue's: at least
60 % at two players, at least 1.5 times a fair share (1 / players) at three or more.

`python -m bench bots` runs it; `--game NAME`, `--players 3 4`, `--games N` (default 400,
or HOLMES_BENCH_BOTS_GAMES) and `--workers N` (default 2) narrow it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from games import GAMES
from games.base import BOT_LEVELS, SYSTEM, Refusal

# The player counts measured per game, as issue 40 lists them.
PLAYER_COUNTS = {
    "sherlock_mycroft": (2,),
    "i_say_holmes": (3, 4, 6, 8),
    "holmes_elementary": (2, 3, 4, 6),
}
RANDOM = "random"
# The head-to-head matches: (the seat under test, every other seat).
HEAD_TO_HEAD = (("expert", "normal"), ("normal", "easy"))
# Decision time goals per level, in milliseconds (p99).
DECISION_GOAL_MS = {"easy": 5.0, "normal": 5.0, "expert": 250.0}
FIRST_SEED = 40_000
MAX_STEPS = 20_000
CHUNK = 25  # games per task handed to a worker


@dataclass
class Tally:
    """What a run of games gave: wins by seat position and by the seat under test."""

    players: int
    games: int = 0
    wins: float = 0.0  # the seat under test, a shared win counted as its share
    outright: int = 0
    shared: int = 0
    no_winner: int = 0  # finished without a winner, or cut off at MAX_STEPS
    unfinished: int = 0
    refused: int = 0  # bot moves the rules refused (a random legal move was played instead)
    by_position: list[float] = field(default_factory=list)
    # Per level, each decision's (wall, CPU) seconds: on a busy machine the wall time
    # also counts the wait for a core, the CPU time only the bot's own work.
    decisions: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def __post_init__(self):
        if not self.by_position:
            self.by_position = [0.0] * self.players

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.outright += other.outright
        self.shared += other.shared
        self.no_winner += other.no_winner
        self.unfinished += other.unfinished
        self.refused += other.refused
        self.by_position = [a + b for a, b in zip(self.by_position, other.by_position, strict=True)]
        for level, times in other.decisions.items():
            self.decisions.setdefault(level, []).extend(times)


def play_games(name: str, players: int, test: str, others: str, seeds: list[int]) -> Tally:
    """Play one game per seed: the seat under test (level ``test``) at ``seed % players``
    in rotation, every other seat ``others``; a level is a bot strength or ``RANDOM``."""
    game = GAMES[name]
    rules = game.rules
    tally = Tally(players)
    for seed in seeds:
        under_test = seed % players
        levels = [test if seat == under_test else others for seat in range(players)]
        rng = random.Random(seed)
        names = [f"player {n + 1}" for n in range(players)]
        state = rules.setup(game.example_config(players), names, seed)
        for _ in range(MAX_STEPS):
            if rules.is_over(state):
                break
            actor, action = _next_move(game, state, levels, rng, tally)
            result = rules.apply(state, actor, action)
            if isinstance(result, Refusal):
                tally.refused += 1
                legal = rules.legal_actions(state, actor)
                result = rules.apply(state, actor, rng.choice(legal))
            state = result[0]
        tally.games += 1
        if not rules.is_over(state):
            tally.unfinished += 1
            tally.no_winner += 1
            continue
        winners = (rules.outcome(state) or {}).get("winners") or []
        if not winners:
            tally.no_winner += 1
            continue
        for seat in winners:
            tally.by_position[seat] += 1 / len(winners)
        if under_test in winners:
            tally.wins += 1 / len(winners)
            if len(winners) == 1:
                tally.outright += 1
            else:
                tally.shared += 1
    return tally


def _next_move(game, state: dict, levels: list[str], rng: random.Random, tally: Tally):
    """A move of one seat the game waits for (drawn at random when several are, as in a
    response window), or the server's timeout when none of them may move."""
    rules = game.rules
    waiting = rules.waiting_for(state)
    for seat in rng.sample(waiting, len(waiting)):
        legal = rules.legal_actions(state, seat)
        if not legal:
            continue
        level = levels[seat]
        if level == RANDOM:
            return seat, rng.choice(legal)
        view = rules.view(state, seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        action = game.bots[level](view, seat, legal, rng.randrange(2**31))
        spent = (time.perf_counter() - started, time.process_time() - started_cpu)
        tally.decisions.setdefault(level, []).append(spent)
        return seat, action
    return SYSTEM, {"type": "timeout"}


def _run(task: tuple) -> tuple[tuple, Tally]:
    key, seeds = task
    return key, play_games(*key, seeds)


def run_all(keys: list[tuple], games: int, workers: int) -> dict[tuple, Tally]:
    """Every match in ``keys`` ((game, players, test, others)) over ``games`` seeds,
    split in chunks across ``workers`` processes."""
    seeds = list(range(FIRST_SEED, FIRST_SEED + games))
    tasks = [
        (key, seeds[start : start + CHUNK]) for key in keys for start in range(0, games, CHUNK)
    ]
    results = {key: Tally(key[1]) for key in keys}
    if workers <= 1 or len(tasks) == 1:
        done = map(_run, tasks)
    else:
        context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        pool = context.Pool(workers)
        done = pool.imap_unordered(_run, tasks)
    try:
        for key, tally in done:
            results[key].add(tally)
    finally:
        if workers > 1 and len(tasks) > 1:
            pool.close()
            pool.join()
    return results


def goal_for(players: int) -> float:
    """The win rate the stronger side should reach: 60 % head to head, 1.5 fair shares."""
    return 0.60 if players == 2 else 1.5 / players


def matches_for(game) -> list[tuple[str, str, str]]:
    """(label, seat under test, other seats) for every line of a player count."""
    lines = [(f"{test} vs {others}", test, others) for test, others in HEAD_TO_HEAD]
    lines += [(f"{level} vs {RANDOM}", level, RANDOM) for level in BOT_LEVELS]
    return lines


def measure(names: list[str], counts: list[int] | None, games: int, workers: int):
    """The report, game by game as each is measured: the text of each of its player
    counts (a game's matches share the workers, so both stay busy to its end)."""
    for name in names:
        game = GAMES[name]
        plan = []  # (players, [(label, key or None, missing level)], balance key)
        keys = []
        for players in _counts(name, counts):
            lines = []
            for label, test, others in matches_for(game):
                missing = next((lvl for lvl in (test, others) if _missing(game, lvl)), None)
                key = None if missing else (name, players, test, others)
                lines.append((label, key, missing))
                if key:
                    keys.append(key)
            balance = (name, players, "normal", "normal")
            keys.append(balance)
            plan.append((players, lines, balance))
        results = run_all(list(dict.fromkeys(keys)), games, workers)
        offered = ", ".join(game.bots)
        out = [f"{game.title} ({game.name}): levels {offered}; {games} games a line"]
        for players, lines, balance in plan:
            out.append(_table(players, lines, results, balance))
            out.append(_decisions(game, players, results))
        yield "\n".join(out)


def _table(players: int, lines, results, balance) -> str:
    fair, goal = 1 / players, goal_for(players)
    goal_text = f"≥{goal:.0%}" if players == 2 else f"≥{goal:.1%} (1.5× fair)"
    rows = [f"  {players} players (fair share {fair:.1%}, goal {goal_text}):"]
    for label, key, missing in lines:
        if key is None:
            rows.append(f"    {label:<18} no {missing} bot yet")
            continue
        tally = results[key]
        rate = tally.wins / tally.games
        verdict = "met" if rate >= goal else "NOT met"
        rows.append(
            f"    {label:<18} won {rate:6.1%} ({tally.wins:g}/{tally.games}: "
            f"{tally.outright} outright, {tally.shared} shared), {rate / fair:.2f}× fair, "
            f"goal {verdict}" + _troubles(tally)
        )
    tally = results[balance]
    seats = ", ".join(
        f"seat {seat + 1} {won / tally.games:.1%}" for seat, won in enumerate(tally.by_position)
    )
    rows.append(f"    {'seat balance':<18} normal bots in every seat: {seats}" + _troubles(tally))
    return "\n".join(rows)


def _troubles(tally: Tally) -> str:
    notes = []
    if tally.no_winner:
        notes.append(f"{tally.no_winner} without a winner")
    if tally.unfinished:
        notes.append(f"{tally.unfinished} cut off at {MAX_STEPS} moves")
    if tally.refused:
        notes.append(f"{tally.refused} bot moves REFUSED")
    return f" [{'; '.join(notes)}]" if notes else ""


def _decisions(game, players: int, results) -> str:
    times: dict[str, list[tuple[float, float]]] = {}
    for (name, count, _, _), tally in results.items():
        if name == game.name and count == players:
            for level, each in tally.decisions.items():
                times.setdefault(level, []).extend(each)
    parts = []
    for level in BOT_LEVELS:
        if level not in times:
            parts.append(f"{level} -")
            continue
        wall50, wall99 = _p50_p99([wall for wall, _ in times[level]])
        cpu50, cpu99 = _p50_p99([cpu for _, cpu in times[level]])
        goal = DECISION_GOAL_MS[level]
        verdicts = f"CPU {'met' if cpu99 <= goal else 'NOT met'}"
        verdicts += f", wall {'met' if wall99 <= goal else 'NOT met'}"
        parts.append(
            f"{level} p50/p99 {wall50:.2f}/{wall99:.2f} ms wall, {cpu50:.2f}/{cpu99:.2f} ms CPU "
            f"({len(times[level])} decisions; goal p99 ≤{goal:g} ms: {verdicts})"
        )
    return "\n".join(f"    decision time: {part}" for part in parts)


def _p50_p99(seconds: list[float]) -> tuple[float, float]:
    ms = sorted(each * 1000 for each in seconds)
    p99 = statistics.quantiles(ms, n=100)[98] if len(ms) > 1 else ms[0]
    return statistics.median(ms), p99


def _missing(game, level: str) -> bool:
    return level != RANDOM and level not in game.bots


def _counts(name: str, counts: list[int] | None) -> list[int]:
    allowed = PLAYER_COUNTS.get(name) or (GAMES[name].min_players,)
    return [n for n in allowed if counts is None or n in counts]


def parse(argv: list[str]) -> argparse.Namespace:
    with_bots = sorted(name for name, game in GAMES.items() if game.bots)
    parser = argparse.ArgumentParser(
        prog="python -m bench bots", description="Computer players' strength, level by level."
    )
    parser.add_argument("--game", action="append", choices=with_bots, help="repeatable")
    parser.add_argument("--players", type=int, nargs="+", help="player counts to measure")
    default_games = int(os.environ.get("HOLMES_BENCH_BOTS_GAMES", "400"))
    parser.add_argument("--games", type=int, default=default_games, help="seeded games a line")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    options = parser.parse_args(argv)
    if options.games < 1:
        parser.error("--games is at least 1.")
    options.game = options.game or with_bots
    return options


def main(argv: list[str] | None = None) -> None:
    options = parse(argv or [])
    for report in measure(options.game, options.players, options.games, options.workers):
        print(report, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
