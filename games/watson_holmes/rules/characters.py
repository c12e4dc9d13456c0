"""The eight character cards: who may use which action, and the actions played on their own.

Three characters act as part of a placement and are named on it (``"character"`` on a
``visit`` or ``baker_street`` action): Toby, Mary Morstan and Billy the page. Four act on
their own with ``{"type": "character", "character": ...}``: Mrs Hudson, Irene Adler,
Mycroft Holmes and Inspector Lestrade. Wiggins copies any of them, once, by naming the
copied character, after another player has revealed it by using it.
"""

from __future__ import annotations

from games.base import Event, Refusal
from games.watson_holmes.rules.state import (
    BAKER_STREET,
    CHARACTERS,
    DISCARD_GAIN,
    INVESTIGATION,
    OVER,
    READING_STEP,
    SOLVING_STEP,
    VISITING,
    card_key,
    gain,
    has_icon,
    is_playing,
    location_card,
    location_name,
    player_name,
    refuse,
)

PLACEMENT_CHARACTERS = ("toby", "mary_morstan", "billy")
STANDALONE_CHARACTERS = ("mrs_hudson", "irene_adler", "mycroft", "lestrade")
# Toby's action is used every round; the others once per game.
REUSABLE = ("toby",)
# Characters that act only while choosing locations.
VISITING_ONLY = ("irene_adler", "mycroft")


def source(state: dict, seat: int, name: str) -> str | None:
    """How ``seat`` may use ``name`` now: ``"own"`` card, ``"wiggins"`` copy, or ``None``."""
    player = state["players"][seat]
    if player["character"] == name:
        fresh = player["character_state"] == "hidden"
        again = name in REUSABLE and player["character_state"] == "used"
        return "own" if fresh or again else None
    copying = player["character"] == "wiggins" and player["character_state"] == "hidden"
    return "wiggins" if copying and name in revealed_by_others(state, seat) else None


def revealed_by_others(state: dict, seat: int) -> list[str]:
    """Characters another player has revealed by using them: what Wiggins may copy."""
    return [
        player["character"]
        for other, player in enumerate(state["players"])
        if other != seat and player["character_state"] == "used"
    ]


def check_source(state: dict, seat: int, name: object) -> Refusal | str:
    """The way ``seat`` uses character ``name``, or a refusal saying why they cannot."""
    if not isinstance(name, str) or name not in CHARACTERS:
        known = ", ".join(CHARACTERS)
        return refuse("unknown_character", f"There is no character {name!r} (known: {known}).")
    mode = source(state, seat, name)
    if mode:
        return mode
    player = state["players"][seat]
    title = CHARACTERS[name]
    if player["character"] == name:
        if player["character_state"] == "discarded":
            return refuse("character_discarded", f"You discarded {title}.")
        return refuse("character_used", f"You have already used {title}.")
    if player["character"] == "wiggins":
        if player["character_state"] != "hidden":
            return refuse("character_used", "You have already used Wiggins.")
        return refuse(
            "character_not_revealed",
            f"Wiggins can only copy a character another player has revealed; {title} is not.",
        )
    return refuse("character_not_held", f"You do not hold {title}.")


def mark_used(state: dict, seat: int, name: str, mode: str) -> Event:
    """Reveal the card that acts (the player's own, or Wiggins copying ``name``)."""
    player = state["players"][seat]
    player["character_state"] = "used"
    if mode == "wiggins":
        player["copied"] = name
    return Event(
        "character_used",
        data={"player": seat, "character": player["character"], "acts_as": name},
    )


# --- {"type": "character", "character": ...} ----------------------------------------------


def check_character(state: dict, seat: int, action: dict) -> Refusal | dict:
    name = action.get("character")
    if name in PLACEMENT_CHARACTERS:
        return refuse(
            "character_on_placement",
            f'{CHARACTERS[name]} acts as part of a visit: add "character": "{name}" to your visit.',
        )
    if name == "wiggins":
        return refuse(
            "wiggins_copies",
            "Wiggins has no action of its own: name the revealed character he copies.",
        )
    mode = check_source(state, seat, name)
    if isinstance(mode, Refusal):
        return mode
    phase = state["phase"]
    if name in VISITING_ONLY and phase != VISITING:
        return refuse(
            "wrong_phase", f"{CHARACTERS[name]} can only be revealed during a visiting phase."
        )
    if name == "mrs_hudson":
        refusal = _check_mrs_hudson(state, seat)
        if refusal:
            return refusal
    return {"name": name, "mode": mode}


