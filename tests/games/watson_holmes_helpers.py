"""Builders and shortcuts for the watson_holmes engine tests (no database, no Django)."""

from __future__ import annotations

import json

from games.base import SYSTEM, Refusal
from games.watson_holmes import rules as engine
from games.watson_holmes.example import EXAMPLE_CARDS, EXAMPLE_QUESTIONS, card_text

NAMES = ["alice", "bob", "charlie", "dave", "erin", "frank", "grace"]
ALICE, BOB, CHARLIE, DAVE, ERIN, FRANK, GRACE = range(7)

# Our own small case (the game's example). Each card's text is unique, so a leak is easy to
# spot in a view.
LOCATIONS = EXAMPLE_CARDS
QUESTIONS = EXAMPLE_QUESTIONS


def make_case(zones=None, start=None, zone_of=None, locations=LOCATIONS) -> dict:
    return {
        "locations": [
            {
                "number": number,
                "name": name,
                "text": card_text(number),
                "icons": icons,
                "carriages": 3 if "carriages" in icons else None,
                "zone": (zone_of or {}).get(number),
            }
            for number, name, icons in locations
        ],
        "questions": QUESTIONS,
        "zones": zones,
        "start": start or {},
    }


def new_game(players: int = 2, seed: int = 7, case: dict | None = None, **options) -> dict:
    config = {"case": case or make_case(), "options": options}
    return engine.setup(config, NAMES[:players], seed)


def act(state: dict, player, action: dict) -> tuple[dict, list]:
    """Apply an action that must be legal; also checks the input state was not touched."""
    before = json.dumps(state, sort_keys=True)
    result = engine.apply(state, player, action)
    assert not isinstance(result, Refusal), f"refused: {result}"
    assert json.dumps(state, sort_keys=True) == before, "apply changed its input state"
    return result


def refusal(state: dict, player, action) -> Refusal:
    result = engine.apply(state, player, action)
    assert isinstance(result, Refusal), f"expected a refusal for {action}"
    return result


def play(state: dict, *moves) -> tuple[dict, list]:
    """Apply ``(player, action)`` moves in order; returns the last state and all events."""
    events = []
    for player, action in moves:
        state, new_events = act(state, player, action)
        events += new_events
    return state, events


def with_character(state: dict, seat: int, name: str) -> dict:
    """A copy of ``state`` where ``seat`` holds character ``name`` (deals are random)."""
    state = json.loads(json.dumps(state))
    state["players"][seat]["character"] = name
    return state


def with_police_on(state: dict, number: int) -> dict:
    """A copy of ``state`` with a police token from the stock on card ``number``."""
    state = json.loads(json.dumps(state))
    state["stock"]["police"] -= 1
    state["police"].append(str(number))
    return state


def with_tokens(state: dict, seat: int, **tokens) -> dict:
    """A copy where ``seat`` holds the given tokens, the difference taken from the stock."""
    state = json.loads(json.dumps(state))
    for kind, count in tokens.items():
        state["stock"][kind] -= count - state["players"][seat][kind]
        state["players"][seat][kind] = count
    return state


def visit(number: int, carriages: int = 0, **extra) -> dict:
    return {"type": "visit", "location": number, "carriages": carriages, **extra}


CARRIAGE_STOP = {"type": "carriage_stop"}
BAKER_STREET = {"type": "baker_street"}
DONE = {"type": "done_reading"}


def answers(culprit: str = "Jane Roe", place: str = "the vault") -> dict:
    return {"type": "answer", "answers": {"culprit": culprit, "place": place}}


def judged(request: int, *verdicts: str) -> dict:
    return {
        "type": "judged",
        "request": request,
        "verdicts": dict(zip([q["id"] for q in QUESTIONS], verdicts, strict=True)),
    }


def requests_for(state: dict) -> dict[int, int]:
    """Pending solve/check requests by seat: {seat: request id}."""
    return {entry["player"]: entry["request"] for entry in engine.pending_judgement(state)}


def judge(state: dict, seat: int, *verdicts: str) -> tuple[dict, list]:
    return act(state, SYSTEM, judged(requests_for(state)[seat], *verdicts))


def token_totals(state: dict) -> dict[str, int]:
    totals = dict(state["stock"])
    for player in state["players"]:
        for kind in totals:
            totals[kind] += player[kind]
    totals["carriages"] += sum(bid["carriages"] for bid in state["bids"].values())
    totals["police"] += len(state["police"])
    return totals


def event_types(events) -> list[str]:
    return [event.type for event in events]
