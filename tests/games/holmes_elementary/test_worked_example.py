"""The three-player worked example, step by step: the shared generator with seed 7 deals
exactly the example's cards, so the state comes from ``setup`` itself."""

from __future__ import annotations

import json

import pytest

from games.holmes_elementary import GAME, rules
from tests.games.holmes_elementary.helpers import act, hand, refused, seen_by, types

ALICE, BOB, CHARLIE = 0, 1, 2


def ids(cards: str) -> list[str]:
    return cards.split()


@pytest.fixture
def start() -> dict:
    return rules.setup({}, ["alice", "bob", "charlie"], 7)


def counts(state: dict) -> list[int]:
    return [len(player["hand"]) for player in state["players"]]


def test_it_deals_the_example(start):
    assert start["spots"] == {
        "X": "X08", "S": "S05", "H": "H07", "A": "A04", "M": "M05", "C": "C06", "L": "L09",
    }  # fmt: skip
    assert hand(start, ALICE) == ids("X10 S03 S04 H03 M04 C09 C10")
    assert hand(start, BOB) == ids("S07 H08 A02 C01 L07")
    assert hand(start, CHARLIE) == ids("S10 H05 H06 M07 L02")
    assert start["deck"][:3] == ids("M03 C08 A09") and start["deck"][-1] == "H04"
    for viewer in (ALICE, BOB, CHARLIE, None):
        view = rules.view(start, viewer)
        assert [p["hand_count"] for p in view["players"]] == [7, 5, 5]
        assert (view["deck_count"], view["discard_count"]) == (46, 0)
        assert (view["phase"], view["waiting_for"]) == ("action", [ALICE])


def test_it_plays_the_example_through(start):
    # 1. Help on charlie: alice draws M03, charlie loses H05 at random.
    state, events = act(start, ALICE, {"type": "play", "card": "H03", "target": CHARLIE})
    assert types(events) == ["played", "drew", "drew_cards", "discarded", "discarded_cards"]
    assert '"H05"' in seen_by(events, CHARLIE)
    assert '"H05"' not in seen_by(events, ALICE) + seen_by(events, BOB)
    assert '"M03"' not in seen_by(events, BOB)
    assert counts(state) == [7, 5, 4] and len(state["deck"]) == 45
    assert len(state["discard"]) == 2 and state["phase"] == "sleuth"
    assert hand(state, ALICE) == ids("X10 S03 S04 M03 M04 C09 C10")
    assert hand(state, CHARLIE) == ids("S10 H06 M07 L02")
    assert refused(state, CHARLIE, {"type": "pass"}) == "not_your_turn"

    # 2. alice passes Sleuth; a rank of 11 is no rank.
    state, _ = act(state, ALICE, {"type": "pass"})
    assert state["phase"] == "deduction"
    assert refused(state, ALICE, {"type": "guess", "suit": "X", "rank": 11}) == "bad_rank"

    # 3. Draw one (C08), discard one: the engine waits for alice.
    state, events = act(state, ALICE, {"type": "draw_discard"})
    assert types(events) == ["drew", "drew_cards", "choice_requested"]
    assert events[2].data == {"player": ALICE, "kind": "deduction", "count": 1}
    assert "C08" in hand(state, ALICE) and counts(state)[ALICE] == 8

    # 4. alice throws C10 away; bob's turn starts and he draws A09 and X06.
    state, events = act(state, ALICE, {"type": "discard", "cards": ["C10"]})
    assert types(events) == [
        "discarded", "discarded_cards", "turn_started", "drew", "drew_cards",
    ]  # fmt: skip
    assert events[2].data == {"player": BOB, "round": 1}
    assert events[4].audience == (BOB,) and events[4].data["cards"] == ["X06", "A09"]
    assert hand(state, ALICE) == ids("X10 S03 S04 M03 M04 C08 C09")
    assert hand(state, BOB) == ids("X06 S07 H08 A02 A09 C01 L07")
    assert counts(state) == [7, 7, 4] and len(state["deck"]) == 42
    assert len(state["discard"]) == 3

    # 5. Action on alice: she chooses two cards; bob must wait for her.
    state, events = act(state, BOB, {"type": "play", "card": "A02", "target": ALICE})
    assert types(events) == ["played", "choice_requested"]
    view = rules.view(state, None)
    assert (view["waiting_for"], view["phase"]) == ([ALICE], "action")
    assert refused(state, BOB, {"type": "pass"}) == "waiting_for_choice"

    # 6. alice discards S03 and S04; bob goes on to Sleuth.
    state, events = act(state, ALICE, {"type": "discard", "cards": ["S03", "S04"]})
    assert events[0].data == {"player": ALICE, "count": 2, "reason": "action"}
    assert events[1].audience == (ALICE,)
    assert (state["phase"], rules.waiting_for(state)) == ("sleuth", [BOB])
    assert counts(state) == [5, 6, 4]

    # 7. bob looks at the discard pile, passing Sleuth; charlie's turn starts.
    state, events = act(state, BOB, {"type": "view_discard"})
    assert events[0].data == {"player": BOB, "count": 6}
    assert events[1].audience == (BOB,)
    assert events[1].data == {"cards": ids("S03 S04 H03 H05 A02 C10")}
    assert rules.view(state, BOB)["you"]["last_look"]["cards"] == ids("S03 S04 H03 H05 A02 C10")
    assert types(events)[2:] == ["turn_started", "drew", "drew_cards"]
    assert events[-1].data["cards"] == ids("S08 H02 H09")

    assert hand(state, ALICE) == ids("X10 M03 M04 C08 C09")
    assert hand(state, BOB) == ids("X06 S07 H08 A09 C01 L07")
    assert hand(state, CHARLIE) == ids("S08 S10 H02 H06 H09 M07 L02")
    assert len(state["deck"]) == 39 and state["deck"][0] == "M01"
    assert len(state["discard"]) == 6 and state["supply"] == 25
    bob = rules.view(state, BOB)["you"]
    assert bob["seen"] == ids("X06 S03 S04 S07 H03 H05 H08 A02 A09 C01 C10 L07")
    assert bob["discard_looked"] == 6
    for seat in (ALICE, BOB, CHARLIE):
        assert GAME.private_items(state, seat) == {f'"{card}"' for card in hand(state, seat)}
    spectator = json.dumps(rules.view(state, None))
    assert all(f'"{card}"' not in spectator for card in bob["seen"] if card not in ("H03", "A02"))
