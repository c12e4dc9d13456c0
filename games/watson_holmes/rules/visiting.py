"""The visiting phase: taking turns to place pawns, bidding, outbidding and access rules."""

from __future__ import annotations

from games.base import Event, Refusal
from games.watson_holmes.rules import characters, investigation
from games.watson_holmes.rules.state import (
    BAKER_STREET,
    CARRIAGE_STOP,
    CHARACTERS,
    PLAYING,
    SPECIAL_LOCATIONS,
    TOBY_VALUE,
    VISITING,
    WATSON_COST,
    card_key,
    carriages_text,
    clockwise_from,
    has_icon,
    location_card,
    location_name,
    pay,
    player_name,
    refuse,
    travel_cost,
)


def bid_value(bid: dict) -> int:
    """What a pawn's stake on a card counts for: its carriages, or 2 for Toby's token."""
    return TOBY_VALUE if bid["token"] else bid["carriages"]


def describe_stake(state: dict, bid: dict) -> str:
    holder = player_name(state, bid["player"])
    if bid["token"]:
        return f"{holder}'s Toby token (worth {TOBY_VALUE} carriages)"
    if bid["carriages"] == 0:
        return f"{holder} (on foot)"
    return f"{holder} with {carriages_text(bid['carriages'])}"


def must_go_to_baker_street(state: dict, seat: int) -> bool:
    """The last player in the game whose extra rounds have run out must try to solve."""
    last = state["last_player"]
    return bool(last) and last["seat"] == seat and last["rounds_left"] <= 0


def check_turn(state: dict, seat: int) -> Refusal | None:
    refusal = characters.check_in_game(state, seat)
    if refusal:
        return refusal
    if state["phase"] != VISITING:
        return refuse("wrong_phase", "Locations are chosen during the visiting phase.")
    if state["turn"] != seat:
        turn = player_name(state, state["turn"])
        return refuse("not_your_turn", f"It is {turn}'s turn to choose a location.")
    return None


def _check_forced(state: dict, seat: int) -> Refusal | None:
    if must_go_to_baker_street(state, seat):
        return refuse(
            "must_solve",
            "Your extra rounds are over: you must go to 221B Baker Street and solve the case.",
        )
    return None


# --- take_watson --------------------------------------------------------------------------


