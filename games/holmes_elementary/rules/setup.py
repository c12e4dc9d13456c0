"""``setup``: hide one card per suit in its spot, shuffle the rest, deal, start the first turn.

The state::

    players     per seat: name; hand (canonical); seen (every id it has held or been
                shown, one string in canonical order: its deduction notes); tokens;
                cases; correct (the suits it guessed right); wrong (the ids it named in
                wrong guesses, one string: the spots it may no longer guess);
                seen_spots (one string of the spot cards it saw by guessing wrong);
                last_look (its latest look at the deck, a hand or the discard);
                discard_looked (the pile's size right after its latest look at it, 0
                after each reshuffle)
    spots       suit -> the card its spot hid (still recorded once the spot is empty)
    emptied_by  suit -> the seat that guessed it right (empty spots only)
    deck        top first; discard (canonical); rng (games.rng's state)
    first, current, round, max_rounds, phase, pending (a choice the engine waits for),
    supply (case tokens left), result (at the end)
"""

from __future__ import annotations

from games.holmes_elementary.rules.cards import ALL_CARDS, SUITS, card_id
from games.holmes_elementary.rules.state import (
    ACTION,
    DEFAULT_MAX_ROUNDS,
    TOKEN_SUPPLY,
    give,
)
from games.holmes_elementary.rules.turns import investigate
from games.rng import below, seeded, shuffled

MIN_PLAYERS = 2
MAX_PLAYERS = 6
STARTING_HAND = 5
RANDOM_FIRST = "random"


def setup(config: dict, players: list[str], seed: int) -> dict:
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"The Elementary deck takes {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    settings = _settings(config)
    first_player = _first_player(settings.get("first_player"), len(players))
    max_rounds = _max_rounds(settings.get("max_rounds"))

    rng = seeded(seed)
    spots = {}
    for suit in SUITS:
        index, rng = below(rng, 10)
        spots[suit] = card_id(suit, index + 1)
    hidden = set(spots.values())
    deck, rng = shuffled([card for card in ALL_CARDS if card not in hidden], rng)
    if first_player == RANDOM_FIRST:
        first_player, rng = below(rng, len(players))

    state = {
        "players": [_new_player(str(name)) for name in players],
        "spots": spots,
        "emptied_by": {},
        "deck": deck,
        "discard": [],
        "rng": rng,
        "first": first_player,
        "current": first_player,
        "round": 1,
        "max_rounds": max_rounds,
        "phase": ACTION,
        "pending": None,
        "supply": TOKEN_SUPPLY,
        "result": None,
    }
    # A house rule that takes the private look at the discard pile away; stored only when
    # it does, so that a table with the usual rules keeps the usual state.
    if settings.get("discard_look") is False:
        state["discard_look"] = False
    for seat in range(len(players)):
        dealt, state["deck"] = state["deck"][:STARTING_HAND], state["deck"][STARTING_HAND:]
        give(state, seat, dealt)
    # The first Investigate happens at once; like the deal, it is told by the views alone.
    investigate(state)
    return state


def _new_player(name: str) -> dict:
    return {
        "name": name,
        "hand": [],
        "seen": "",
        "tokens": 0,
        "cases": 0,
        "correct": [],
        "wrong": "",
        "seen_spots": "",
        "last_look": None,
        "discard_looked": 0,
    }


def _settings(config: object) -> dict:
    """The table's options; top-level keys are read too, for callers without ``options``."""
    if not isinstance(config, dict):
        return {}
    options = config.get("options")
    return {**config, **(options if isinstance(options, dict) else {})}


def _first_player(value: object, players: int) -> int | str:
    if value is None:
        return 0
    if value == RANDOM_FIRST:
        return RANDOM_FIRST
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if type(value) is not int or not 0 <= value < players:
        raise ValueError(f"The first player is a seat from 0 to {players - 1}, or random.")
    return value


def _max_rounds(value: object) -> int:
    if value is None:
        return DEFAULT_MAX_ROUNDS
    if type(value) is not int or value < 1:
        raise ValueError("The round limit is a whole number of at least 1.")
    return value
