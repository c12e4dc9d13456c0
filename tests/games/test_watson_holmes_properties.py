"""Random playouts (Hypothesis): every listed action applies and the invariants hold.

The leak oracle is built from the moves, not from the engine's events: a player may see
the text of the card their pawn reads this round (and of earlier ones with the casebook
house rule), of the card Mycroft let them read, and of what Watson read aloud; their own
answers; an eliminated player's answers once they consulted them; and, when eliminated,
the checks they must rule on. (Notebooks are the server's: its tests search them.)
"""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import SYSTEM, Refusal, events_for
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import LOCATIONS, NAMES, make_case, token_totals
from tests.games.watson_holmes_playout import RandomTable

TOTALS = {"carriages": 57, "police": 6, "call_off": 6, "lockpick": 2}
MAX_STEPS = 700
MAX_VISITING_STEPS = 400
TEXT = re.compile(r"\[secret text of card (\d+)\]")
ANSWER = re.compile(r"ANS-(\d+)-\d+")
CHECK = re.compile(r"CHK-(\d+)-\d+")

ZONES = {"start": "city", "travel_cost": 2, "names": {"city": "London", "country": "Surrey"}}


class Oracle:
    """What each seat (and the spectator, ``None``) may see, kept from the moves alone."""

    def __init__(self, count: int, casebook: bool):
        self.casebook = casebook
        self.viewers = [*range(count), None]
        self.cards = {viewer: set() for viewer in self.viewers}
        self.consulted = {seat: set() for seat in range(count)}
        self.round = 1

    def after(self, before: dict, state: dict, actor, action: dict) -> None:
        if state["round"] != self.round and not self.casebook:
            self.cards = {viewer: set() for viewer in self.viewers}
        self.round = state["round"]
        kind = action["type"]
        if kind == "watson_read":
            for viewer in self.viewers:
                self.cards[viewer].add(action["location"])
        if kind == "mycroft_read":
            self.cards[actor].add(action["location"])
        if kind == "holmes_consult":
            self.consulted[actor].add(action["target"])
        if state["phase"] == "investigation" and state["step"] != "watson":
            for seat, pawn in enumerate(state["pawns"]):
                if pawn and pawn.isdigit():
                    self.cards[seat].add(int(pawn))

    def leaks(self, state: dict, viewer, text: str) -> list[str]:
        found = []
        for number in TEXT.findall(text):
            if int(number) not in self.cards[viewer]:
                found.append(f"text of card {number}")
        for seat in ANSWER.findall(text):
            seat = int(seat)
            # At the end every judged attempt is public, answers and verdicts.
            public = state["phase"] == "over" and state["players"][seat]["attempt"]
            consulted = viewer is not None and seat in self.consulted[viewer]
            if viewer != seat and not consulted and not public:
                found.append(f"answers of seat {seat}")
        for seat in CHECK.findall(text):
            eliminated = viewer is not None and state["players"][viewer]["status"] == "eliminated"
            if int(seat) != viewer and not eliminated:
                found.append(f"Holmes check of seat {seat}")
        return found


def check_invariants(state: dict) -> None:
    assert token_totals(state) == TOTALS
    assert all(count >= 0 for count in state["stock"].values())
    for player in state["players"]:
        assert player["carriages"] >= 0
        for kind in ("police", "call_off", "lockpick"):
            assert player[kind] in (0, 1), f"{player['name']} holds {player[kind]} {kind}"
    assert json.loads(json.dumps(state)) == state


def check_views(state: dict, events: list, oracle: Oracle) -> None:
    for viewer in oracle.viewers:
        seen = engine.view(state, viewer)
        text = json.dumps(seen)
        assert not oracle.leaks(state, viewer, text), (viewer, oracle.leaks(state, viewer, text))
        for seat, public in enumerate(seen["players"]):
            if state["players"][seat]["character_state"] != "used":
                assert public["character"] is None, "a hidden character is shown"
        shown = json.dumps([event.to_dict() for event in events_for(events, viewer)])
        assert not oracle.leaks(state, viewer, shown), (viewer, oracle.leaks(state, viewer, shown))


def random_config(rnd: random.Random) -> dict:
    zoned = rnd.random() < 0.3
    zone_of = {number: rnd.choice(["city", "country"]) for number, _, _ in LOCATIONS}
    case = make_case(zones=ZONES if zoned else None, zone_of=zone_of if zoned else None)
    options = {
        "casebook": rnd.random() < 0.3,
        "play_on": rnd.random() < 0.3,
        "random_start": rnd.random() < 0.3,
    }
    return {"case": case, "options": options}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=2**63),
    choices=st.integers(min_value=0, max_value=2**32),
)
def test_it_keeps_its_invariants_in_random_playouts(count, seed, choices):
    # A local generator drawn by Hypothesis: a long game needs thousands of choices.
    rnd = random.Random(choices)
    config = random_config(rnd)
    state = engine.setup(config, NAMES[:count], seed)
    # The server stores these once, at the start (play/models.py): no move may change them.
    fixed = json.dumps({key: state[key] for key in engine.FIXED_KEYS}, sort_keys=True)
    table = RandomTable(rnd)
    oracle = Oracle(count, config["options"]["casebook"])
    visiting_steps = 0
    for _ in range(MAX_STEPS):
        check_invariants(state)
        assert json.dumps({key: state[key] for key in engine.FIXED_KEYS}, sort_keys=True) == fixed
        if engine.is_over(state):
            break
        move = table.choose(state)
        assert move is not None, "nobody can move, yet the game is not over"
        actor, action = move
        before = json.dumps(state, sort_keys=True)
        result = engine.apply(state, actor, action)
        assert not isinstance(result, Refusal), (actor, action, result)
        assert json.dumps(state, sort_keys=True) == before, "apply changed its input"
        new_state, events = result
        oracle.after(state, new_state, actor, action)
        check_views(new_state, events, oracle)
        same_phase = state["phase"] == new_state["phase"] == "visiting"
        same_phase = same_phase and state["round"] == new_state["round"]
        visiting_steps = visiting_steps + 1 if same_phase else 0
        assert visiting_steps < MAX_VISITING_STEPS, "a visiting phase does not end"
        state = new_state
    if engine.is_over(state):
        outcome = engine.outcome(state)
        assert outcome["result"] in ("solved", "everyone_lost")
        assert all(engine.legal_actions(state, seat) == [] for seat in range(count))
        assert engine.legal_actions(state, SYSTEM) == []


@settings(max_examples=30, deadline=None)
@given(count=st.integers(min_value=1, max_value=7), seed=st.integers(min_value=0, max_value=2**63))
def test_it_plays_the_same_game_for_the_same_seed_and_moves(count, seed):
    def playout():
        state = engine.setup({"case": make_case()}, NAMES[:count], seed)
        table = RandomTable(random.Random(seed))
        for _ in range(150):
            move = table.choose(state)
            if move is None or engine.is_over(state):
                break
            state, _ = engine.apply(state, *move)
        return state

    assert playout() == playout()
