"""The characters' abilities: what each accepts (``check_ability``), what each does
(``use_ability``), the variants worth listing (``candidate_abilities``) and those of them
that are legal now (``usable_abilities``).

An ability object is checked in a fixed order: its shape, its counts, repeated cards,
cards missing from the line, then card-specific eligibility, cards left to draw and last
the price. ``check_ability`` returns a ``Refusal`` or a plan: ``{"cost", ...}`` that
``use_ability`` carries out on a copy of the state.
"""

from __future__ import annotations

from itertools import combinations

from games.base import Event, Refusal, refuse
from games.sherlock_mycroft.rules.cards import (
    FREE_GAIN_CHARACTERS,
    MAP,
    MARKER_GAINS,
    TAKE_COUNTS,
    VALUE,
    WILD,
    canonical,
    kind_of,
    take_cost,
)
from games.sherlock_mycroft.rules.state import (
    KEEP,
    VON_KRAMM,
    add_hidden,
    add_visible,
    cards_left,
    draw_clue,
    gain_tokens,
    pay_tokens,
    remove_visible,
    rival,
    set_seat,
    toby_gain,
)

# The keys of each character's ability object, and the JSON type of each value.
SHAPES = {
    "watson": {"take": list},
    "von_kramm": {"take": list},
    "lestrade": {"take": list},
    "gregson": {"take": list},
    "mrs_hudson": {},
    "wiggins": {},
    "toby": {},
    "irene_adler": {"steal": str},
    "langdale_pike": {"look": int},
    "shinwell_johnson": {"discard": list},
    "billy": {"discard": str},
    "violet_hunter": {"give": str, "take": str},
}
# Cards Shinwell may discard and Pike may look at, at most.
MOST_CARDS = 3


def check_ability(state: dict, seat: int, character: str, ability: dict) -> dict | Refusal:
    shape = SHAPES[character]
    if not fits_shape(ability, shape):
        keys = ", ".join(shape) or "no fields"
        return refuse("bad_ability", f"This character's ability takes {keys}.")
    if character in TAKE_COUNTS:
        return check_take(state, seat, character, ability["take"])
    checks = {
        "mrs_hudson": check_gain,
        "wiggins": check_gain,
        "toby": check_gain,
        "irene_adler": check_steal,
        "langdale_pike": check_look,
        "shinwell_johnson": check_intimidation,
        "billy": check_errand,
        "violet_hunter": check_swap,
    }
    return checks[character](state, seat, character, ability)


def fits_shape(ability: dict, shape: dict) -> bool:
    if set(ability) != set(shape):
        return False
    for key, kind in shape.items():
        value = ability[key]
        if kind is int and (type(value) is not int):
            return False
        if kind is str and not isinstance(value, str):
            return False
        if kind is list and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            return False
    return True


def check_cards(cards: list[str], low: int, high: int) -> Refusal | None:
    if not low <= len(cards) <= high:
        wanted = f"exactly {low}" if low == high else f"between {low} and {high}"
        return refuse("wrong_count", f"Name {wanted} cards.")
    if len(set(cards)) != len(cards):
        return refuse("duplicate_card", "Name each card only once.")
    return None


def can_pay(state: dict, seat: int, cost: int) -> Refusal | None:
    if state["tokens"][seat] < cost:
        return refuse("cannot_pay", f"This costs {cost} investigation markers.")
    return None


def check_take(state, seat, character, cards) -> dict | Refusal:
    low, high = TAKE_COUNTS[character]
    refusal = check_cards(cards, low, high)
    if refusal:
        return refusal
    reserved = state["reserved"][seat]
    if any(card not in state["line"] and card != reserved for card in cards):
        return refuse("not_in_line", "Take only cards in the line (or your reserved clue).")
    cost = take_cost(character, len(cards))
    return can_pay(state, seat, cost) or {"cost": cost, "take": list(cards)}


def check_gain(state, seat, character, ability) -> dict:
    return {"cost": 0}


