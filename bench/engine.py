"""Speed of the watson_holmes rules engine on seeded random playouts.

For 2, 4 and 7 players, plays whole random games (every seat and the server choosing
among the listed legal actions) for a few seconds each and prints:

- ``apply``: microseconds per call and the actions per second that alone allows;
- ``playout``: actions per second including ``legal_actions`` for every seat and the
  choice, which is what a random-playout test or a bot pays.
"""

from __future__ import annotations

import random
import time

from games.base import SYSTEM
from games.watson_holmes import rules as engine

PLAYER_COUNTS = (2, 4, 7)
SECONDS_PER_COUNT = 6.0
NAMES = ["alice", "bob", "charlie", "dave", "erin", "frank", "grace"]
ICONS = [
    ["police", "call_off"],
    ["lockpick"],
    ["carriages"],
    ["no_watson"],
    ["no_police"],
    ["locked"],
    [],
    [],
    ["call_off"],
    [],
    ["police"],
    [],
]


def bench_case(size: int = 24) -> dict:
    return {
        "locations": [
            {
                "number": n,
                "name": f"Location {n}",
                "text": f"Clue number {n}. " * 40,
                "icons": ICONS[n % len(ICONS)],
                "carriages": 2,
            }
            for n in range(1, size + 1)
        ],
        "questions": [
            {"id": "culprit", "ask": "Who?", "kind": "person"},
            {"id": "motive", "ask": "Why?", "kind": "text"},
            {"id": "weapon", "ask": "With what?", "kind": "text"},
        ],
        "zones": None,
        "start": {},
    }


def choose(state: dict, rnd: random.Random) -> tuple[object, dict]:
    actors = [*range(len(state["players"])), SYSTEM]
    moves = [
        (a, m) for a in actors for m in engine.legal_actions(state, a) if m["type"] != "timeout"
    ]
    actor, action = rnd.choice(moves)
    if action["type"] == "judged":
        verdict = "correct" if rnd.random() < 0.3 else "wrong"
        action = {**action, "verdicts": {qid: verdict for qid in action["verdicts"]}}
    return actor, action


def run(count: int, seconds: float) -> dict:
    config = {"case": bench_case(), "options": {}}
    rnd = random.Random(count)
    actions = games = 0
    apply_time = 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = engine.setup(config, NAMES[:count], games)
        games += 1
        while not engine.is_over(state) and actions < 10**7:
            actor, action = choose(state, rnd)
            before = time.perf_counter()
            state, _ = engine.apply(state, actor, action)
            apply_time += time.perf_counter() - before
            actions += 1
    total = time.perf_counter() - started
    return {"games": games, "actions": actions, "apply": apply_time, "total": total}


def main() -> None:
    print(f"watson_holmes: seeded random playouts, about {SECONDS_PER_COUNT:.0f} s per table size")
    for count in PLAYER_COUNTS:
        figures = run(count, SECONDS_PER_COUNT)
        per_apply = figures["apply"] / figures["actions"] * 1e6
        print(
            f"  {count} players: {figures['games']:5d} games, {figures['actions']:7d} actions | "
            f"apply {per_apply:6.1f} us ({figures['actions'] / figures['apply']:8.0f} actions/s) | "
            f"playout with legal_actions {figures['actions'] / figures['total']:7.0f} actions/s"
        )


if __name__ == "__main__":
    main()
