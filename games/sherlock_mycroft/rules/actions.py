"""``apply``: check an action against the state, then carry it out on a copy.

Refusals come in a fixed order: the action's envelope (type, who, when), then its fields,
then the rules of the move or choice. Each action type has a ``check_*`` (reads the state,
returns a ``Refusal`` or a plan) and a ``perform_*`` (changes a fresh copy, returns the
events); ``MOVES`` dispatches between them (``games.base.MoveTable``).
"""

from __future__ import annotations

from games.base import SYSTEM, Event, MoveTable, Refusal, refuse
from games.sherlock_mycroft.rules import characters, flow
from games.sherlock_mycroft.rules.cards import CHARACTERS, NUMBERED, WILD, kind_of
from games.sherlock_mycroft.rules.legal import default_action
from games.sherlock_mycroft.rules.scoring import placeable_kinds
from games.sherlock_mycroft.rules.state import (
    ACTION_OF_STEP,
    MOVE,
    OVER,
    board_card,
    cards_left,
    clone,
    is_seat,
    marker_on,
    pay_tokens,
    refill_line,
    remove_visible,
    replace_marker,
    rival,
    set_seat,
    standing_marker_on,
)

ACTION_TYPES = (*ACTION_OF_STEP.values(), "timeout")

# The fields of each action besides "type", with their JSON types (None: may be null).
FIELDS = {
    "move": {"from": (str, None), "to": (str,), "ability": (dict, None)},
    "keep": {"card": (str,)},
    "von_kramm_reply": {"pay": (bool,)},
    "moriarty": {"give": (str,)},
    "moran": {"marker": (str,)},
    "reserve": {"card": (str, None)},
    "assign_wildcards": {"assign": (dict,)},
    "timeout": {},
}


def check_actor(state: dict, player: object, action: dict) -> Refusal | None:
    kind = action["type"]
    if kind == "timeout":
        if player != SYSTEM:
            return refuse("system_only", "Only the server's timer acts on a timeout.")
        if state["step"] == OVER:
            return refuse("nothing_to_time_out", "Nobody is being waited for.")
        return check_fields(action)
    if not is_seat(player):
        return refuse("unknown_player", "Only the two seated players act.")
    if state["step"] == OVER:
        return refuse("game_over", "The game is over.")
    if player != state["turn"]:
        return refuse("not_your_turn", "It is not your turn.")
    if ACTION_OF_STEP[state["step"]] != kind:
        return refuse("wrong_step", f"The game is waiting for a {state['step']} choice.")
    return check_fields(action)


def _field_rules(fields: dict) -> tuple[frozenset, tuple]:
    """Each action type's keys, and per field: whether it may be null, the types it may
    have, and whether a bool is refused (JSON's true is no number)."""
    checks = []
    for name, types in fields.items():
        wanted = tuple(t for t in types if t is not None)
        checks.append((name, None in types, wanted, bool not in wanted))
    return frozenset({"type", *fields}), tuple(checks)


FIELD_RULES = {kind: _field_rules(fields) for kind, fields in FIELDS.items()}


def check_fields(action: dict) -> Refusal | None:
    keys, checks = FIELD_RULES[action["type"]]
    if action.keys() != keys:
        expected = ", ".join(FIELDS[action["type"]]) or "no fields"
        return refuse("malformed_action", f"This action takes exactly: {expected}.")
    for name, nullable, wanted, no_bool in checks:
        value = action[name]
        if value is None and nullable:
            continue
        if not isinstance(value, wanted) or (no_bool and isinstance(value, bool)):
            return refuse("malformed_action", f"The field {name!r} has the wrong type.")
    return None


# --- move ---------------------------------------------------------------------------------


