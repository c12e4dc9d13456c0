"""Golden record of the worked example: every viewer's events and view after each action.

``golden/worked_example.txt`` holds each viewer's whole view after set-up, then, for each
action, the events each viewer got and every entry of its view that changed
(``path = value``, or ``path -`` when it went away). After an intended change to the
rules or the views, regenerate it with
``HOLMES_REGENERATE_GOLDEN=1 pytest tests/games/holmes_elementary/test_golden.py`` and
read the diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from games.base import Refusal, events_for
from games.holmes_elementary import rules

GOLDEN = Path(__file__).parent / "golden" / "worked_example.txt"
VIEWERS = [(0, "alice"), (1, "bob"), (2, "charlie"), (None, "spectator")]
STEPS = [
    (0, {"type": "play", "card": "H03", "target": 2}),
    (2, {"type": "pass"}),
    (0, {"type": "pass"}),
    (0, {"type": "guess", "suit": "X", "rank": 11}),
    (0, {"type": "draw_discard"}),
    (0, {"type": "discard", "cards": ["C10"]}),
    (1, {"type": "play", "card": "A02", "target": 0}),
    (1, {"type": "pass"}),
    (0, {"type": "discard", "cards": ["S03", "S04"]}),
    (1, {"type": "view_discard"}),
]


def compact(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def flatten(value, prefix: str = "") -> dict[str, str]:
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


def playthrough() -> str:
    state = rules.setup({}, ["alice", "bob", "charlie"], 7)
    views = {name: flatten(rules.view(state, seat)) for seat, name in VIEWERS}
    lines = ["# set-up"]
    for _, name in VIEWERS:
        lines.append(f"  {name}:")
        lines += [f"    {path} = {value}" for path, value in views[name].items()]
    for actor, action in STEPS:
        lines.append(f"# {actor}: {compact(action)}")
        result = rules.apply(state, actor, action)
        if isinstance(result, Refusal):
            lines.append(f"  refused: {result.code}")
            continue
        state, events = result
        for seat, name in VIEWERS:
            lines.append(f"  {name}:")
            lines += [f"    event {compact(e.to_dict())}" for e in events_for(events, seat)]
            after = flatten(rules.view(state, seat))
            before = views[name]
            lines += [f"    {p} = {v}" for p, v in after.items() if before.get(p) != v]
            lines += [f"    {p} -" for p in before if p not in after]
            views[name] = after
    return "\n".join(lines) + "\n"


def test_it_matches_the_golden_record_of_the_worked_example():
    text = playthrough()
    if os.environ.get("HOLMES_REGENERATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def spectator_lines(text: str) -> list[str]:
    """What the spectator got after each action: its events and its view's changes."""
    lines, viewer = [], None
    for line in text.splitlines():
        if line.startswith("#"):
            viewer = None
        elif line.startswith("  ") and not line.startswith("    "):
            viewer = line.strip().rstrip(":")
        elif viewer == "spectator" and not line.startswith("# set-up"):
            lines.append(line)
    return lines


def test_it_names_no_card_to_the_spectator_but_the_two_played():
    after_setup = GOLDEN.read_text().split("\n# 0:", 1)[1]
    text = "\n".join(spectator_lines(after_setup))
    named = {
        f"{suit}{rank:02d}"
        for suit in "XSHAMCL"
        for rank in range(1, 11)
        if f'"{suit}{rank:02d}"' in text
    }
    assert named == {"H03", "A02"}
