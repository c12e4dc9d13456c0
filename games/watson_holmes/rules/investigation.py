"""The investigation phase: Watson reads aloud, everyone reads, tokens, police, income.

Steps: ``watson`` (the Watson holder picks a card to read aloud), then ``reading`` (each
reader reads privately, may place a police token and says they are done; players at 221B
write their answers), then the Carriage Stop pays and 221B is solved (``solving.py``).
"""

from __future__ import annotations

from games.base import Event, Refusal
from games.watson_holmes.rules import characters, solving
from games.watson_holmes.rules.state import (
    BAKER_STREET,
    CARRIAGE_STOP,
    CARRIAGE_STOP_GAIN,
    INVESTIGATION,
    READING_STEP,
    SOLVING_STEP,
    VISITING,
    WATSON_STEP,
    answer_texts,
    card_key,
    clockwise_from,
    gain,
    has_icon,
    location_card,
    location_name,
    pawn_readers,
    refuse,
    seats,
)

TOKEN_ICONS = ("police", "call_off", "lockpick")


def begin(state: dict) -> list[Event]:
    state["phase"] = INVESTIGATION
    holder = state["watson"]["holder"]
    if holder is not None:
        if watson_targets(state):
            state["step"] = WATSON_STEP
            return []
        return [Event("watson_unused", data={"player": holder})] + begin_reading(state)
    return begin_reading(state)


def watson_targets(state: dict) -> list[str]:
    """Cards another player than the Watson holder reads this round, without no_watson."""
    holder = state["watson"]["holder"]
    return [
        key
        for key in state["bids"]
        if any(reader != holder for reader in pawn_readers(state, key))
        and not has_icon(state, key, "no_watson")
    ]


# --- watson_read ---------------------------------------------------------------------------


def check_watson_read(state: dict, seat: int, action: dict) -> Refusal | dict:
    if state["phase"] != INVESTIGATION or state["step"] != WATSON_STEP:
        return refuse("wrong_phase", "Watson reads aloud at the start of the investigation.")
    if state["watson"]["holder"] != seat:
        return refuse("not_watson", "Only the player holding Watson chooses what he reads.")
    key = card_key(state, action.get("location"))
    if key is None:
        return refuse("unknown_location", f"There is no location {action.get('location')!r}.")
    if key not in watson_targets(state):
        return refuse(
            "not_watson_target",
            f"Watson reads a card another player visits this round and that allows it; "
            f"{location_name(state, key)} is not one.",
        )
    return {"key": key}


def perform_watson_read(state: dict, seat: int, params: dict) -> list[Event]:
    key = params["key"]
    card = location_card(state, key)
    state["watson"]["read"] = key
    # Read aloud to the whole table: it goes in every casebook.
    for player in state["players"]:
        if key not in player["casebook"]:
            player["casebook"].append(key)
    event = Event(
        "watson_read",
        data={
            "player": seat,
            "location": card["number"],
            "name": card["name"],
            "text": card["text"],
        },
    )
    return [event] + begin_reading(state)


# --- reading: automatic part -----------------------------------------------------------------


def begin_reading(state: dict) -> list[Event]:
    """Spend what is on the cards, have everyone read, then hand out the icons' tokens.

    Reading is simultaneous, so every spend (carriages on the cards, lockpicks) reaches
    the stock before anyone gains; when a short stock cannot serve every reader, they
    take in turn from the Diary clockwise.
    """
    state["step"] = READING_STEP
    for bid in state["bids"].values():
        # Carriages on a card are spent, not returned to the bidder.
        state["stock"]["carriages"] += bid["carriages"]
        bid["spent"], bid["carriages"] = bid["carriages"], 0
    readers = [
        (seat, state["pawns"][seat])
        for seat in clockwise_from(state, state["diary"])
        if state["pawns"][seat] in state["bids"]
    ]
    events = []
    for seat, key in readers:
        events += _read(state, seat, key)
    for seat, key in readers:
        if key in state["readings"][seat]:
            events += _gain_icons(state, seat, key)
    for seat in seats(state):
        state["done"][seat] = not _must_finish(state, seat)
    return events + maybe_finish_reading(state)


def _read(state: dict, seat: int, key: str) -> list[Event]:
    """One reader reads their card: lockpick, casebook, zone."""
    player = state["players"][seat]
    card = location_card(state, key)
    number = card["number"]
    events = []
    guarded = key in state["police"] or "locked" in card["icons"]
    if guarded and seat not in state["effects"]["billy"]:
        if not player["lockpick"]:  # legal play cannot get here; kept as a guard
            return [Event("could_not_read", data={"player": seat, "location": number})]
        player["lockpick"] -= 1
        state["stock"]["lockpick"] += 1
        events.append(Event("lockpick_used", data={"player": seat, "location": number}))
    state["readings"][seat].append(key)
    if key not in player["casebook"]:
        player["casebook"].append(key)
    if card["zone"] is not None and state["case"]["zones"]:
        player["zone"] = card["zone"]
    text = {"player": seat, "location": number, "name": card["name"], "text": card["text"]}
    events.append(Event("card_read", audience=(seat,), data=text))
    return events


def _gain_icons(state: dict, seat: int, key: str) -> list[Event]:
    """The tokens the icons of the card a player read give them, as far as the stock goes."""
    card = location_card(state, key)
    gained = {kind: 0 for kind in (*TOKEN_ICONS, "carriages")}
    for kind in TOKEN_ICONS:
        if kind in card["icons"]:
            gained[kind] = gain(state, seat, kind)
    if "carriages" in card["icons"]:
        gained["carriages"] = gain(state, seat, "carriages", card["carriages"])
    if not any(gained.values()):
        return []
    return [Event("tokens_gained", data={"player": seat, **gained})]


