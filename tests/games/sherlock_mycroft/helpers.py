"""Building Sherlock & Mycroft states for tests: stacked decks, cards and markers put
exactly where a test wants them, and a strict ``play`` that fails on any refusal."""

from __future__ import annotations

from games.base import Refusal
from games.sherlock_mycroft import rules
from games.sherlock_mycroft.rules.cards import CLUE_IDS, DECK_CHARACTERS, TOTAL_TOKENS

NAMES = ["alice", "bob"]
ALICE, BOB = 0, 1
ZONES = ("line", "deck", "discard")


def stacked(
    day_one=("langdale_pike", "toby"), top=(), variants=None, first=0, characters=None
) -> dict:
    """A new game whose Day-1 pair is ``day_one`` and whose clue deck starts with ``top``
    (then every other card in canonical order); no shuffle is drawn."""
    if characters is None:
        rest = [c for c in DECK_CHARACTERS if c not in day_one]
        villains = [v for v, on in (variants or {}).items() if on and v != "reserve_card"]
        characters = [*day_one, *villains, *rest]
    clues = [*top, *(c for c in CLUE_IDS if c not in top)]
    config = {
        "first": first,
        "variants": variants or {},
        "stack": {"clues": clues, "characters": list(characters)},
    }
    return rules.setup(config, list(NAMES), 1)


def play(state: dict, seat, action: dict) -> tuple[dict, list]:
    result = rules.apply(state, seat, action)
    assert not isinstance(result, Refusal), f"{action} refused: {result}"
    return result


def refused(state: dict, seat, action) -> str:
    result = rules.apply(state, seat, action)
    assert isinstance(result, Refusal), f"{action} was accepted"
    assert result.message.endswith(".")
    return result.code


def move(to: str, ability=None, origin=None) -> dict:
    return {"type": "move", "from": origin, "to": to, "ability": ability}


def place(state: dict, cards, zone: str, seat: int | None = None, at_end=True) -> dict:
    """Move ``cards`` from wherever they are to ``zone`` (``line``, ``deck`` (on top),
    ``discard``, or a seat's ``visible``/``hidden``/``hidden_known``/``reserved``)."""
    for card in cards:
        for name in ZONES:
            if card in state[name]:
                state[name].remove(card)
        for s in (0, 1):
            for name in ("visible", "hidden"):
                if card in state[name][s]:
                    state[name][s].remove(card)
            if state["reserved"][s] == card:
                state["reserved"][s] = None
    if zone == "reserved":
        state["reserved"][seat] = cards[0]
    elif zone in ZONES:
        state[zone] = [*cards, *state[zone]] if zone == "deck" else state[zone] + list(cards)
    else:
        state[zone][seat] = sorted(state[zone][seat] + list(cards), key=CLUE_IDS.index)
    if zone == "hidden_known":
        state["hidden"][seat] += list(cards)
    return state


def fill_line(state: dict) -> dict:
    while len(state["line"]) < 4 and state["deck"]:
        state["line"].append(state["deck"].pop(0))
    return state


def set_tokens(state: dict, alice: int, bob: int) -> dict:
    state["tokens"] = [alice, bob]
    state["reserve"] = TOTAL_TOKENS - alice - bob
    return state


def at_day(state: dict, day: int, alice=(), bob=(), standing=True) -> dict:
    """Jump to ``day`` with each seat's markers on the given characters, standing; extra
    characters needed on the board are appended (face up)."""
    state["day"] = day
    for seat, where in ((0, alice), (1, bob)):
        markers = [{"on": c, "standing": standing} for c in where]
        markers += [{"on": None, "standing": False} for _ in range(3 - len(markers))]
        state["markers"][seat] = markers
    on_board = {card["id"] for card in state["board"]}
    for character in [*alice, *bob]:
        if character not in on_board:
            add_character(state, character)
            on_board.add(character)
    return state


def add_character(state: dict, character: str, face_up=True) -> dict:
    if character in state["character_deck"]:
        state["character_deck"].remove(character)
    space = f"day{len(state['board']) - 3}"
    state["board"].append({"id": character, "space": space, "face_up": face_up})
    return state


def all_cards(state: dict) -> list[str]:
    """Every clue id wherever it lies, for conservation checks."""
    cards = state["line"] + state["deck"] + state["discard"]
    for seat in (0, 1):
        cards += state["visible"][seat] + state["hidden"][seat]
        if state["reserved"][seat]:
            cards.append(state["reserved"][seat])
    return cards + list(state["pending"].get("looking", []))


def event_types(events) -> list[str]:
    return [event.type for event in events]