def check_steal(state, seat, character, ability) -> dict | Refusal:
    card = ability["steal"]
    if card not in state["visible"][rival(seat)] or kind_of(card) == WILD:
        return refuse("not_stealable", "Irene takes one of the rival's visible clues, no wildcard.")
    cost = state["day"]
    return can_pay(state, seat, cost) or {"cost": cost, "steal": card}


def check_look(state, seat, character, ability) -> dict | Refusal:
    count = ability["look"]
    if not 1 <= count <= MOST_CARDS:
        return refuse("wrong_count", "Langdale Pike looks at 1 to 3 cards.")
    if cards_left(state) < count:
        return refuse("not_enough_cards", "There are not that many cards left to look at.")
    return can_pay(state, seat, count) or {"cost": count, "look": count}


def check_intimidation(state, seat, character, ability) -> dict | Refusal:
    cards = ability["discard"]
    refusal = check_cards(cards, 1, MOST_CARDS)
    if refusal:
        return refusal
    if any(card not in state["line"] for card in cards):
        return refuse("not_in_line", "Shinwell discards only cards in the line.")
    return {"cost": 0, "discard": list(cards)}


def check_errand(state, seat, character, ability) -> dict | Refusal:
    card = ability["discard"]
    if card not in state["visible"][seat] or kind_of(card) not in VALUE:
        return refuse("not_eligible", "Billy takes one of your visible numbered clues.")
    return {"cost": 0, "discard": card}


def check_swap(state, seat, character, ability) -> dict | Refusal:
    if ability["take"] not in state["line"]:
        return refuse("not_in_line", "Violet Hunter takes a card from the line.")
    if ability["give"] not in state["visible"][seat]:
        return refuse("not_eligible", "Violet Hunter gives one of your visible clues.")
    return {"cost": 0, "give": ability["give"], "take": ability["take"]}


# --- Using an ability --------------------------------------------------------------------


def use_ability(state: dict, seat: int, character: str, plan: dict, events: list) -> dict:
    """Carry out ``plan`` (from ``check_ability``); what was paid and gained."""
    paid = pay_tokens(state, seat, plan["cost"])
    gained = 0
    if character in TAKE_COUNTS:
        take_clues(state, seat, plan["take"], events)
        if character == "von_kramm":
            offer_state_secret(state, seat)
    elif character in MARKER_GAINS:
        gained = gain_tokens(state, seat, MARKER_GAINS[character])
    elif character == "toby":
        gained = gain_tokens(state, seat, toby_gain(state, seat))
    elif character == "irene_adler":
        steal(state, seat, plan["steal"], events)
    elif character == "langdale_pike":
        look(state, seat, plan["look"], events)
    elif character == "shinwell_johnson":
        for card in plan["discard"]:
            state["line"].remove(card)
        state["discard"] += plan["discard"]
        events.append(
            Event(
                "clues_discarded",
                data={"player": seat, "cards": plan["discard"], "source": "line"},
            )
        )
    elif character == "billy":
        gained = run_errand(state, seat, plan["discard"], events)
    elif character == "violet_hunter":
        swap(state, seat, plan["give"], plan["take"], events)
    return {"paid": paid, "gained": gained}


def take_clues(state: dict, seat: int, cards: list[str], events: list) -> None:
    from_reserve = None
    for card in cards:
        if card == state["reserved"][seat]:
            set_seat(state, "reserved", seat, None)
            from_reserve = card
        else:
            state["line"].remove(card)
    add_visible(state, seat, cards)
    events.append(
        Event(
            "clues_taken",
            data={"player": seat, "cards": list(cards), "reserved_clue": from_reserve},
        )
    )


def offer_state_secret(state: dict, seat: int) -> None:
    """Von Kramm lets the rival buy the top deck card, if it has a marker and a card is
    left to draw; otherwise there is nothing to ask."""
    other = rival(seat)
    if state["tokens"][other] >= 1 and cards_left(state) >= 1:
        state["step"] = VON_KRAMM
        state["turn"] = other
        state["pending"] = {"active": seat}


