"""Golden playthrough: a seeded 3-player game with every player's view after each action.

The file lists each viewer's full view after set-up, then after every action the events
each viewer got and every entry of their view that changed (``path = value``; ``path -``
for an entry that went away), so each view at each step can be rebuilt exactly while the
file stays small enough to read.

Any change to the rules or to what players see shows up as a diff of
``golden/watson_holmes_3_players.txt``. After an intended change, regenerate it with
``HOLMES_REGENERATE_GOLDEN=1 pytest tests/games/test_watson_holmes_golden.py`` and read the
diff before committing it.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from games.base import Refusal, events_for
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import NAMES, make_case
from tests.games.watson_holmes_playout import RandomTable

GOLDEN = Path(__file__).parent / "golden" / "watson_holmes_3_players.txt"
SEED = 395  # chosen for coverage: every phase, Watson, police, Holmes card, a ruling
PLAYERS = NAMES[:3]
MAX_STEPS = 200


def compact(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


VIEWERS = [*enumerate(PLAYERS), (None, "spectator")]


def flatten(value, prefix: str = "") -> dict[str, str]:
    """Leaves of a view by dotted path: ``players.0.carriages`` -> ``10``."""
    if isinstance(value, dict) and value:
        items = value.items()
    elif isinstance(value, list) and value:
        items = enumerate(value)
    else:
        return {prefix: compact(value)}
    flat = {}
    for key, child in items:
        flat.update(flatten(child, f"{prefix}.{key}" if prefix else str(key)))
    return flat


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    lines = [f"    {path} = {value}" for path, value in after.items() if before.get(path) != value]
    lines += [f"    {path} -" for path in before if path not in after]
    return lines


def playthrough() -> str:
    config = {"case": make_case(), "options": {"play_on": True}}
    state = engine.setup(config, PLAYERS, SEED)
    # The server's timer never fires here: a table that plays every move is easier to read.
    table = RandomTable(random.Random(SEED), solve_rate=0.3, skip=("timeout",))
    lines = [f"# watson_holmes, seed {SEED}, players {', '.join(PLAYERS)}", "## setup"]
    seen = {}
    for seat, name in VIEWERS:
        seen[name] = flatten(engine.view(state, seat))
        lines.append(f"  {name} view: {compact(engine.view(state, seat))}")
    for step in range(1, MAX_STEPS + 1):
        if engine.is_over(state):
            break
        actor, action = table.choose(state)
        result = engine.apply(state, actor, action)
        assert not isinstance(result, Refusal), (actor, action, result)
        state, events = result
        who = PLAYERS[actor] if isinstance(actor, int) else actor
        lines.append(f"## {step}: {who} {compact(action)}")
        for seat, name in VIEWERS:
            got = [event.to_dict() for event in events_for(events, seat)]
            now = flatten(engine.view(state, seat))
            lines.append(f"  {name} events: {compact(got)}")
            lines.append(f"  {name} view changes:")
            lines += changes(seen[name], now)
            seen[name] = now
    lines.append(f"## outcome {compact(engine.outcome(state))}")
    return "\n".join(lines) + "\n"


def test_it_replays_the_golden_playthrough():
    played = playthrough()
    if os.environ.get("HOLMES_REGENERATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(played)
    assert GOLDEN.exists(), "no golden file: run with HOLMES_REGENERATE_GOLDEN=1"
    expected = GOLDEN.read_text()
    assert played == expected, "the playthrough differs from the golden file; see its docstring"


def test_it_ends_the_golden_game():
    assert "## outcome null" not in GOLDEN.read_text()
