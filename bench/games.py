"""The card games' engines and computer players, in-process (no database).

For each registered game played without a case:
- the engine's speed on seeded random playouts: actions applied per second and
  microseconds per `apply` (one core; choosing the moves is not counted);
- its computer player against uniformly random legal players: the bot's win rate (it
  takes each seat in turn) and its decision time (p50, p99).

`python -m bench games` runs it; HOLMES_BENCH_GAMES_QUICK=1 plays a tenth of the games.
"""

from __future__ import annotations

import os
import random
import statistics
import time

from games import GAMES
from games.base import SYSTEM, Refusal
from games.holmes_elementary.rules.state import split_ids

# Per game: the table sizes to time, and the bot match (players, games, the goal).
PLAN = {
    "sherlock_mycroft": {"sizes": (2,), "match": (2, 1000, 0.80)},
    "i_say_holmes": {"sizes": (3, 5, 8), "match": (4, 500, 0.40)},
    "holmes_elementary": {"sizes": (2, 4, 6), "match": (3, 500, 0.60)},
}
PLAYOUTS_PER_SIZE = 20
MAX_STEPS = 5000


def main() -> None:
    quick = os.environ.get("HOLMES_BENCH_GAMES_QUICK") == "1"
    for name in sorted(GAMES):
        game = GAMES[name]
        if game.needs_case or name not in PLAN:
            continue
        plan = PLAN[name]
        print(f"{game.title} ({name})")
        for players in plan["sizes"]:
            speed(game, players)
        players, games, goal = plan["match"]
        match(game, players, max(10, games // 10) if quick else games, goal)
        if name == "holmes_elementary":  # under its own heading, not the next game's
            discard_look(game, 30 if quick else 300)


def speed(game, players: int) -> None:
    """Seeded random playouts: only the time spent in `apply` is counted."""
    rules = game.rules
    applied, spent = 0, 0.0
    for seed in range(1, PLAYOUTS_PER_SIZE + 1):
        rng = random.Random(seed)
        state = rules.setup(game.example_config(players), _names(players), seed)
        for _ in range(MAX_STEPS):
            if rules.is_over(state):
                break
            actor, action = _random_move(rules, state, players, rng)
            started = time.perf_counter()
            result = rules.apply(state, actor, action)
            spent += time.perf_counter() - started
            assert not isinstance(result, Refusal), result
            state = result[0]
            applied += 1
    per_apply = spent / applied * 1e6
    print(
        f"  {players} players: {applied / spent:,.0f} actions/s, {per_apply:.1f} µs per apply "
        f"({applied} actions in {PLAYOUTS_PER_SIZE} random games)"
    )


def match(game, players: int, games: int, goal: float) -> None:
    """The bot in one seat (each seat in turn), random legal players in the others."""
    rules = game.rules
    wins = draws = 0
    decisions: list[float] = []
    for number in range(games):
        seed = 10_000 + number
        bot_seat = number % players
        rng = random.Random(seed)
        state = rules.setup(game.example_config(players), _names(players), seed)
        for _ in range(MAX_STEPS):
            if rules.is_over(state):
                break
            waiting = rules.waiting_for(state)
            if bot_seat in waiting:
                view = rules.view(state, bot_seat)
                legal = rules.legal_actions(state, bot_seat)
                started = time.perf_counter()
                action = game.bot(view, bot_seat, legal, rng.randrange(2**31))
                decisions.append(time.perf_counter() - started)
                actor = bot_seat
            else:
                actor, action = _random_move(rules, state, players, rng, exclude=bot_seat)
            state = rules.apply(state, actor, action)[0]
        winners = (rules.outcome(state) or {}).get("winners", [])
        if winners == [bot_seat]:
            wins += 1
        elif bot_seat in winners:
            draws += 1
    rate = wins / games
    p50 = statistics.median(decisions) * 1000
    p99 = statistics.quantiles(decisions, n=100)[98] * 1000
    verdict = "met" if rate >= goal else "NOT met"
    print(
        f"  bot vs {players - 1} random: won {wins}/{games} ({rate:.1%}; shared wins {draws}); "
        f"goal {goal:.0%} {verdict}; decision p50 {p50:.2f} ms, p99 {p99:.2f} ms "
        f"({len(decisions)} decisions)"
    )


def discard_look(game, games: int) -> None:
    """Does the private look at the discard pile make guessing a spot too easy? Bots play
    3-player games with the look allowed and without it: spots guessed right per game,
    wrong guesses, and the game's length in rounds."""
    option = next((o for o in game.options if o.name == "discard_look"), None)
    if option is None:
        print("  discard look: the game has no discard_look option; not measured")
        return
    rules = game.rules
    for allowed in (True, False):
        right = wrong = rounds = 0
        for number in range(games):
            seed = 20_000 + number
            config = game.example_config(3)
            config["options"] = {**config["options"], "discard_look": allowed}
            state = rules.setup(config, _names(3), seed)
            rng = random.Random(seed)
            for _ in range(MAX_STEPS):
                if rules.is_over(state):
                    break
                seat = rules.waiting_for(state)[0]
                legal = rules.legal_actions(state, seat)
                action = game.bot(rules.view(state, seat), seat, legal, rng.randrange(2**31))
                state = rules.apply(state, seat, action)[0]
            right += len(state["emptied_by"])
            wrong += sum(len(split_ids(player["wrong"])) for player in state["players"])
            rounds += state["round"]
        print(
            f"  discard look {'allowed' if allowed else 'not allowed'}: {right / games:.2f} "
            f"spots guessed right and {wrong / games:.2f} wrong per game, "
            f"{rounds / games:.1f} rounds ({games} bot-only 3-player games)"
        )


def _random_move(rules, state, players: int, rng, exclude: int | None = None):
    """A uniformly random legal move of a seat the game waits for (the server's timeout
    only when no seat may move)."""
    waiting = [seat for seat in rules.waiting_for(state) if seat != exclude]
    for seat in rng.sample(waiting, len(waiting)):
        legal = rules.legal_actions(state, seat)
        if legal:
            return seat, rng.choice(legal)
    return SYSTEM, {"type": "timeout"}


def _names(players: int) -> list[str]:
    return [f"player {n + 1}" for n in range(players)]


if __name__ == "__main__":
    main()