def steal(state: dict, seat: int, card: str, events: list) -> None:
    remove_visible(state, rival(seat), card)
    add_hidden(state, seat, card, known=True)
    events.append(Event("clue_stolen", data={"player": seat, "card": card, "from": rival(seat)}))


def look(state: dict, seat: int, count: int, events: list) -> None:
    cards = [draw_clue(state, events) for _ in range(count)]
    state["step"] = KEEP
    state["turn"] = seat
    state["pending"] = {"looking": cards}
    events.append(Event("looked", data={"player": seat, "count": count}))
    events.append(Event("looked_cards", (seat,), {"player": seat, "cards": cards}))


def run_errand(state: dict, seat: int, card: str, events: list) -> int:
    remove_visible(state, seat, card)
    state["discard"].append(card)
    events.append(
        Event("clues_discarded", data={"player": seat, "cards": [card], "source": "visible"})
    )
    return gain_tokens(state, seat, max(0, VALUE[kind_of(card)] - state["day"]))


def swap(state: dict, seat: int, give: str, take: str, events: list) -> None:
    state["line"][state["line"].index(take)] = give
    remove_visible(state, seat, give)
    add_visible(state, seat, [take])
    events.append(Event("clues_swapped", data={"player": seat, "gave": give, "took": take}))


def gain_hidden(state: dict, seat: int, card: str, source: str, events: list) -> None:
    """A card from the deck goes to the hidden stack; a wildcard is shown and goes to the
    visible area instead."""
    if kind_of(card) == WILD:
        add_visible(state, seat, [card])
        events.append(
            Event("wildcard_revealed", data={"player": seat, "card": card, "source": source})
        )
        return
    add_hidden(state, seat, card)
    events.append(Event("hidden_gained", data={"player": seat, "source": source}))
    events.append(Event("hidden_card", (seat,), {"player": seat, "card": card}))


# --- The variants worth listing ----------------------------------------------------------


def candidate_abilities(state: dict, seat: int, character: str) -> list[dict]:
    """Every ability object that could be legal for ``character``, in canonical order; the
    caller keeps those ``check_ability`` accepts."""
    line = canonical(state["line"])
    if character in TAKE_COUNTS:
        pool = line + ([state["reserved"][seat]] if state["reserved"][seat] else [])
        low, high = TAKE_COUNTS[character]
        return [
            {"take": list(cards)}
            for count in range(low, high + 1)
            for cards in combinations(pool, count)
        ]
    if character in FREE_GAIN_CHARACTERS:
        return [{}]
    if character == "irene_adler":
        return [{"steal": card} for card in state["visible"][rival(seat)]]
    if character == "langdale_pike":
        return [{"look": count} for count in range(1, MOST_CARDS + 1)]
    if character == "shinwell_johnson":
        return [
            {"discard": list(cards)}
            for count in range(1, MOST_CARDS + 1)
            for cards in combinations(line, count)
        ]
    mine = state["visible"][seat]
    if character == "billy":
        return [{"discard": card} for card in mine if kind_of(card) not in (WILD, MAP)]
    return [{"give": give, "take": take} for give in mine for take in line]


def usable_abilities(state: dict, seat: int, character: str) -> list[dict]:
    """The candidates ``check_ability`` accepts, in the same order, without checking each
    one: every candidate has the right shape, names distinct cards where they lie and
    meets the character's own conditions, so only the price and the cards left to draw
    can rule one out. (A test compares this with ``check_ability`` on random states.)"""
    tokens = state["tokens"][seat]
    if character in TAKE_COUNTS:
        candidates = candidate_abilities(state, seat, character)
        return [a for a in candidates if take_cost(character, len(a["take"])) <= tokens]
    if character == "irene_adler":
        if tokens < state["day"]:
            return []
        candidates = candidate_abilities(state, seat, character)
        return [a for a in candidates if kind_of(a["steal"]) != WILD]
    if character == "langdale_pike":
        most = min(tokens, cards_left(state), MOST_CARDS)
        return [{"look": count} for count in range(1, most + 1)]
    return candidate_abilities(state, seat, character)