def check_take_watson(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = check_turn(state, seat) or _check_forced(state, seat)
    if refusal:
        return refusal
    holder = state["watson"]["holder"]
    if holder is not None:
        return refuse(
            "watson_taken", f"{player_name(state, holder)} already has Watson this round."
        )
    held = state["players"][seat]["carriages"]
    if held < WATSON_COST:
        return refuse(
            "not_enough_carriages",
            f"Watson costs {WATSON_COST} carriages and you hold {carriages_text(held)}.",
        )
    return {}


def perform_take_watson(state: dict, seat: int, params: dict) -> list[Event]:
    pay(state, seat, "carriages", WATSON_COST)
    state["watson"]["holder"] = seat
    return [Event("watson_taken", data={"player": seat, "carriages": WATSON_COST})]


# --- carriage_stop and baker_street ---------------------------------------------------------


def check_carriage_stop(state: dict, seat: int, action: dict) -> Refusal | dict:
    return check_turn(state, seat) or _check_forced(state, seat) or {}


def perform_carriage_stop(state: dict, seat: int, params: dict) -> list[Event]:
    state["pawns"][seat] = CARRIAGE_STOP
    events = [Event("went_to_carriage_stop", data={"player": seat})]
    return events + end_turn(state, seat)


def check_baker_street(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = check_turn(state, seat)
    if refusal:
        return refusal
    name = action.get("character")
    if name is None:
        return {"character": None}
    if name != "toby":
        return refuse("character_not_here", "Only Toby can be placed on 221B Baker Street.")
    mode = characters.check_source(state, seat, name)
    if isinstance(mode, Refusal):
        return mode
    return {"character": name, "mode": mode}


def perform_baker_street(state: dict, seat: int, params: dict) -> list[Event]:
    events = []
    if params["character"]:
        events.append(characters.mark_used(state, seat, "toby", params["mode"]))
        state["effects"]["toby_221b"].append(seat)
    state["pawns"][seat] = BAKER_STREET
    # Going to 221B, a player announces the carriages they hold: the solving order.
    held = state["players"][seat]["carriages"]
    events.append(Event("went_to_baker_street", data={"player": seat, "carriages": held}))
    return events + end_turn(state, seat)


# --- visit ---------------------------------------------------------------------------------


def check_visit(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = check_turn(state, seat) or _check_forced(state, seat)
    if refusal:
        return refusal
    key = _check_location(state, action.get("location"))
    if isinstance(key, Refusal):
        return key
    carriages = action.get("carriages", 0)
    if not isinstance(carriages, int) or isinstance(carriages, bool) or carriages < 0:
        return refuse("bad_carriages", "Carriages must be a whole number, 0 to go on foot.")
    call_off = action.get("call_off", False)
    if not isinstance(call_off, bool):
        return refuse("malformed_action", '"call_off" must be true or false.')
    name = action.get("character")
    mode = None
    if name is not None:
        if name not in characters.PLACEMENT_CHARACTERS:
            title = CHARACTERS.get(name) if isinstance(name, str) else None
            title = title or repr(name)
            return refuse("character_not_here", f"{title} is not played as part of a visit.")
        mode = characters.check_source(state, seat, name)
        if isinstance(mode, Refusal):
            return mode
    plan = {
        "key": key,
        "carriages": carriages,
        "call_off": call_off,
        "character": name,
        "mode": mode,
        "travel": travel_cost(state, seat, key),
    }
    return _check_access(state, seat, plan) or _check_stake(state, seat, plan) or plan


def _check_location(state: dict, number: object) -> Refusal | str:
    if isinstance(number, str) and number in SPECIAL_LOCATIONS:
        kind = "baker_street" if number == BAKER_STREET else "carriage_stop"
        return refuse(
            "use_other_action",
            f"To go to {SPECIAL_LOCATIONS[number]}, use the {kind} action.",
        )
    key = card_key(state, number)
    if key is None:
        return refuse("unknown_location", f"There is no location {number!r} in this case.")
    return key


def _check_access(state: dict, seat: int, plan: dict) -> Refusal | None:
    """Police tokens and locks: call-off, lockpick or Billy the page."""
    key, player = plan["key"], state["players"][seat]
    name = location_name(state, key)
    policed = key in state["police"]
    locked = has_icon(state, key, "locked")
    billy = plan["character"] == "billy" or seat in state["effects"]["billy"]
    if plan["call_off"]:
        if not player["call_off"]:
            return refuse("no_call_off", "You hold no call-off token.")
        if not policed:
            return refuse("nothing_to_call_off", f"There is no police token on {name}.")
        policed = False
    if plan["character"] == "billy" and not (policed or locked):
        return refuse(
            "billy_not_needed", f"{name} is neither under police surveillance nor locked."
        )
    if billy or player["lockpick"]:
        return None
    if policed:
        return refuse(
            "under_police",
            f"{name} is under police surveillance: play a call-off token, or hold a "
            "lockpick, to visit it.",
        )
    if locked:
        return refuse("locked", f"{name} is locked: you need a lockpick to read it.")
    return None


def _check_stake(state: dict, seat: int, plan: dict) -> Refusal | None:
    """Bids, outbids, Toby and Mary Morstan; then whether the player can pay for it."""
    key, carriages, name = plan["key"], plan["carriages"], plan["character"]
    bid = state["bids"].get(key)
    place = location_name(state, key)
    if name == "mary_morstan":
        if bid is None:
            return refuse(
                "nobody_there", f"Mary Morstan joins a player at a location; {place} is free."
            )
        if carriages:
            return refuse("no_bid_with_mary", "Mary Morstan visits without carriages.")
    elif name == "toby":
        if carriages:
            return refuse("toby_alone", "Toby replaces carriages: bid 0 carriages with Toby.")
        if plan["travel"]:
            return refuse("toby_zone", f"Toby only goes to locations in your zone; {place} is not.")
        if bid is not None and bid_value(bid) >= TOBY_VALUE:
            return refuse(
                "bid_too_low",
                f"{place} is held by {describe_stake(state, bid)}; Toby counts as "
                f"{TOBY_VALUE} and cannot outbid that.",
            )
    elif bid is not None:
        needed = bid_value(bid) + 1
        if carriages < needed:
            return refuse(
                "bid_too_low",
                f"{place} is held by {describe_stake(state, bid)}; you need at least "
                f"{carriages_text(needed)} to outbid.",
            )
    cost = carriages + plan["travel"]
    held = state["players"][seat]["carriages"]
    if cost > held:
        detail = f" ({carriages} bid + {plan['travel']} travel)" if plan["travel"] else ""
        return refuse(
            "not_enough_carriages",
            f"You hold {carriages_text(held)}; this visit costs {cost}{detail}.",
        )
    return None


def perform_visit(state: dict, seat: int, plan: dict) -> list[Event]:
    key, name = plan["key"], plan["character"]
    events = []
    if name:
        events.append(characters.mark_used(state, seat, name, plan["mode"]))
        if name == "billy":
            state["effects"]["billy"].append(seat)
    if plan["travel"]:
        pay(state, seat, "carriages", plan["travel"])
    if plan["call_off"]:
        # Both tokens go back to the stock: the card is free of police for everyone.
        pay(state, seat, "call_off")
        state["police"].remove(key)
        state["stock"]["police"] += 1
    number = location_card(state, key)["number"]
    bid = state["bids"].get(key)
    if name == "mary_morstan":
        bid["guests"].append(seat)
    else:
        if bid is not None:
            events.append(_outbid(state, bid, key, seat))
        state["players"][seat]["carriages"] -= plan["carriages"]
        token = ("toby" if plan["mode"] == "own" else "wiggins") if name == "toby" else None
        guests = bid["guests"] if bid else []
        state["bids"][key] = {
            "player": seat,
            "carriages": plan["carriages"],
            "token": token,
            "guests": guests,
            "spent": 0,
        }
    state["pawns"][seat] = key
    events.append(
        Event(
            "visited",
            data={
                "player": seat,
                "location": number,
                "carriages": plan["carriages"],
                "travel": plan["travel"],
                "call_off": plan["call_off"],
                "character": name,
            },
        )
    )
    return events + end_turn(state, seat)


def _outbid(state: dict, bid: dict, key: str, by: int) -> Event:
    """The outbid pawn goes home with its carriages but one, which goes to the stock."""
    loser = bid["player"]
    state["pawns"][loser] = None
    fee = 1 if bid["carriages"] else 0
    state["players"][loser]["carriages"] += bid["carriages"] - fee
    state["stock"]["carriages"] += fee
    return Event(
        "outbid",
        data={
            "player": loser,
            "by": by,
            "location": location_card(state, key)["number"],
            "returned": bid["carriages"] - fee,
            "fee": fee,
        },
    )


def end_turn(state: dict, seat: int, diary: int | None = None) -> list[Event]:
    """Pass the turn clockwise to the next player without a pawn, or end the phase.

    The Diary goes to whoever placed the last pawn (``seat``), unless ``diary`` says
    otherwise: a player leaving on their turn places nothing (``withdraw.py``)."""
    for other in clockwise_from(state, seat)[1:]:
        player = state["players"][other]
        if player["status"] == PLAYING and state["pawns"][other] is None:
            state["turn"] = other
            return []
    # Whoever placed the last pawn takes the Diary and starts the next round.
    state["diary"] = seat if diary is None else diary
    state["turn"] = None
    events = [Event("visiting_ended", data={"diary": state["diary"]})]
    return events + investigation.begin(state)
