"""Set-up: the table's options, the token pools and the first case."""

from __future__ import annotations

from games import rng as rngs
from games.i_say_holmes.rules import settling, table, tokens
from games.i_say_holmes.rules.state import HARD_CASE_LIMIT, NAME, PLAYING, shuffled

MIN_PLAYERS, MAX_PLAYERS = 3, 8
DEFAULT_WINDOW_SECONDS = 20
WINDOW_SECONDS_RANGE = (5, 120)
# How many cases a table plays when it does not say: a game also ends with His Last Bow,
# usually after five or six arrests; bigger tables take longer over each case.
DEFAULT_CASES = {3: 5, 4: 5, 5: 4, 6: 4, 7: 3, 8: 3}
OPTION_DEFAULTS = {"cases": None, "window_seconds": DEFAULT_WINDOW_SECONDS, "fast_play": False}


def setup(config: dict, players: list[str], seed: int) -> dict:
    """A new game; ``ValueError`` for a table the rules cannot seat or options they refuse."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    options = read_options((config or {}).get("options") or {}, len(players))
    rng = rngs.seeded(seed)
    telegrams, rng = shuffled(list(tokens.TELEGRAMS), rng)
    pool = {"telegrams": telegrams}
    for kind in tokens.I_SAY_TYPES:
        pool[kind], rng = shuffled(tokens.i_say_ids(kind), rng)
    pool["books"] = [name for name, _, _ in tokens.BOOKS]
    pool["villains"] = list(tokens.VILLAIN_VP)
    state = {
        "engine": NAME,
        "players": list(players),
        "options": options,
        "rng": rng,
        "phase": PLAYING,
        "case": 0,
        "cases_closed": 0,
        "max_cases": options["cases"],
        "pool": pool,
        "holdings": [tokens.empty_holdings() for _ in players],
        "last_case": None,
        "result": None,
    }
    table.start_case(state)
    settling.settle(state)
    return state


def read_options(options: dict, players: int) -> dict:
    if not isinstance(options, dict):
        raise ValueError("options are an object")
    unknown = set(options) - set(OPTION_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown options: {sorted(unknown)}")
    chosen = {**OPTION_DEFAULTS, **{k: v for k, v in options.items() if v is not None}}
    cases = chosen["cases"] if chosen["cases"] is not None else DEFAULT_CASES[players]
    if not _whole(cases) or not 1 <= cases <= HARD_CASE_LIMIT:
        raise ValueError(f"cases is a whole number from 1 to {HARD_CASE_LIMIT}")
    low, high = WINDOW_SECONDS_RANGE
    if not _whole(chosen["window_seconds"]) or not low <= chosen["window_seconds"] <= high:
        raise ValueError(f"window_seconds is a whole number from {low} to {high}")
    if not isinstance(chosen["fast_play"], bool):
        raise ValueError("fast_play is true or false")
    return {
        "cases": cases,
        "window_seconds": chosen["window_seconds"],
        "fast_play": chosen["fast_play"],
    }


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
