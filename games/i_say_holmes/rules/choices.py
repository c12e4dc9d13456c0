"""Secret choices: showing a highest card (Disguise, Irregulars), putting a card into the
Dense Fog, passing a card after an Alibi. Every seat asked picks at once; picks stay hidden
until all are in."""

from __future__ import annotations

from games.base import Event, Refusal, refuse
from games.i_say_holmes.rules.state import (
    CHOOSE,
    audience,
    clockwise_from,
    highest_cards,
    left_of,
    owned,
    owned_hand,
    owned_in,
    right_of,
    saw,
    shuffled,
    took_out,
)

SHOW = "show"
IRREG = "irreg"
FOG = "fog"
PASS = "pass"


def open_choice(state: dict, reason: str, player: int, seats: list[int]) -> list[Event]:
    """Ask ``seats`` (in this order) to pick a card for ``player``'s ``reason``."""
    seats = [seat for seat in seats if state["hands"][seat]]
    if not seats:
        return []
    state["pending"] = {
        "kind": CHOOSE,
        "reason": reason,
        "player": player,
        "seats": seats,
        "picks": {},
    }
    return [Event("choice", data=public_choice(state["pending"]))]


def public_choice(choice: dict) -> dict:
    return {
        "kind": CHOOSE,
        "reason": choice["reason"],
        "player": choice["player"],
        "seats": list(choice["seats"]),
        "chosen": sorted(map(int, choice["picks"])),
    }


def choosable(state: dict, seat: int) -> list[str]:
    """The cards ``seat`` may pick in the open choice, in hand order."""
    choice = state["pending"]
    if choice["reason"] in (SHOW, IRREG):
        return highest_cards(state, seat)
    return list(state["hands"][seat])


def check_choose(state: dict, seat: int, action: dict) -> Refusal | dict:
    card = action.get("card")
    if set(action) != {"type", "card"} or card not in state["hands"][seat]:
        return refuse("card_not_in_hand", "Choose a card from your hand.")
    if card not in choosable(state, seat):
        return refuse("not_highest", "Show one of your cards of highest case points.")
    return {"card": card}


def perform_choose(state: dict, seat: int, params: dict) -> list[Event]:
    choice = owned(state, "pending")
    owned_in(state, choice, "picks")[str(seat)] = params["card"]
    events = [Event("answered", data={"seat": seat, "kind": CHOOSE})]
    if len(choice["picks"]) < len(choice["seats"]):
        return events
    state["pending"] = None
    resolve = {SHOW: _show, IRREG: _show, FOG: _fog, PASS: _pass}[choice["reason"]]
    return events + resolve(state, choice)


def _picks(choice: dict) -> list[tuple[int, str]]:
    return [(seat, choice["picks"][str(seat)]) for seat in choice["seats"]]


def _show(state: dict, choice: dict) -> list[Event]:
    examiner = choice["player"]
    how = choice["reason"]
    events = []
    for seat, card in _picks(choice):
        saw(state, examiner, seat, [card], how)
        saw(state, seat, examiner, [card], "shown")
        public = {"seat": examiner, "target": seat, "how": how, "count": 1}
        events.append(Event("examined", data=public))
        events.append(Event("examined", audience(examiner, seat), {**public, "cards": [card]}))
    return events


def _fog(state: dict, choice: dict) -> list[Event]:
    """The cards put in, listed from the player's left round to the player, are shuffled
    and dealt back one each in that order."""
    player = choice["player"]
    order = clockwise_from(state, left_of(state, player))
    picks = sorted(_picks(choice), key=lambda pick: order.index(pick[0]))
    for seat, card in picks:
        owned_hand(state, seat).remove(card)
        took_out(state, seat)
        saw(state, seat, None, [card], FOG)
    dealt, state["rng"] = shuffled([card for _, card in picks], state["rng"])
    events = [Event("moved", data={"how": FOG, "seats": [seat for seat, _ in picks]})]
    for (seat, _), card in zip(picks, dealt, strict=True):
        owned_hand(state, seat).append(card)
        events.append(Event("moved", (seat,), {"how": FOG, "seat": seat, "received": [card]}))
    return events


def _pass(state: dict, choice: dict) -> list[Event]:
    """After an Alibi every picked card goes, at once, to the player on the right."""
    picks = _picks(choice)
    for seat, card in picks:
        owned_hand(state, seat).remove(card)
        took_out(state, seat)
    events = [Event("moved", data={"how": "alibi", "seats": [seat for seat, _ in picks]})]
    for seat, card in picks:
        receiver = right_of(state, seat)
        owned_hand(state, receiver).append(card)
        saw(state, seat, receiver, [card], "alibi")
        events.append(
            Event(
                "moved",
                audience(seat, receiver),
                {"how": "alibi", "seat": seat, "to": receiver, "cards": [card]},
            )
        )
    return events
