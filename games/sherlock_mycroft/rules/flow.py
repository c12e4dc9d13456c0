"""The game's clock: what follows a finished action, the end of a day, the dawn of the
next (villains included) and the end of the game. Every function here changes the state it
is given and appends to ``events``.
"""

from __future__ import annotations

from games.base import Event
from games.sherlock_mycroft.rules.cards import CHARACTERS, DAYS, MARKERS_PER_PLAYER, VILLAINS
from games.sherlock_mycroft.rules.scoring import final_result, placeable_kinds, wildcards
from games.sherlock_mycroft.rules.state import (
    ASSIGN,
    MORAN,
    MORIARTY,
    MOVE,
    OVER,
    RESERVE,
    colours_on,
    pay_tokens,
    refill_line,
    rival,
    second_player,
    standing_characters,
)

# Moriarty asks the first player, the second, the second again, then the first.
MORIARTY_ORDER = (0, 1, 1, 0)  # 0: the first player, 1: the second
MORIARTY_TOLL = 2


def finish_action(state: dict, events: list) -> None:
    """The move and its choices are resolved: refill the line, then offer the reserve
    (Sherlock/Mycroft card) or go on."""
    state["pending"] = {}
    refill_line(state, events)
    last_action_of_game = state["day"] == DAYS and day_done(state)
    if may_reserve(state, state["actor"]) and not last_action_of_game:
        state["step"] = RESERVE
        state["turn"] = state["actor"]
        return
    next_turn(state, events)


def may_reserve(state: dict, seat: int) -> bool:
    return (
        state["variants"]["reserve_card"]
        and state["card_holder"] == seat
        and state["reserved"][seat] is None
        and bool(state["line"])
    )


def day_done(state: dict) -> bool:
    return sum(state["moves_left"]) == 0


def next_turn(state: dict, events: list) -> None:
    """The other seat moves next; when both have made all their moves the day ends."""
    actor = state["actor"]
    state["actor"] = None
    state["pending"] = {}
    if day_done(state):
        end_day(state, events)
        return
    other = rival(actor)
    state["step"] = MOVE
    state["turn"] = other if state["moves_left"][other] > 0 else actor


def end_day(state: dict, events: list) -> None:
    if state["day"] == DAYS:
        end_game(state, events)
        return
    refreshed = [card["id"] for card in state["board"] if not card["face_up"]]
    spent = [
        card["id"]
        for card in state["board"]
        if not CHARACTERS[card["id"]].permanent and colours_on(state, card["id"]) == {0, 1}
    ]
    # Board entries are shared between states (see ``state.clone``): replaced, never changed.
    board = []
    for card in state["board"]:
        face_up = card["id"] not in spent
        board.append(card if card["face_up"] == face_up else {**card, "face_up": face_up})
    state["board"] = board
    events.append(
        Event("day_ended", data={"day": state["day"], "spent": spent, "refreshed": refreshed})
    )
    start_day(state, events)


def start_day(state: dict, events: list) -> None:
    """Stand every marker, then draw the day's character (after any villains)."""
    state["day"] += 1
    state["moves_left"] = [MARKERS_PER_PLAYER, MARKERS_PER_PLAYER]
    state["day_villains"] = []
    state["markers"] = [
        [marker if marker["standing"] else {**marker, "standing": True} for marker in markers]
        for markers in state["markers"]
    ]
    draw_character(state, events)


def draw_character(state: dict, events: list) -> None:
    card = state["character_deck"][0]
    state["character_deck"] = state["character_deck"][1:]
    if card in VILLAINS:
        state["villains_discarded"] = [*state["villains_discarded"], card]
        state["day_villains"] = [*state["day_villains"], card]
        events.append(Event("villain_drawn", data={"day": state["day"], "villain": card}))
        first = state["first"]
        if card == "moriarty":
            order = [first if n == 0 else rival(first) for n in MORIARTY_ORDER]
        else:
            order = [first, rival(first)]
        state["queue"] = [{"step": card, "seat": seat} for seat in order]
        continue_villain(state, events)
        return
    entry = {"id": card, "space": f"day{state['day']}", "face_up": True}
    state["board"] = [*state["board"], entry]
    events.append(
        Event(
            "day_started",
            data={"day": state["day"], "character": card, "villains": state["day_villains"]},
        )
    )
    state["step"] = MOVE
    state["turn"] = state["first"]


def continue_villain(state: dict, events: list) -> None:
    """Ask the next villain choice; a player Moriarty cannot ask pays without choosing.
    With nobody left to ask, the day's character is drawn."""
    while state["queue"]:
        task = state["queue"][0]
        seat = task["seat"]
        if task["step"] == MORIARTY and not state["visible"][seat]:
            paid = pay_tokens(state, seat, MORIARTY_TOLL)
            events.append(
                Event(
                    "moriarty",
                    data={"player": seat, "give": "markers", "returned": paid, "forced": True},
                )
            )
            state["queue"] = state["queue"][1:]
            continue
        if task["step"] == MORAN and not standing_characters(state, seat):
            state["queue"] = state["queue"][1:]
            continue
        state["step"] = task["step"]
        state["turn"] = seat
        return
    draw_character(state, events)


def end_game(state: dict, events: list) -> None:
    events.append(
        Event("clues_revealed", data={"hidden": [list(hidden) for hidden in state["hidden"]]})
    )
    order = [state["first"], second_player(state)]
    state["queue"] = [{"step": ASSIGN, "seat": seat} for seat in order if can_assign(state, seat)]
    continue_assign(state, events)


def can_assign(state: dict, seat: int) -> bool:
    cards = state["visible"][seat] + state["hidden"][seat]
    return bool(wildcards(cards)) and bool(placeable_kinds(cards))


def continue_assign(state: dict, events: list) -> None:
    if state["queue"]:
        state["step"] = ASSIGN
        state["turn"] = state["queue"][0]["seat"]
        return
    state["step"] = OVER
    state["turn"] = None
    state["result"] = final_result(state)
    events.append(
        Event(
            "game_over",
            data={
                "hidden": [list(hidden) for hidden in state["hidden"]],
                "assigned": state["assigned"],
                **state["result"],
            },
        )
    )
