"""The rules' four-player worked example, as a golden file of every seat's view.

The seed (12) deals exactly the example's hands with the shared generator, so no state is
built by hand. The file lists each viewer's full view after set-up, then for every action
(refused ones too) the refusal or the events each viewer got, and every entry of each view
that changed (``path = value``; ``path -`` when it went away).

After an intended change, regenerate with
``HOLMES_REGENERATE_GOLDEN=1 pytest tests/games/i_say_holmes/test_worked_example.py`` and
read the diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from games.base import Refusal, events_for
from games.i_say_holmes import rules

GOLDEN = Path(__file__).parent / "golden" / "worked_example_4_players.txt"
NAMES = ["alice", "bob", "charlie", "dana"]
VIEWERS = [*enumerate(NAMES), (None, "spectator")]

# (seat, action, the refusal expected or None)
SCRIPT = [
    (1, {"type": "draw"}, "must_play"),
    (1, {"type": "play", "card": "hansom-1"}, None),
    (2, {"type": "play", "card": "train-1"}, "not_suitable"),
    (2, {"type": "play", "card": "westend-1"}, None),
    (3, {"type": "play", "card": "lestrade-1", "target": 2, "token": "pipe"}, "bad_token"),
    (3, {"type": "play", "card": "lestrade-1", "target": 2}, None),
    (2, {"type": "allow"}, None),
    (0, {"type": "play", "card": "telegram-1", "target": 1}, None),
    (1, {"type": "counter", "card": "alibi-1"}, "alibi_not_allowed"),
    (1, {"type": "allow"}, None),
    (1, {"type": "play", "card": "clue-1", "target": 2}, None),
    (2, {"type": "allow"}, None),
    (2, {"type": "play", "card": "disguise-1", "target": 3}, None),
    (3, {"type": "allow"}, None),
    (3, {"type": "choose", "card": "bakerst-1"}, None),
    (3, {"type": "draw"}, "must_play"),
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


def playthrough() -> tuple[str, list[dict]]:
    state = rules.setup({}, NAMES, 12)
    states = [state]
    lines = ["# set-up, seed 12"]
    views = {}
    for seat, name in VIEWERS:
        views[seat] = flatten(rules.view(state, seat))
        lines.append(f"  view of {name}:")
        lines += [f"    {path} = {value}" for path, value in views[seat].items()]
    for number, (actor, action, expected) in enumerate(SCRIPT, 1):
        lines.append(f"# {number}. {NAMES[actor]} {compact(action)}")
        result = rules.apply(state, actor, action)
        if isinstance(result, Refusal):
            assert result.code == expected, (number, result)
            lines.append(f"  refused: {result.code}: {result.message}")
            continue
        assert expected is None, (number, expected)
        state, events = result
        states.append(state)
        for seat, name in VIEWERS:
            seen = [compact(event.to_dict()) for event in events_for(events, seat)]
            after = flatten(rules.view(state, seat))
            lines.append(f"  {name} events: " + (" ".join(seen) or "none"))
            lines += [
                f"    {path} = {value}"
                for path, value in after.items()
                if views[seat].get(path) != value
            ]
            lines += [f"    {path} -" for path in views[seat] if path not in after]
            views[seat] = after
    return "\n".join(lines) + "\n", states


def test_it_plays_the_worked_example_as_the_golden_file_says():
    text, _ = playthrough()
    if os.environ.get("HOLMES_REGENERATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def test_it_reaches_the_worked_examples_milestones():
    _, states = playthrough()
    counts = [[len(hand) for hand in state["hands"]] for state in states]

    assert states[0]["hands"][0] == [
        "suspicion-1",
        "dartmoor-1",
        "telegram-1",
        "arrest-1",
        "london-1",
    ]
    assert states[0]["draw"][0] == "detective-4" and len(states[0]["draw"]) == 101
    assert counts[0] == [5, 6, 6, 6] and states[0]["current"] == {"card": "afoot", "holder": 1}
    after_look = states[4]
    assert after_look["seen"][3][0]["cards"] == [
        "detective-1",
        "moriarty",
        "train-1",
        "clue-2",
        "disguise-1",
    ]
    assert after_look["turn"]["seat"] == 0 and counts[4] == [5, 5, 5, 5]
    after_wire = states[6]
    assert after_wire["holdings"][1]["telegrams"] == ["tg1"]
    assert len(after_wire["pool"]["telegrams"]) == 7
    after_clue = states[8]
    assert after_clue["seen"][1][-1]["cards"] == ["disguise-1", "detective-1"]
    assert counts[8] == [4, 4, 5, 5]
    showing = states[10]
    assert rules.legal_actions(showing, 3) == [{"type": "choose", "card": "bakerst-1"}]
    final = states[11]
    assert final["seen"][2][-1] == {"from": 3, "cards": ["bakerst-1"], "how": "show", "epoch": 0}
    assert final["current"] == {"card": "disguise-1", "holder": 3}
    assert final["turn"]["seat"] == 3
