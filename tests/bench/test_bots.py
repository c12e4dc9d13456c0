"""`python -m bench bots` plays every line it prints, and its counts add up."""

import re

import pytest

from bench import bots
from bench.__main__ import main as bench_main
from games import GAMES
from games.base import BOT_LEVELS


def test_it_prints_a_line_for_every_match_and_level_of_a_game(capsys):
    assert bench_main(["bots", "--game", "sherlock_mycroft", "--games", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    game = GAMES["sherlock_mycroft"]

    assert "Sherlock & Mycroft (sherlock_mycroft)" in out
    assert "2 players (fair share 50.0%, goal ≥60%)" in out
    for label, test, others in bots.matches_for(game):
        line = next(line for line in out.splitlines() if line.strip().startswith(label))
        missing = [
            level for level in (test, others) if level in BOT_LEVELS and level not in game.bots
        ]
        if missing:
            assert f"no {missing[0]} bot yet" in line
        else:
            assert re.search(r"won +\d+\.\d% \([\d.]+/2: \d+ outright, \d+ shared\)", line), line
    assert re.search(
        r"seat balance +normal bots in every seat: seat 1 [\d.]+%, seat 2 [\d.]+%", out
    )
    assert re.search(
        r"decision time: normal p50/p99 [\d.]+/[\d.]+ ms wall, [\d.]+/[\d.]+ ms CPU", out
    )


@pytest.mark.parametrize("players", [3, 4])
def test_the_wins_of_every_seat_add_up_to_the_games_with_a_winner(players):
    seeds = list(range(bots.FIRST_SEED, bots.FIRST_SEED + 5))

    tally = bots.play_games("i_say_holmes", players, "normal", bots.RANDOM, seeds)

    assert tally.games == 5
    assert sum(tally.by_position) + tally.no_winner == pytest.approx(5)
    assert tally.outright + tally.shared <= 5
    assert tally.decisions["normal"] and bots.RANDOM not in tally.decisions


def test_the_seat_under_test_takes_every_position_in_turn():
    seeds = list(range(bots.FIRST_SEED, bots.FIRST_SEED + 4))
    one_by_one = [
        bots.play_games("sherlock_mycroft", 2, "normal", "normal", [seed]) for seed in seeds
    ]
    together = bots.play_games("sherlock_mycroft", 2, "normal", "normal", seeds)

    # All-normal games: the seat under test wins exactly when its position does.
    for seed, alone in zip(seeds, one_by_one, strict=True):
        assert alone.wins == alone.by_position[seed % 2]
    assert together.wins == pytest.approx(sum(alone.wins for alone in one_by_one))


def test_two_workers_give_the_figures_one_gives():
    keys = [("sherlock_mycroft", 2, "normal", bots.RANDOM)]
    bots_chunk, bots.CHUNK = bots.CHUNK, 2  # several tasks, so the pool really runs
    try:
        alone = bots.run_all(keys, 4, workers=1)[keys[0]]
        pooled = bots.run_all(keys, 4, workers=2)[keys[0]]
    finally:
        bots.CHUNK = bots_chunk

    assert (pooled.games, pooled.wins, pooled.by_position) == (4, alone.wins, alone.by_position)
    assert len(pooled.decisions["normal"]) == len(alone.decisions["normal"])


def test_a_goal_is_sixty_percent_head_to_head_and_one_and_a_half_fair_shares_beyond():
    assert bots.goal_for(2) == 0.60
    assert bots.goal_for(4) == pytest.approx(0.375)
