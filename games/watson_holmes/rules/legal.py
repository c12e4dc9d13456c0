"""``legal_actions``: the concrete actions a player (or the server) may take now.

Choices made to keep the list short (``apply`` still accepts every legal variant):

- Bids: for each location, the smallest legal bid only (on foot when it is free, one
  more than its stake when held); any larger bid the player can pay is legal too.
- Access: one variant per way in (call-off, lockpick, Billy, or a call-off with Billy)
  when a police token or a lock is in the way.
- Free-text fields (answers, a Holmes check's answer) are listed with ``TEXT``, a
  stand-in; any text that is not blank, up to the length limit, is accepted (a blank
  one is refused: it would be judged on nothing).
- ``judged`` is listed for the server with every verdict the same (all correct, all
  wrong, all unsure); any mix is accepted.
"""

from __future__ import annotations

from games.base import SYSTEM
from games.watson_holmes.rules import characters, holmes, investigation, judging, solving, visiting
from games.watson_holmes.rules.actions import check, waiting_on_players
from games.watson_holmes.rules.state import (
    BAKER_STREET,
    INVESTIGATION,
    OVER,
    READING_STEP,
    TOBY_VALUE,
    VISITING,
    WATSON_STEP,
    eliminated_seats,
    has_icon,
    is_playing,
    location_card,
)

# What a listed action's free text reads: a stand-in for the player's own words, since a
# blank text is refused. A client replaces it; sent as it is, it is judged like any text.
TEXT = "?"


def legal_actions(state: dict, player: object) -> list[dict]:
    if state["phase"] == OVER:
        return []
    if player == SYSTEM:
        return _system_actions(state)
    if not isinstance(player, int) or not 0 <= player < len(state["players"]):
        return []
    candidates = _candidates(state, player)
    # Every candidate goes through the same checks as ``apply``: the list cannot lie.
    return [action for action in candidates if not _refused(state, player, action)]


def _refused(state: dict, player: int, action: dict) -> bool:
    return not isinstance(check(state, player, action), tuple)


def _system_actions(state: dict) -> list[dict]:
    actions = []
    for request in solving.pending_judgement(state):
        for verdict in solving.JUDGED_VERDICTS:
            actions.append(
                {
                    "type": "judged",
                    "request": request["request"],
                    "verdicts": {qid: verdict for qid in request["answers"]},
                }
            )
    if waiting_on_players(state):
        actions.append({"type": "timeout"})
    return actions


def _candidates(state: dict, seat: int) -> list[dict]:
    actions: list[dict] = []
    if is_playing(state, seat):
        if state["phase"] == VISITING and state["turn"] == seat:
            actions += _turn_actions(state, seat)
        if state["phase"] == INVESTIGATION:
            actions += _investigation_actions(state, seat)
        if state["pawns"][seat] == BAKER_STREET:
            # Written or rewritten: ``apply`` says until when.
            actions.append(_answers_template(state))
        restatement = solving.restatement_for(state, seat)
        if restatement:
            asked = restatement["asked"]
            actions.append({"type": "restate", "answers": dict.fromkeys(asked, TEXT)})
        actions += _anytime_actions(state, seat)
    actions += _ruling_actions(state, seat)
    return actions


def _turn_actions(state: dict, seat: int) -> list[dict]:
    actions = [{"type": "take_watson"}, {"type": "carriage_stop"}, {"type": "baker_street"}]
    # Only characters the player can use now are tried: it keeps the list quick to build.
    usable = {
        name for name in characters.PLACEMENT_CHARACTERS if characters.source(state, seat, name)
    }
    if "toby" in usable:
        actions.append({"type": "baker_street", "character": "toby"})
    for key in state["case"]["order"]:
        actions += _visits(state, seat, key, usable)
    return actions


def _visits(state: dict, seat: int, key: str, usable: set[str]) -> list[dict]:
    number = location_card(state, key)["number"]
    bid = state["bids"].get(key)
    minimum = 0 if bid is None else visiting.bid_value(bid) + 1
    placements = [{"carriages": minimum}]
    if "toby" in usable:
        placements.append({"character": "toby"})
    if bid is not None and "mary_morstan" in usable:
        placements.append({"character": "mary_morstan"})
    accesses = [{}]
    call_off = key in state["police"] and state["players"][seat]["call_off"]
    if call_off:
        accesses.append({"call_off": True})
    if "billy" in usable and (key in state["police"] or has_icon(state, key, "locked")):
        accesses.append({"character": "billy"})
        if call_off:
            # Police and a lock: the call-off frees the card, Billy gets past the lock.
            accesses.append({"call_off": True, "character": "billy"})
    actions = []
    for access in accesses:
        for placement in placements:
            if "character" in access and "character" in placement:
                continue
            if (
                placement.get("character") == "toby"
                and bid
                and visiting.bid_value(bid) >= TOBY_VALUE
            ):
                continue
            actions.append({"type": "visit", "location": number, **placement, **access})
    return actions


def _investigation_actions(state: dict, seat: int) -> list[dict]:
    actions = []
    if state["step"] == WATSON_STEP and state["watson"]["holder"] == seat:
        for key in investigation.watson_targets(state):
            actions.append({"type": "watson_read", "location": location_card(state, key)["number"]})
    if state["step"] == READING_STEP and not state["done"][seat]:
        pawn = state["pawns"][seat]
        if location_card(state, pawn) is not None:
            actions.append(
                {"type": "place_police", "location": location_card(state, pawn)["number"]}
            )
        if seat in state["effects"]["mycroft"]:
            for key in characters.mycroft_targets(state):
                actions.append(
                    {"type": "mycroft_read", "location": location_card(state, key)["number"]}
                )
        actions.append({"type": "done_reading"})
    return actions


def _answers_template(state: dict) -> dict:
    return {"type": "answer", "answers": {q["id"]: TEXT for q in state["case"]["questions"]}}


def _anytime_actions(state: dict, seat: int) -> list[dict]:
    actions = [
        {"type": "character", "character": name} for name in characters.STANDALONE_CHARACTERS
    ]
    actions.append({"type": "discard_character"})
    for target in eliminated_seats(state):
        actions.append({"type": "holmes_consult", "target": target})
    for question in state["case"]["questions"]:
        actions.append({"type": "holmes_check", "question": question["id"], "answer": TEXT})
    return actions


def _ruling_actions(state: dict, seat: int) -> list[dict]:
    return [
        {"type": "rule", "request": request["id"], "verdict": verdict}
        for request in holmes.rulings(state)
        for verdict in judging.VERDICTS
    ]
