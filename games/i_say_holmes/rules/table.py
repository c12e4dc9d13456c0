"""The table's furniture: dealing a case, and the Current card and its markers."""

from __future__ import annotations

from games.base import Event
from games.i_say_holmes.rules import cards
from games.i_say_holmes.rules.state import left_of, owned, owned_hand, seat_count, shuffled


def start_case(state: dict) -> list[Event]:
    """Deal the next case and have the ``afoot`` holder play it; the first turn is resumed
    by settling, like any other."""
    count = seat_count(state)
    state["case"] += 1
    stack, rest = _deal(count)
    stack, state["rng"] = shuffled(stack, state["rng"])
    state["draw"], state["rng"] = shuffled(rest, state["rng"])
    state["hands"] = [stack[seat::count] for seat in range(count)]
    state.update(
        discard=[],
        set_aside=[],
        location=cards.CITY,
        travel=None,
        hand_epoch=[0] * count,
        seen=[[] for _ in range(count)],
        drawn=None,
        pending=None,
        impromptu=None,
    )
    events = [
        Event("case_started", data={"case": state["case"], "hand_counts": [6] * count}),
        *[Event("dealt", (seat,), {"cards": list(state["hands"][seat])}) for seat in range(count)],
    ]
    holder = next(seat for seat in range(count) if cards.AFOOT in state["hands"][seat])
    owned_hand(state, holder).remove(cards.AFOOT)
    state["current"] = {"card": cards.AFOOT, "holder": left_of(state, holder)}
    state["turn"] = {"seat": holder, "step": None, "deduction": False, "count": 0}
    state["resume"] = "next"
    events.append(Event("played", data={"seat": holder, "card": cards.AFOOT}))
    return events


_DEALS: dict[int, tuple[list[str], list[str]]] = {}


def _deal(count: int) -> tuple[list[str], list[str]]:
    """The deal-out stack for ``count`` players and the rest of the cards, in ledger order
    (worked out once for each table size)."""
    if count not in _DEALS:
        stack = cards.deal_out_stack(count)
        dealt = set(stack)
        _DEALS[count] = (stack, [card for card in cards.LEDGER_ORDER if card not in dealt])
    return _DEALS[count]


def retire_current(state: dict) -> None:
    """The Current card is replaced: ``afoot`` is set aside, any other card discarded."""
    card = state["current"]["card"]
    owned(state, "set_aside" if card == cards.AFOOT else "discard").append(card)


def lay_current(state: dict, card: str, holder: int) -> None:
    """``card`` becomes the Current card in front of ``holder``, moving the markers."""
    retire_current(state)
    state["current"] = {"card": card, "holder": holder}
    row = cards.row(card)
    if row.type in cards.LOCATIONS:  # a Location card turns the Location Marker
        state["location"] = row.type
    state["travel"] = row.travel
