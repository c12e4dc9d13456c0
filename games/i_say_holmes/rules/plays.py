"""Which cards a player may play now, and every legal set of fields for each.

``field_options`` is the single source of truth: ``legal_actions`` lists its
combinations, and ``check_play`` refuses what is not among them, naming the first field
that rules an action out.
"""

from __future__ import annotations

from games.i_say_holmes.rules import cards, tokens
from games.i_say_holmes.rules.state import DRAWN, MORE, opponents_from_left

FIELDS = ("target", "token", "token_from", "villain", "give")
TARGETING = ("DRAW1", "DRAW2", "CLUE", "SHOW", "ARREST", "LOOK", "LOOK+", "SWAP")


def takes(card: str) -> set[str]:
    """The fields ``card`` may ever take."""
    row = cards.row(card)
    fields = set()
    if row.type == cards.I_SAY:
        fields |= {"token", "token_from"}
    code = row.instruction
    if code in TARGETING or code in ("WIRE", "GIFT", "GIVE"):
        fields.add("target")
    if code == "WIRE":
        fields.add("token_from")
    if code == "GIFT":
        fields |= {"token", "token_from"}
    if code == "GIVE":
        fields.add("give")
    if code == "DROP":
        fields.add("villain")
    return fields


def playable(state: dict, seat: int, card: str) -> str | None:
    """``None`` if ``card`` may be played now, else the refusal code."""
    turn = state["turn"]
    if turn["step"] == DRAWN and card != state["drawn"]:
        return "only_drawn_card"
    card_type = cards.row(card).type
    if card_type in (cards.VILLAIN, cards.INTERRUPT, cards.START):
        return "unplayable_card"
    current = state["current"]["card"]
    if card_type != cards.I_SAY:
        return None if card in cards.following(current, state["location"]) else "not_suitable"
    if turn["step"] == MORE and state["options"]["fast_play"] and not cards.lists_i_say(current):
        return "not_suitable"
    return None if cards.permissible(card, current) else "not_permissible"


def following_in_hand(state: dict, seat: int) -> list[str]:
    following = cards.following(state["current"]["card"], state["location"])
    return [card for card in state["hands"][seat] if card in following]


def field_options(state: dict, seat: int, card: str) -> list[dict]:
    """Every legal combination of fields for playing ``card`` now."""
    token_parts = _token_options(state, seat, card)
    rests = _instruction_options(state, seat, card)
    if token_parts == [{}]:
        return rests
    return [{**token_part, **rest} for token_part in token_parts for rest in rests]


def _token_options(state: dict, seat: int, card: str) -> list[dict]:
    """An I Say card played in sequence earns its player a token, if they lack a type."""
    if not cards.is_i_say(card) or not cards.lists_i_say(state["current"]["card"]):
        return [{}]
    return _i_say_token_choices(state, seat, excluded=seat) or [{}]


def _i_say_token_choices(state: dict, receiver: int, excluded: int) -> list[dict]:
    options = []
    for kind in tokens.lacking(state, receiver):
        if state["pool"][kind]:
            options.append({"token": kind})
        else:
            options += [
                {"token": kind, "token_from": source}
                for source in tokens.holders(state, kind)
                if source != excluded
            ]
    return options


def _instruction_options(state: dict, seat: int, card: str) -> list[dict]:
    code = cards.row(card).instruction
    others = opponents_from_left(state, seat)
    if code in TARGETING:
        return [{"target": other} for other in others]
    if code == "WIRE":
        return [option for other in others for option in _wire_options(state, other)]
    if code == "GIFT":
        return _gift_options(state, others)
    if code == "GIVE":
        rest = [other for other in state["hands"][seat] if other != card]
        return [{}] + [{"target": other, "give": gift} for other in others for gift in rest]
    if code == "DROP":
        villains = [other for other in state["hands"][seat] if cards.is_villain(other)]
        return [{"villain": villain} for villain in villains] or [{}]
    return [{}]


def _wire_options(state: dict, target: int) -> list[dict]:
    if state["pool"]["telegrams"]:
        return [{"target": target}]
    sources = tokens.telegram_sources(state, target)
    return [{"target": target, "token_from": source} for source in sources] or [{"target": target}]


def _gift_options(state: dict, others: list[int]) -> list[dict]:
    lacking = [other for other in others if tokens.lacking(state, other)]
    if not lacking:
        return [{}]
    return [
        {"target": other, **choice}
        for other in lacking
        for choice in _i_say_token_choices(state, other, excluded=other)
    ]


def strictly_equal(one: object, other: object) -> bool:
    return type(one) is type(other) and one == other


def listed(options: list[dict], action: dict) -> dict | None:
    """The first of ``options`` whose fields are exactly the action's (the same values, of
    the same types), if any: the quick way to accept a play."""
    fields = dict(action)
    fields.pop("type", None)
    fields.pop("card", None)
    for option in options:
        if option == fields:
            for key, value in option.items():
                if type(value) is not type(fields[key]):
                    break
            else:
                return option
    return None


def matching(options: list[dict], action: dict, fields: tuple[str, ...]) -> list[dict]:
    missing = object()
    return [
        option
        for option in options
        if all(strictly_equal(option.get(f, missing), action.get(f, missing)) for f in fields)
    ]
