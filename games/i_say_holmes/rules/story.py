"""The story sequence: playing a card, drawing, keeping, ending a turn (and dealing a case
for a game saved between two cases, before the rules dealt them themselves)."""

from __future__ import annotations

from games.base import Event, Refusal, refuse
from games.i_say_holmes.rules import cards, instructions, plays, table, tokens
from games.i_say_holmes.rules.state import DRAWN, MORE, PLAY, draw_cards, left_of, owned, owned_hand

PLAY_CHECKS = (
    ("target", "bad_target", "Name a player this card may target (never yourself)."),
    ("token", "bad_token", "Name an I Say token type (and where it comes from) this play allows."),
    ("token_from", "bad_token", "Name a seat that holds the token this play moves."),
    ("villain", "bad_villain", "Name a Villain from your hand to discard."),
    ("give", "bad_give", "Name both the player and the card from your hand to give, or neither."),
)


def check_play(state: dict, seat: int, action: dict) -> Refusal | dict:
    card = action.get("card")
    if not cards.is_card(card) or card not in state["hands"][seat]:
        return refuse("card_not_in_hand", "Play a card from your hand.")
    problem = plays.playable(state, seat, card)
    if problem:
        return refuse(problem, _PLAYABLE_MESSAGES[problem])
    options = plays.field_options(state, seat, card)
    listed = plays.listed(options, action)
    if listed is not None:  # the usual case: a listed action, taking only fields it may
        return {"card": card, **listed}
    extra = set(action) - {"type", "card"} - plays.takes(card)
    if extra:
        return refuse("bad_field", f"This card takes no {', '.join(sorted(extra))}.")
    checked: tuple[str, ...] = ()
    for field, code, message in PLAY_CHECKS:
        checked += (field,)
        options = plays.matching(options, action, checked)
        if not options:
            return refuse(code, message)
    return {"card": card, **options[0]}


_PLAYABLE_MESSAGES = {
    "only_drawn_card": "Now you may only play the card you drew.",
    "unplayable_card": "Villains, Interrupts and the opening card are never played on a turn.",
    "not_suitable": "That card does not follow the Current card.",
    "not_permissible": "That I Say card's condition does not hold now.",
}


def perform_play(state: dict, seat: int, params: dict) -> list[Event]:
    card = params["card"]
    step = state["turn"]["step"]
    owned_hand(state, seat).remove(card)
    state["drawn"] = None
    owned(state, "turn")["step"] = None
    public = {"seat": seat, "card": card}
    for key in ("target", "token", "token_from", "villain"):
        if key in params:
            public[key] = params[key]
    if "give" in params:
        public["gift"] = True
    events = [Event("played", data=public)]
    if cards.row(card).type == cards.I_SAY:
        owned(state, "discard").append(card)
        owned(state, "current")["holder"] = left_of(state, seat)
        if "token" in params:
            events.append(tokens.take_i_say(state, seat, params["token"], params.get("token_from")))
    else:
        table.lay_current(state, card, left_of(state, seat))
    state["resume"] = _after_play(state, card, step)
    return events + instructions.start(state, seat, card, params)


def _after_play(state: dict, card: str, step: str) -> str:
    """What a card leaves due once it has resolved: step more, or the next turn."""
    if step == DRAWN:
        return "next"
    if state["options"]["fast_play"]:
        return "next" if cards.kind(card) == cards.TRAVEL else MORE
    return MORE if step == PLAY and state["turn"]["deduction"] else "next"


def check_draw(state: dict, seat: int, action: dict) -> Refusal | dict:
    if set(action) != {"type"}:
        return refuse("malformed_action", "Drawing takes no other field.")
    if plays.following_in_hand(state, seat):
        return refuse("must_play", "You hold a card that follows the Current card: play one.")
    return {}


def perform_draw(state: dict, seat: int, params: dict) -> list[Event]:
    drawn, events = draw_cards(state, seat, 1)
    if not drawn:
        return events + _pass_current(state, seat)
    state["drawn"] = drawn[0]
    owned(state, "turn")["step"] = DRAWN
    return events


def check_keep(state: dict, seat: int, action: dict) -> Refusal | dict:
    if set(action) != {"type"}:
        return refuse("malformed_action", "Keeping takes no other field.")
    if cards.follows(state["drawn"], state["current"]["card"], state["location"]):
        return refuse("must_play_drawn", "The card you drew follows the Current card: play it.")
    return {}


def perform_keep(state: dict, seat: int, params: dict) -> list[Event]:
    state["drawn"] = None
    return [Event("kept", data={"seat": seat})] + _pass_current(state, seat)


def _pass_current(state: dict, seat: int) -> list[Event]:
    owned(state, "current")["holder"] = left_of(state, seat)
    owned(state, "turn")["step"] = None
    state["resume"] = "next"
    return []


def check_end_turn(state: dict, seat: int, action: dict) -> Refusal | dict:
    if set(action) != {"type"}:
        return refuse("malformed_action", "Ending the turn takes no other field.")
    return {}


def perform_end_turn(state: dict, seat: int, params: dict) -> list[Event]:
    owned(state, "turn")["step"] = None
    state["resume"] = "next"
    return [Event("ended_turn", data={"seat": seat})]


def check_next_case(state: dict, seat: int, action: dict) -> Refusal | dict:
    if set(action) != {"type"}:
        return refuse("malformed_action", "Dealing the next case takes no other field.")
    return {}


def perform_next_case(state: dict, seat: int, params: dict) -> list[Event]:
    state["pending"] = None
    return table.start_case(state)
