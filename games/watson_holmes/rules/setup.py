"""Set-up: the case, the players' tokens and characters, and the first round.

Shape of the state (a JSON-able dict; location keys are strings, see ``state.py``)::

    engine, version, rng          name, format version, generator state (hex string)
    case                          locations by key, their order, questions, zones (read-only)
    options                       casebook, random_start, play_on, host
    players[seat]                 name, carriages, police, call_off, lockpick, zone, status,
                                  place, character, character_state, copied, holmes,
                                  casebook, attempt
    stock                         tokens of each kind not held and not on a card
    round, phase, step            round number; visiting / investigation / over; sub-step
    diary, turn                   start player; whose turn it is in the visiting phase
    pawns[seat]                   location key of each pawn this round, or None
    bids[key]                     holder, carriages on the card, Toby or Wiggins token, guests
    police                        keys of the cards that carry a police token
    watson                        holder this round and the card it had read aloud
    effects                       this round's character effects (billy, irene, mycroft, ...)
    readings[seat]                card keys each player reads this investigation phase
    done[seat], answers[seat]     reading finished; answers written at 221B this round
    requests, next_request        answers waiting for the server's (or Sherlock's) verdict
    solving                       221B players still to be judged, the group being judged,
                                  and who must confirm their answers after a failure (pause)
    last_player, result           the last-player countdown; the end of the game
"""

from __future__ import annotations

from typing import Any

from games import rng as rngs
from games.watson_holmes.rules.state import (
    CHARACTERS,
    ICONS,
    NAME,
    ONE_OF_A_KIND,
    PLAYING,
    TOKEN_TOTALS,
    VISITING,
    clockwise_from,
    gain,
)

STANDARD_START = {"carriages": 10, "police": 1, "call_off": 0, "lockpick": 0}
# From the sixth seat on (counting from the Diary), a call-off replaces the police token.
POLICE_SEATS = 5
MIN_PLAYERS_FOR_WIGGINS = 4
MAX_PLAYERS = 7


def setup(config: dict, players: list[str], seed: int) -> dict:
    """A new game for ``players`` (display names, seats in order) on ``config["case"]``.

    Raises ``ValueError`` for a bad configuration: that is the server's mistake, not a
    player's.
    """
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"the game is for 1 to {MAX_PLAYERS} players, not {len(players)}")
    case = _read_case(config.get("case") or {})
    options = _read_options(config.get("options") or {}, len(players))
    rng = rngs.seeded(seed)
    diary = options["host"]
    if options["random_start"]:
        diary, rng = rngs.below(rng, len(players))
    state = {
        "engine": NAME,
        "version": 1,
        "rng": rng,
        "case": case,
        "options": options,
        "players": [_new_player(name, case) for name in players],
        "stock": dict(TOKEN_TOTALS),
        "round": 1,
        "diary": diary,
        "police": [],
        "requests": [],
        "next_request": 1,
        "last_player": None,
        "result": None,
        "next_place": 1,
    }
    _hand_out_tokens(state, case["start"])
    _deal_characters(state)
    start_round(state)
    return state


def start_round(state: dict) -> None:
    """Clear everything that lasts one round and open its visiting phase."""
    count = len(state["players"])
    state.update(
        phase=VISITING,
        step=None,
        turn=state["diary"],
        pawns=[None] * count,
        bids={},
        watson={"holder": None, "read": None},
        effects={"billy": [], "irene": [], "mycroft": [], "hudson": [], "toby_221b": []},
        readings=[[] for _ in range(count)],
        done=[False] * count,
        answers=[None] * count,
        solving={"queue": [], "group": [], "pause": []},
    )


def _new_player(name: str, case: dict) -> dict:
    zones = case["zones"]
    return {
        "name": str(name),
        "carriages": 0,
        "police": 0,
        "call_off": 0,
        "lockpick": 0,
        "zone": zones["start"] if zones else None,
        "status": PLAYING,
        "place": None,
        "character": None,
        "character_state": "hidden",
        "copied": None,
        "holmes": {"consult": None, "check": None},
        "casebook": [],
        "attempt": None,
    }


