"""The worked example of day 1, move by move, with every seat's view.

Both decks are stacked, so no card is drawn from the generator and any seed gives the
same game. The golden file ``golden/day_one.txt`` holds each viewer's full view after
set-up, then, after each action, the events that viewer got and every entry of its view
that changed. After an intended change, regenerate it with
``HOLMES_REGENERATE_GOLDEN=1 pytest tests/games/sherlock_mycroft/test_worked_example.py``
and read the diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from games.base import events_for
from games.sherlock_mycroft import private_items, rules

from .helpers import ALICE, BOB, all_cards, move, play, refused

GOLDEN = Path(__file__).parent / "golden" / "day_one.txt"
TOP = [
    "button-1",
    "fingerprint-1",
    "map-1",
    "wild-1",
    "cigarette-1",
    "bullet-1",
    "footprint-1",
    "explosive-1",
    "false_pass-1",
    "fingerprint-2",
]
CHARACTERS = [
    "langdale_pike",
    "toby",
    "von_kramm",
    "irene_adler",
    "gregson",
    "wiggins",
    "billy",
    "violet_hunter",
    "shinwell_johnson",
]
ACTIONS = [
    (ALICE, move("lestrade", {"take": ["fingerprint-1", "wild-1"]})),
    (BOB, move("mrs_hudson", {})),
    (ALICE, move("mrs_hudson", {})),
    (BOB, move("watson", {"take": ["button-1"]})),
    (ALICE, move("langdale_pike", {"look": 1})),
    (ALICE, {"type": "keep", "card": "explosive-1"}),
    (BOB, move("langdale_pike", {"look": 2})),
    (BOB, {"type": "keep", "card": "fingerprint-2"}),
]
# After each action: alice's markers, bob's, the reserve; the line; the deck's size.
EXPECTED = [
    (2, 5, 17, ["button-1", "map-1", "cigarette-1", "bullet-1"], 46),
    (2, 8, 14, ["button-1", "map-1", "cigarette-1", "bullet-1"], 46),
    (5, 8, 11, ["button-1", "map-1", "cigarette-1", "bullet-1"], 46),
    (5, 7, 12, ["map-1", "cigarette-1", "bullet-1", "footprint-1"], 45),
    (4, 7, 13, ["map-1", "cigarette-1", "bullet-1", "footprint-1"], 44),
    (4, 7, 13, ["map-1", "cigarette-1", "bullet-1", "footprint-1"], 44),
    (4, 5, 15, ["map-1", "cigarette-1", "bullet-1", "footprint-1"], 42),
    (4, 5, 15, ["map-1", "cigarette-1", "bullet-1", "footprint-1"], 42),
]
PRIVATE = [
    (set(), set()),
    (set(), set()),
    (set(), set()),
    (set(), set()),
    ({"explosive-1"}, set()),
    ({"explosive-1"}, set()),
    ({"explosive-1"}, {"false_pass-1", "fingerprint-2"}),
    ({"explosive-1"}, {"fingerprint-2"}),
]


def example_start(seed: int = 1) -> dict:
    clues = [*TOP, *(c for c in rules.CLUE_IDS if c not in TOP)]
    config = {"first": 0, "stack": {"clues": clues, "characters": CHARACTERS}}
    return rules.setup(config, ["alice", "bob"], seed)


def test_it_sets_up_the_example():
    state = example_start()

    assert state["line"] == ["button-1", "fingerprint-1", "map-1", "wild-1"]
    assert len(state["deck"]) == 48
    assert (state["tokens"], state["reserve"]) == ([5, 5], 14)
    assert [c["id"] for c in state["board"]] == [
        "watson",
        "mrs_hudson",
        "lestrade",
        "langdale_pike",
        "toby",
    ]
    assert (state["turn"], state["step"]) == (0, "move")


def test_it_plays_the_example_move_by_move():
    state = example_start()
    for index, (seat, action) in enumerate(ACTIONS):
        state, _ = play(state, seat, action)
        alice, bob, reserve, line, deck = EXPECTED[index]
        assert (state["tokens"], state["reserve"]) == ([alice, bob], reserve), index
        assert state["line"] == line and len(state["deck"]) == deck, index
        assert (private_items(state, ALICE), private_items(state, BOB)) == PRIVATE[index]
        assert sorted(all_cards(state)) == sorted(rules.CLUE_IDS)
        if index < 7:
            assert state["day"] == 1


def test_it_refuses_the_examples_wrong_moves():
    state = example_start()
    too_many = move("lestrade", {"take": ["map-1", "wild-1", "button-1"]})
    assert refused(state, ALICE, too_many) == "wrong_count"
    for seat, action in ACTIONS[:2]:
        state, _ = play(state, seat, action)
    assert refused(state, ALICE, move("lestrade")) == "own_marker_there"
    for seat, action in ACTIONS[2:5]:
        state, _ = play(state, seat, action)
    assert (state["step"], state["turn"]) == ("keep", ALICE)
    assert refused(state, BOB, {"type": "keep", "card": "explosive-1"}) == "not_your_turn"
    assert refused(state, ALICE, move("watson")) == "wrong_step"


def played_example(seed: int = 1) -> tuple[dict, list]:
    state, log = example_start(seed), []
    for seat, action in ACTIONS:
        state, events = play(state, seat, action)
        log += events
    return state, log


def test_it_ends_day_one_and_starts_day_two_by_itself():
    state, log = played_example()

    assert (state["day"], state["step"], state["turn"]) == (2, "move", ALICE)
    faces = {card["id"]: card["face_up"] for card in state["board"]}
    assert faces == {
        "watson": True,
        "mrs_hudson": True,  # both colours, but permanent
        "lestrade": True,
        "langdale_pike": False,  # both colours: spent
        "toby": True,
        "von_kramm": True,
    }
    assert all(m["standing"] for markers in state["markers"] for m in markers)
    assert {a["to"] for a in rules.legal_actions(state, ALICE)} == {
        "watson",
        "toby",
        "von_kramm",
    }
    ended = next(e for e in log if e.type == "day_ended")
    assert ended.data["spent"] == ["langdale_pike"]


def test_it_shows_each_seat_the_day_two_view_of_the_example():
    state, log = played_example()
    alice = rules.view(state, ALICE)

    assert alice["day"] == 2 and alice["step"] == "move" and alice["turn"] == 0
    assert alice["line"] == ["map-1", "cigarette-1", "bullet-1", "footprint-1"]
    assert (alice["deck_count"], alice["discard_count"]) == (42, 1)
    assert (alice["character_deck_count"], alice["reserve"]) == (6, 15)
    players = [(p["tokens"], p["visible"], p["hidden_count"]) for p in alice["players"]]
    assert players == [(4, ["fingerprint-1", "wild-1"], 1), (5, ["button-1"], 1)]
    assert alice["private"]["hidden"] == ["explosive-1"]
    bob = rules.view(state, BOB)
    assert bob["private"]["hidden"] == ["fingerprint-2"]
    assert {k: v for k, v in bob.items() if k not in ("private", "you", "kinds")} == {
        k: v for k, v in alice.items() if k not in ("private", "you", "kinds")
    }
    spectator = rules.view(state, None)
    assert spectator["you"] is None and spectator["private"] is None
    public_log = json.dumps([e.to_dict() for e in events_for(log, None)])
    assert "looked_cards" not in public_log and "hidden_card" not in public_log
    assert sum(state["tokens"]) + state["reserve"] == 24


def test_it_gives_the_same_example_for_any_seed():
    one, other = played_example(1)[0], played_example(99)[0]

    assert {**one, "rng": None} == {**other, "rng": None}  # only the unused generator differs


# --- The golden file ----------------------------------------------------------------------

VIEWERS = [(ALICE, "alice"), (BOB, "bob"), (None, "spectator")]


def compact(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def flatten(value, prefix: str = "") -> dict[str, str]:
    """A view's leaves by dotted path: ``players.0.tokens`` -> ``5``."""
    if isinstance(value, dict) and value:
        items = value.items()
    elif isinstance(value, list) and value:
        items = enumerate(value)
    else:
        return {prefix: compact(value)}
    leaves = {}
    for key, child in items:
        leaves.update(flatten(child, f"{prefix}.{key}" if prefix else str(key)))
    return leaves


def transcript() -> str:
    state = example_start()
    lines = ["# set-up"]
    before = {}
    for seat, name in VIEWERS:
        before[name] = flatten(rules.view(state, seat))
        lines.append(f"  {name}:")
        lines += [f"    {path} = {value}" for path, value in before[name].items()]
    for number, (actor, action) in enumerate(ACTIONS, start=1):
        state, events = play(state, actor, action)
        lines.append(f"# {number}. seat {actor}: {compact(action)}")
        for seat, name in VIEWERS:
            after = flatten(rules.view(state, seat))
            lines.append(f"  {name}:")
            lines += [f"    event {compact(e.to_dict())}" for e in events_for(events, seat)]
            lines += [
                f"    {path} = {value}"
                for path, value in after.items()
                if before[name].get(path) != value
            ]
            lines += [f"    {path} -" for path in before[name] if path not in after]
            before[name] = after
    return "\n".join(lines) + "\n"


def test_it_matches_the_golden_views_of_the_example():
    text = transcript()
    if os.environ.get("HOLMES_REGENERATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
