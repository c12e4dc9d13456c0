"""Response windows: each target counters with an Interrupt or allows.

The window always opens, whatever the targets hold, so that nobody learns who holds an
Interrupt by its absence. With several targets (Prime Minister, Irregulars) answers stay
hidden until all are in; the first counter clockwise from the player wins and the others
keep their card.
"""

from __future__ import annotations

from games.base import Event, Refusal, refuse
from games.i_say_holmes.rules import arrests, cards, choices, instructions, table
from games.i_say_holmes.rules.state import (
    audience,
    clockwise_from,
    left_of,
    owned,
    owned_hand,
    owned_in,
    right_of,
    saw,
    seat_count,
    took_out,
)


def check_counter(state: dict, seat: int, action: dict) -> Refusal | dict:
    card = action.get("card")
    if set(action) != {"type", "card"} or card not in state["hands"][seat]:
        return refuse("card_not_in_hand", "Counter with a card from your hand.")
    if not cards.is_interrupt(card):
        return refuse("not_an_interrupt", "Only an Alibi or a Mastermind counters.")
    if cards.row(card).slug == "alibi" and not state["pending"]["alibi"]:
        return refuse("alibi_not_allowed", "An Alibi does not counter this; a Mastermind does.")
    return {"card": card}


def check_allow(state: dict, seat: int, action: dict) -> Refusal | dict:
    if set(action) != {"type"}:
        return refuse("malformed_action", "Allowing takes no other field.")
    return {}


def perform_counter(state: dict, seat: int, params: dict) -> list[Event]:
    return _answer(state, seat, {"answer": "counter", "card": params["card"]})


def perform_allow(state: dict, seat: int, params: dict) -> list[Event]:
    return _answer(state, seat, {"answer": "allow"})


def waiting_in_window(window: dict) -> list[int]:
    answers = window["answers"]
    return sorted([seat for seat in window["targets"] if str(seat) not in answers])


def _answer(state: dict, seat: int, answer: dict) -> list[Event]:
    window = owned(state, "pending")
    owned_in(state, window, "answers")[str(seat)] = answer
    events = [Event("answered", data={"seat": seat, "kind": "window"})]
    if waiting_in_window(window):
        return events
    state["pending"] = None
    return events + _close(state, window)


def _close(state: dict, window: dict) -> list[Event]:
    answers = {int(seat): answer for seat, answer in window["answers"].items()}
    events = [
        Event(
            "answers",
            data={"answers": {str(seat): answers[seat]["answer"] for seat in sorted(answers)}},
        )
    ]
    counterer = next(
        (
            seat
            for seat in clockwise_from(state, window["player"])
            if answers.get(seat, {}).get("answer") == "counter"
        ),
        None,
    )
    if counterer is None:
        if window["instruction"] == arrests.IMPROMPTU:
            return events + arrests.finish_impromptu(state, window["targets"][0])
        return events + instructions.carry_out(state, window)
    card = answers[counterer]["card"]
    owned_hand(state, counterer).remove(card)
    events.append(
        Event(
            "countered",
            data={"seat": counterer, "card": card, "instruction": window["instruction"]},
        )
    )
    if window["instruction"] == arrests.IMPROMPTU:
        owned_in(state, owned(state, "impromptu"), "countered").append(counterer)
        owned(state, "discard").append(card)
        return events + _interrupt_effect(state, counterer, card)
    if cards.row(card).slug == "alibi":
        # The Alibi becomes the Current card, for the next player after the countered one.
        table.lay_current(state, card, left_of(state, window["player"]))
    else:
        owned(state, "discard").append(card)
        owned(state, "current")["holder"] = counterer
    state["resume"] = "next"
    return events + _interrupt_effect(state, counterer, card)


def _interrupt_effect(state: dict, counterer: int, card: str) -> list[Event]:
    """An Alibi has every seat pass a card right; a Mastermind every whole hand."""
    if cards.row(card).slug == "alibi":
        return choices.open_choice(state, choices.PASS, counterer, list(range(seat_count(state))))
    return _hands_move_right(state)


def _hands_move_right(state: dict) -> list[Event]:
    count = seat_count(state)
    old = state["hands"]
    state["hands"] = [old[(seat + 1) % count] for seat in range(count)]
    for seat in range(count):
        if old[seat]:
            took_out(state, seat)
    events = [
        Event("moved", data={"how": "mastermind", "counts": [len(h) for h in state["hands"]]})
    ]
    for seat in range(count):
        receiver = right_of(state, seat)
        if old[seat]:
            saw(state, seat, receiver, old[seat], "mastermind")
        events.append(
            Event(
                "moved",
                audience(seat, receiver),
                {"how": "mastermind", "seat": seat, "to": receiver, "cards": list(old[seat])},
            )
        )
    return events