def _hand_out_tokens(state: dict, start: dict) -> None:
    """Tokens come from the limited stock, handed out from the Diary clockwise.

    57 carriages cannot give 6 or 7 players 10 each: everyone then gets an equal share
    (9 or 8) rather than the last seats going short.
    """
    carriages = min(start["carriages"], state["stock"]["carriages"] // len(state["players"]))
    for position, seat in enumerate(clockwise_from(state, state["diary"])):
        gain(state, seat, "carriages", carriages)
        police = start["police"]
        if position >= POLICE_SEATS and police:
            police, call_off = 0, 1
        else:
            call_off = start["call_off"]
        gain(state, seat, "police", police)
        gain(state, seat, "call_off", call_off)
        gain(state, seat, "lockpick", start["lockpick"])


def _deal_characters(state: dict) -> None:
    deck = [name for name in CHARACTERS if name != "wiggins"]
    if len(state["players"]) >= MIN_PLAYERS_FOR_WIGGINS:
        deck.append("wiggins")
    deck, state["rng"] = rngs.shuffled(deck, state["rng"])
    for player, character in zip(state["players"], deck, strict=False):
        player["character"] = character


def _read_options(options: dict, count: int) -> dict:
    host = options.get("host", 0)
    if not isinstance(host, int) or not 0 <= host < count:
        raise ValueError(f"host must be a seat between 0 and {count - 1}")
    return {
        "casebook": bool(options.get("casebook", False)),
        "random_start": bool(options.get("random_start", False)),
        "play_on": bool(options.get("play_on", False)),
        "host": host,
    }


def _read_case(case: dict) -> dict:
    locations = {}
    for raw in case.get("locations") or []:
        card = _read_location(raw)
        key = str(card["number"])
        if key in locations:
            raise ValueError(f"location number {key} is used twice")
        locations[key] = card
    questions = [_read_question(raw) for raw in case.get("questions") or []]
    if not questions:
        raise ValueError("a case needs at least one question")
    if len({question["id"] for question in questions}) != len(questions):
        raise ValueError("question ids must be unique")
    zones = case.get("zones") or None
    if zones is not None:
        zones = {
            "start": zones["start"],
            "travel_cost": int(zones.get("travel_cost", 0)),
            "names": dict(zones.get("names") or {}),
        }
    return {
        "locations": locations,
        "order": sorted(locations, key=int),
        "questions": questions,
        "zones": zones,
        "start": _read_start(case.get("start") or {}),
    }


def _read_location(raw: dict[str, Any]) -> dict:
    number = raw.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
        raise ValueError(f"location number must be a positive integer, not {number!r}")
    icons = list(raw.get("icons") or [])
    unknown = sorted(set(icons) - set(ICONS))
    if unknown:
        raise ValueError(f"location {number} has unknown icons: {', '.join(unknown)}")
    return {
        "number": number,
        "name": str(raw.get("name") or f"Location {number}"),
        "text": str(raw.get("text") or ""),
        "icons": icons,
        "carriages": int(raw.get("carriages") or 2) if "carriages" in icons else 0,
        "zone": raw.get("zone"),
    }


def _read_question(raw: dict[str, Any]) -> dict:
    return {
        "id": str(raw["id"]),
        "ask": str(raw.get("ask") or ""),
        "kind": str(raw.get("kind") or "text"),
    }


def _read_start(start: dict[str, Any]) -> dict:
    result = dict(STANDARD_START)
    for kind, value in start.items():
        if kind not in result:
            raise ValueError(f"unknown start token {kind!r}")
        result[kind] = max(0, int(value))
    for kind in ONE_OF_A_KIND:
        result[kind] = min(result[kind], 1)
    return result
