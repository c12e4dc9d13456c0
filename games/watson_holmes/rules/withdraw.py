"""``withdraw``: a person leaves the case game while it is played, and play passes them by.

The case game has no computer player to take a seat over, so the seat stays, empty: the
player is marked ``left`` and, if they were still investigating, their status becomes
``withdrawn``. From then on the rules never wait for the seat and never offer it an
action. Whatever the seat owed at that moment is settled the way the table's timer
settles it (its turn passes, Watson goes unused, its reading is done), except that a
player who left is never judged: they made no attempt at 221B. What the seat saw stays
the seat's own (its character, the cards it read, its answers): nobody inherits it.
Decisions where the rules are silent are in ``DECISIONS.md`` ("Leaving the game").
"""

from __future__ import annotations

from games.base import Event, Refusal
from games.watson_holmes.rules import holmes, investigation, solving, visiting
from games.watson_holmes.rules.state import (
    OVER,
    READING_STEP,
    SOLVING_STEP,
    TOKEN_TOTALS,
    VISITING,
    WATSON_STEP,
    WITHDRAWN,
    clockwise_from,
    clone,
    has_left,
    is_playing,
    pay,
    playing_seats,
    refuse,
    sherlock_voices,
)


def withdraw(state: dict, seat: object) -> tuple[dict, list[Event]] | Refusal:
    """The state after ``seat`` leaves the game, and the events; the input is untouched."""
    refusal = _check(state, seat)
    if refusal:
        return refusal
    new = clone(state)
    was_playing = is_playing(new, seat)
    new["players"][seat]["left"] = True
    events = [Event("withdrew", data={"player": seat, "was_playing": was_playing})]
    if was_playing:
        new["players"][seat]["status"] = WITHDRAWN
        events += _hand_back_tokens(new, seat)
        if not playing_seats(new):
            # Nobody is left to investigate: the case ends as if nobody more solved it.
            return new, events + solving.game_over(new)
        events += _settle(new, seat)
    if new["phase"] != OVER and holmes.rulings(new) and not sherlock_voices(new):
        # No eliminated player is left to rule: open rulings count as wrong (as at a timeout).
        events += holmes.time_out_rulings(new)
    return new, events


def _check(state: dict, seat: object) -> Refusal | None:
    count = len(state["players"])
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < count:
        return refuse("unknown_player", f"There is no seat {seat!r} at this table.")
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    if has_left(state, seat):
        return refuse("already_left", "That player has already left the game.")
    return None


def _hand_back_tokens(state: dict, seat: int) -> list[Event]:
    """Everything the player holds goes back to the stock, for the others to gain."""
    returned = {}
    for kind in TOKEN_TOTALS:
        held = state["players"][seat][kind]
        if held:
            pay(state, seat, kind, held)
            returned[kind] = held
    return [Event("tokens_returned", data={"player": seat, **returned})] if returned else []


def _settle(state: dict, seat: int) -> list[Event]:
    """What the seat owed now, settled; the seat is taken out of the round."""
    _drop_requests(state, seat)
    for name in ("mycroft", "hudson", "toby_221b"):
        if seat in state["effects"][name]:
            state["effects"][name].remove(seat)
    state["answers"][seat] = None
    if state["diary"] == seat:
        # As when the Diary's holder is out of the game: it passes clockwise.
        state["diary"] = next(s for s in clockwise_from(state, seat) if is_playing(state, s))
    if state["phase"] == VISITING:
        return _leave_while_visiting(state, seat)
    if state["step"] == WATSON_STEP:
        return _leave_before_reading(state, seat)
    state["pawns"][seat] = None
    if state["step"] == READING_STEP:
        state["done"][seat] = True
        return investigation.maybe_finish_reading(state)
    if state["step"] == SOLVING_STEP:
        return _leave_while_solving(state, seat)
    return []


def _drop_requests(state: dict, seat: int) -> None:
    """The seat's attempt at 221B and its Holmes check are withdrawn with it: nobody is
    judged who is no longer there to hear the verdict."""
    state["requests"] = [r for r in state["requests"] if r["player"] != seat]


def _take_pawn_off(state: dict, seat: int) -> None:
    """Before the reading: the pawn leaves its card, and the stake on it goes to the stock
    (it was the player's, and all they held went there). A Mary Morstan guest stays and
    holds the card on foot; a card the player held alone is free again."""
    key = state["pawns"][seat]
    state["pawns"][seat] = None
    bid = state["bids"].get(key)
    if bid is None:
        return
    if seat in bid["guests"]:
        bid["guests"].remove(seat)
        return
    state["stock"]["carriages"] += bid["carriages"]
    if bid["guests"]:
        holder, *guests = bid["guests"]
        state["bids"][key] = {
            "player": holder,
            "carriages": 0,
            "token": None,
            "guests": guests,
            "spent": 0,
        }
    else:
        del state["bids"][key]


def _leave_while_visiting(state: dict, seat: int) -> list[Event]:
    _take_pawn_off(state, seat)
    events = []
    if state["watson"]["holder"] == seat:
        # Watson is free again this round; the 4 carriages paid for him stay spent.
        state["watson"]["holder"] = None
    if state["turn"] == seat:
        # Nobody placed the last pawn: the Diary stays where it is.
        events += visiting.end_turn(state, seat, diary=state["diary"])
    return events


def _leave_before_reading(state: dict, seat: int) -> list[Event]:
    _take_pawn_off(state, seat)
    holder = state["watson"]["holder"]
    if holder == seat or not investigation.watson_targets(state):
        # As at a timeout: Watson goes unused, and the reading begins.
        return [Event("watson_unused", data={"player": holder})] + investigation.begin_reading(
            state
        )
    return []


def _leave_while_solving(state: dict, seat: int) -> list[Event]:
    solving_state = state["solving"]
    solving_state["queue"] = [s for s in solving_state["queue"] if s != seat]
    if seat in solving_state["group"]:
        solving_state["group"] = [s for s in solving_state["group"] if s != seat]
        # The rest of the group (if any) is settled once judged; an empty group goes on.
        return solving.resolve_if_complete(state)
    if seat in solving.waiting_to_confirm(state):
        return solving.confirm_answers(state, seat)
    return []
