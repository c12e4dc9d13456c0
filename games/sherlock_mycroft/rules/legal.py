"""Every legal action of a seat, in canonical order, and the passive default a timeout
plays for the awaited seat.

Moves come by ``from`` (board order), then ``to`` (board order), then the ability's
variants (smaller card sets first, cards in canonical order, the reserved clue last), with
``"ability": null`` last. The other choices list cards in canonical order, a refusal
("null", false) after the cards.
"""

from __future__ import annotations

from games.base import SYSTEM
from games.sherlock_mycroft.rules import characters
from games.sherlock_mycroft.rules.cards import FREE_GAIN_CHARACTERS, canonical
from games.sherlock_mycroft.rules.scoring import assignment_options, best_assignment
from games.sherlock_mycroft.rules.state import (
    ASSIGN,
    KEEP,
    MORAN,
    MORIARTY,
    MOVE,
    OVER,
    RESERVE,
    VON_KRAMM,
    cards_left,
    is_seat,
    open_targets,
    standing_characters,
)


def legal_actions(state: dict, player: object) -> list[dict]:
    if player == SYSTEM:
        return [{"type": "timeout"}] if state["step"] != OVER else []
    if not is_seat(player) or state["step"] == OVER or player != state["turn"]:
        return []
    return LISTERS[state["step"]](state, player)


def moves(state: dict, seat: int) -> list[dict]:
    origins = [None] if state["day"] == 1 else standing_characters(state, seat)
    # Which marker moves changes nothing about the target's abilities: list them once.
    targets = [(t, characters.usable_abilities(state, seat, t)) for t in open_targets(state, seat)]
    result = []
    for number, origin in enumerate(origins):
        for target, abilities in targets:
            for ability in abilities if number == 0 else map(fresh, abilities):
                result.append({"type": "move", "from": origin, "to": target, "ability": ability})
            result.append({"type": "move", "from": origin, "to": target, "ability": None})
    return result


def fresh(ability: dict) -> dict:
    """A copy of an ability object, so that no two listed actions share one."""
    return {key: list(value) if type(value) is list else value for key, value in ability.items()}


def keeps(state: dict, seat: int) -> list[dict]:
    return [{"type": "keep", "card": c} for c in canonical(state["pending"]["looking"])]


def von_kramm_replies(state: dict, seat: int) -> list[dict]:
    can_buy = state["tokens"][seat] >= 1 and cards_left(state) >= 1
    return [
        {"type": "von_kramm_reply", "pay": pay} for pay in ((True, False) if can_buy else (False,))
    ]


def moriarty_choices(state: dict, seat: int) -> list[dict]:
    gives = ["markers"] if state["tokens"][seat] >= 2 else []
    gives += state["visible"][seat]
    return [{"type": "moriarty", "give": give} for give in gives]


def moran_choices(state: dict, seat: int) -> list[dict]:
    return [{"type": "moran", "marker": c} for c in standing_characters(state, seat)]


def reserve_choices(state: dict, seat: int) -> list[dict]:
    cards = [*canonical(state["line"]), None]
    return [{"type": "reserve", "card": card} for card in cards]


def assignments(state: dict, seat: int) -> list[dict]:
    cards = state["visible"][seat] + state["hidden"][seat]
    return [{"type": "assign_wildcards", "assign": a} for a in assignment_options(cards)]


LISTERS = {
    MOVE: moves,
    KEEP: keeps,
    VON_KRAMM: von_kramm_replies,
    MORIARTY: moriarty_choices,
    MORAN: moran_choices,
    RESERVE: reserve_choices,
    ASSIGN: assignments,
}


# --- What a timeout plays -----------------------------------------------------------------


def default_action(state: dict, seat: int) -> dict:
    """The passive answer to the current wait: a move without ability (the free marker
    gain where the target gives one), the top card Pike shows, no to every offer, markers
    to Moriarty while held, the first standing marker for Moran, the best wildcards."""
    step = state["step"]
    if step == MOVE:
        move = next(m for m in moves(state, seat) if m["ability"] is None)
        if move["to"] in FREE_GAIN_CHARACTERS:
            move = {**move, "ability": {}}
        return move
    if step == KEEP:
        return {"type": "keep", "card": state["pending"]["looking"][0]}
    if step == VON_KRAMM:
        return {"type": "von_kramm_reply", "pay": False}
    if step == RESERVE:
        return {"type": "reserve", "card": None}
    if step == MORIARTY:
        return moriarty_choices(state, seat)[0]
    if step == MORAN:
        return moran_choices(state, seat)[0]
    cards = [state["visible"][s] + state["hidden"][s] for s in (0, 1)]
    options = assignment_options(cards[seat])
    chosen = best_assignment(options, cards, state["assigned"], state["reserved"], seat)
    return {"type": "assign_wildcards", "assign": chosen}