def check_move(state: dict, seat: int, action: dict) -> dict | Refusal:
    origin, target, ability = action["from"], action["to"], action["ability"]
    if state["day"] == 1 and origin is not None:
        return refuse("from_on_day_one", 'On day 1 markers come from your hand: "from" is null.')
    if state["day"] > 1 and origin is None:
        return refuse("from_required", "Name the character whose standing marker you move.")
    if state["day"] > 1 and not standing_marker_on(state, seat, origin):
        return refuse("no_standing_marker", "You have no standing marker there.")
    if target not in CHARACTERS:
        return refuse("unknown_character", f"There is no character {target!r}.")
    card = board_card(state, target)
    if card is None:
        return refuse("not_in_play", "That character is not on the board.")
    if not card["face_up"]:
        return refuse("spent", "That character is spent today.")
    if marker_on(state, seat, target):
        return refuse("own_marker_there", "One of your markers is already on that character.")
    plan = {"from": origin, "to": target, "ability": ability, "use": None}
    if ability is not None:
        use = characters.check_ability(state, seat, target, ability)
        if isinstance(use, Refusal):
            return use
        plan["use"] = use
    return plan


def perform_move(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    marker = marker_on(state, seat, plan["from"]) if plan["from"] else in_hand(state, seat)
    replace_marker(state, seat, marker, plan["to"], False)
    set_seat(state, "moves_left", seat, state["moves_left"][seat] - 1)
    state["actor"] = seat
    effects: list[Event] = []
    result = {"paid": 0, "gained": 0}
    if plan["use"] is not None:
        result = characters.use_ability(state, seat, plan["to"], plan["use"], effects)
    moved = {
        "player": seat,
        "from": plan["from"],
        "to": plan["to"],
        "used": plan["ability"] is not None,
        "ability": plan["ability"],
        **result,
    }
    events.append(Event("moved", data=moved))
    events.extend(effects)
    if state["step"] == MOVE:  # no choice opened by the ability: the action is over
        flow.finish_action(state, events)
    return events


def in_hand(state: dict, seat: int) -> dict:
    return next(m for m in state["markers"][seat] if m["on"] is None)


# --- Pending choices ----------------------------------------------------------------------


def check_keep(state: dict, seat: int, action: dict) -> dict | Refusal:
    if action["card"] not in state["pending"]["looking"]:
        return refuse("not_eligible", "Keep one of the cards you are looking at.")
    return {"card": action["card"]}


def perform_keep(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    looking = state["pending"]["looking"]
    rest = [card for card in looking if card != plan["card"]]
    characters.gain_hidden(state, seat, plan["card"], "langdale_pike", events)
    state["discard"] += rest
    events.append(Event("pike_discarded", data={"player": seat, "count": len(rest)}))
    flow.finish_action(state, events)
    return events


def check_von_kramm_reply(state: dict, seat: int, action: dict) -> dict | Refusal:
    if action["pay"]:
        if cards_left(state) < 1:
            return refuse("not_enough_cards", "No card is left to draw.")
        if state["tokens"][seat] < 1:
            return refuse("cannot_pay", "Taking the card costs 1 investigation marker.")
    return {"pay": action["pay"]}


def perform_von_kramm_reply(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    events.append(Event("von_kramm_reply", data={"player": seat, "pay": plan["pay"]}))
    if plan["pay"]:
        pay_tokens(state, seat, 1)
        card = characters.draw_clue(state, events)
        characters.gain_hidden(state, seat, card, "von_kramm", events)
    flow.finish_action(state, events)
    return events


def check_moriarty(state: dict, seat: int, action: dict) -> dict | Refusal:
    give = action["give"]
    if give == "markers":
        if state["tokens"][seat] < flow.MORIARTY_TOLL:
            return refuse("cannot_pay", "You hold fewer than 2 investigation markers.")
        return {"give": give}
    if give not in state["visible"][seat]:
        return refuse("not_eligible", 'Give "markers" or one of your visible clues.')
    return {"give": give}


def perform_moriarty(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    data = {"player": seat, "give": plan["give"], "forced": False}
    if plan["give"] == "markers":
        data["returned"] = pay_tokens(state, seat, flow.MORIARTY_TOLL)
    else:
        remove_visible(state, seat, plan["give"])
        state["discard"].append(plan["give"])
    events.append(Event("moriarty", data=data))
    state["queue"] = state["queue"][1:]
    flow.continue_villain(state, events)
    return events


def check_moran(state: dict, seat: int, action: dict) -> dict | Refusal:
    if not standing_marker_on(state, seat, action["marker"]):
        return refuse("no_standing_marker", "You have no standing marker there.")
    return {"marker": action["marker"]}


def perform_moran(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    marker = standing_marker_on(state, seat, plan["marker"])
    replace_marker(state, seat, marker, marker["on"], False)
    set_seat(state, "moves_left", seat, state["moves_left"][seat] - 1)
    events.append(Event("moran", data={"player": seat, "marker": plan["marker"]}))
    state["queue"] = state["queue"][1:]
    flow.continue_villain(state, events)
    return events


def check_reserve(state: dict, seat: int, action: dict) -> dict | Refusal:
    card = action["card"]
    if card is not None and card not in state["line"]:
        return refuse("not_in_line", "Reserve a card of the line, or none (null).")
    return {"card": card}


def perform_reserve(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    card = plan["card"]
    events.append(Event("reserved", data={"player": seat, "card": card}))
    if card is not None:
        state["line"].remove(card)
        set_seat(state, "reserved", seat, card)
        state["card_holder"] = rival(seat)
        refill_line(state, events)
    flow.next_turn(state, events)
    return events


def check_assign(state: dict, seat: int, action: dict) -> dict | Refusal:
    mapping = action["assign"]
    cards = state["visible"][seat] + state["hidden"][seat]
    allowed = placeable_kinds(cards)
    for wild, kind in mapping.items():
        if not isinstance(kind, str):
            return refuse("malformed_action", "Each wildcard is assigned a kind's name.")
        if kind_of(wild) != WILD or wild not in state["visible"][seat]:
            return refuse("bad_assignment", f"{wild!r} is not one of your wildcards.")
        if kind not in NUMBERED or kind not in allowed:
            return refuse("bad_assignment", f"A wildcard cannot go to {kind!r}.")
    if len(set(mapping.values())) != len(mapping):
        return refuse("bad_assignment", "At most one wildcard goes to each kind.")
    return {"assign": dict(sorted(mapping.items()))}


def perform_assign(state: dict, seat: int, plan: dict) -> list[Event]:
    events: list[Event] = []
    set_seat(state, "assigned", seat, plan["assign"])
    events.append(Event("wildcards_assigned", data={"player": seat, "assign": plan["assign"]}))
    state["queue"] = state["queue"][1:]
    flow.continue_assign(state, events)
    return events


# --- Timeouts -----------------------------------------------------------------------------


def check_timeout(state: dict, player: object, action: dict) -> dict:
    return {}  # ``check_actor`` has checked who and when


def perform_timeout(state: dict, player: object, plan: dict) -> list[Event]:
    """Settle the current wait passively, as the awaited seat would (``default_action``)."""
    seat, step = state["turn"], state["step"]
    action = default_action(state, seat)
    kind, default_plan = MOVES.check(state, seat, action)
    events = MOVES.perform(state, seat, kind, default_plan)
    # The default action is not echoed: a Pike keep would name a private card.
    return [Event("timed_out", data={"player": seat, "step": step}), *events]


MOVES = MoveTable(
    {
        "move": (check_move, perform_move),
        "keep": (check_keep, perform_keep),
        "von_kramm_reply": (check_von_kramm_reply, perform_von_kramm_reply),
        "moriarty": (check_moriarty, perform_moriarty),
        "moran": (check_moran, perform_moran),
        "reserve": (check_reserve, perform_reserve),
        "assign_wildcards": (check_assign, perform_assign),
        "timeout": (check_timeout, perform_timeout),
    },
    check_actor=check_actor,
    clone=clone,
)
assert set(MOVES.moves) == set(ACTION_TYPES), "every action is handled"
apply = MOVES.apply