def _must_finish(state: dict, seat: int) -> bool:
    """Readers and Mycroft's users must say they are done before the phase goes on."""
    return bool(state["readings"][seat]) or seat in state["effects"]["mycroft"]


def at_baker_street(state: dict) -> list[int]:
    return [seat for seat in seats(state) if state["pawns"][seat] == BAKER_STREET]


def maybe_finish_reading(state: dict) -> list[Event]:
    if state["step"] != READING_STEP:
        return []
    if not all(state["done"]):
        return []
    if any(state["answers"][seat] is None for seat in at_baker_street(state)):
        return []
    return finish_reading(state)


def finish_reading(state: dict) -> list[Event]:
    events = []
    # A short stock pays the Carriage Stop in turn from the Diary, clockwise.
    for seat in clockwise_from(state, state["diary"]):
        if state["pawns"][seat] == CARRIAGE_STOP:
            gained = gain(state, seat, "carriages", CARRIAGE_STOP_GAIN)
            events.append(Event("carriage_stop_income", data={"player": seat, "carriages": gained}))
    state["step"] = SOLVING_STEP
    # Only answers written are judged: a player at 221B whose time ran out before they
    # wrote any (``actions.perform_timeout``) has none, and is not judged this round.
    queue = [seat for seat in at_baker_street(state) if state["answers"][seat] is not None]
    state["solving"] = {"queue": queue, "group": [], "pause": []}
    return events + solving.next_group(state)


# --- place_police and done_reading ---------------------------------------------------------


def check_reader(state: dict, seat: int) -> Refusal | None:
    refusal = characters.check_in_game(state, seat)
    if refusal:
        return refusal
    if state["phase"] != INVESTIGATION or state["step"] != READING_STEP:
        return refuse("wrong_phase", "This is done while the cards are being read.")
    if state["done"][seat]:
        return refuse("already_done", "You have already finished reading this round.")
    return None


def check_place_police(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = check_reader(state, seat)
    if refusal:
        return refusal
    key = state["pawns"][seat]
    card = location_card(state, key) if key else None
    if card is None or card_key(state, action.get("location")) != key:
        return refuse("not_your_card", "You may only place police on the card your pawn read.")
    if not state["players"][seat]["police"]:
        return refuse("no_police_token", "You hold no police token.")
    name = card["name"]
    if key in state["police"]:
        return refuse("already_police", f"{name} already has a police token.")
    if any(icon in card["icons"] for icon in ("police", "call_off", "no_police")):
        return refuse("police_not_allowed", f"A police token cannot be placed on {name}.")
    return {"key": key}


def perform_place_police(state: dict, seat: int, params: dict) -> list[Event]:
    state["players"][seat]["police"] -= 1
    state["police"].append(params["key"])
    number = location_card(state, params["key"])["number"]
    return [Event("police_placed", data={"player": seat, "location": number})]


def check_done_reading(state: dict, seat: int, action: dict) -> Refusal | dict:
    return check_reader(state, seat) or {}


def perform_done_reading(state: dict, seat: int, params: dict) -> list[Event]:
    state["done"][seat] = True
    if seat in state["effects"]["mycroft"]:
        state["effects"]["mycroft"].remove(seat)
    return [Event("done_reading", data={"player": seat})] + maybe_finish_reading(state)


# --- answer (at 221B) ------------------------------------------------------------------------


def check_answer(state: dict, seat: int, action: dict) -> Refusal | dict:
    refusal = characters.check_in_game(state, seat)
    if refusal:
        return refusal
    if state["phase"] not in (VISITING, INVESTIGATION) or state["pawns"][seat] != BAKER_STREET:
        return refuse("not_at_baker_street", "Answers are written at 221B Baker Street.")
    if state["step"] == SOLVING_STEP and seat not in state["solving"]["queue"]:
        if state["answers"][seat] is None:
            # The table's timer ran out before this player wrote anything (``actions.py``).
            return refuse(
                "too_late",
                "Time ran out before you wrote your answers: you are not judged this round.",
            )
        # Players still waiting their turn at 221B may rewrite until they are called.
        return refuse("too_late", "Your answers at 221B are already being judged.")
    # The form's button says "Give these answers" first, then "Confirm these answers".
    before = "give your answers" if state["answers"][seat] is None else "confirm your answers"
    return check_answers_shape(state, action.get("answers"), before)


def check_answers_shape(state: dict, answers: object, before: str) -> Refusal | dict:
    if not isinstance(answers, dict):
        return refuse("malformed_action", '"answers" must map each question id to a text.')
    expected = [question["id"] for question in state["case"]["questions"]]
    missing = [qid for qid in expected if qid not in answers]
    extra = sorted(str(qid) for qid in answers if qid not in expected)
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing an answer to {', '.join(missing)}")
        if extra:
            parts.append(f"no question called {', '.join(extra)}")
        return refuse("bad_answers", "Your answers are " + "; ".join(parts) + ".")
    return answer_texts(state, answers, expected, before)


def perform_answer(state: dict, seat: int, params: dict) -> list[Event]:
    state["answers"][seat] = params["answers"]
    events = [
        Event("answers_written", data={"player": seat}),
        Event("your_answers", audience=(seat,), data={"answers": params["answers"]}),
    ]
    if state["step"] == SOLVING_STEP:
        # Waiting at 221B after another player failed: these answers stand.
        return events + solving.confirm_answers(state, seat)
    return events + maybe_finish_reading(state)