def _check_mrs_hudson(state: dict, seat: int) -> Refusal | None:
    if state["pawns"][seat] != BAKER_STREET:
        return refuse("not_at_baker_street", "Mrs Hudson helps only a player at 221B Baker Street.")
    if seat in state["effects"]["hudson"]:
        return refuse("character_used", "Mrs Hudson already lets you attempt first.")
    judged = state["step"] == SOLVING_STEP and seat not in state["solving"]["queue"]
    if judged or seat in state["solving"]["group"]:
        return refuse("too_late", "Your answers are already being judged.")
    return None


def perform_character(state: dict, seat: int, params: dict) -> list[Event]:
    name = params["name"]
    events = [mark_used(state, seat, name, params["mode"])]
    if name == "lestrade":
        police = gain(state, seat, "police")
        call_off = gain(state, seat, "call_off")
        events.append(
            Event(
                "tokens_gained",
                data={"player": seat, "police": police, "call_off": call_off, "carriages": 0},
            )
        )
    elif name == "mrs_hudson":
        state["effects"]["hudson"].append(seat)
    elif name == "irene_adler":
        state["effects"]["irene"].append(seat)
    elif name == "mycroft":
        state["effects"]["mycroft"].append(seat)
    return events


# --- {"type": "discard_character"} ---------------------------------------------------------


def check_discard(state: dict, seat: int, action: dict) -> Refusal | dict:
    player = state["players"][seat]
    if player["character_state"] != "hidden":
        return refuse(
            "character_used", "Only a character whose action you have not used can be discarded."
        )
    return {}


def perform_discard(state: dict, seat: int, params: dict) -> list[Event]:
    # The card leaves face down: discarding does not reveal it.
    state["players"][seat]["character_state"] = "discarded"
    gained = gain(state, seat, "carriages", DISCARD_GAIN)
    return [Event("character_discarded", data={"player": seat, "carriages": gained})]


# --- {"type": "mycroft_read", "location": 7} -----------------------------------------------


def mycroft_targets(state: dict) -> list[str]:
    """Cards Mycroft may read: nobody's pawn on them, readable aloud, not guarded."""
    return [
        key
        for key in state["case"]["order"]
        if key not in state["bids"]
        and key not in state["police"]
        and not has_icon(state, key, "no_watson")
        and not has_icon(state, key, "locked")
    ]


def check_mycroft_read(state: dict, seat: int, action: dict) -> Refusal | dict:
    if state["phase"] != INVESTIGATION or state["step"] != READING_STEP:
        return refuse("wrong_phase", "Mycroft's extra card is read during the reading.")
    if seat not in state["effects"]["mycroft"]:
        return refuse("no_mycroft", "You have no extra card to read this round.")
    key = card_key(state, action.get("location"))
    if key is None:
        return refuse("unknown_location", f"There is no location {action.get('location')!r}.")
    if key not in mycroft_targets(state):
        return refuse(
            "not_readable",
            f"Mycroft can only read a card nobody visits this round, without a police "
            f"token, lock or no-Watson icon; {location_name(state, key)} is not one.",
        )
    return {"key": key}


def perform_mycroft_read(state: dict, seat: int, params: dict) -> list[Event]:
    key = params["key"]
    state["effects"]["mycroft"].remove(seat)
    state["readings"][seat].append(key)
    player = state["players"][seat]
    if key not in player["casebook"]:
        player["casebook"].append(key)
    card = location_card(state, key)
    return [
        Event("extra_read", data={"player": seat, "location": card["number"]}),
        Event(
            "card_read",
            audience=(seat,),
            data={
                "player": seat,
                "location": card["number"],
                "name": card["name"],
                "text": card["text"],
            },
        ),
    ]


def check_in_game(state: dict, seat: int) -> Refusal | None:
    """Refusal for a player who is out of the game (eliminated or already a winner)."""
    if state["phase"] == OVER:
        return refuse("game_over", "The game is over.")
    if not is_playing(state, seat):
        return refuse(
            "not_playing",
            f"{player_name(state, seat)} is no longer investigating and cannot do that.",
        )
    return None
