"""Set-up: the table's options, the token pools and the first case."""

from __future__ import annotations

from games import rng as rngs
from games.i_say_holmes.rules import settling, table, tokens
from games.i_say_holmes.rules.state import HARD_CASE_LIMIT, NAME, PLAYING, shuffled

MIN_PLAYERS, MAX_PLAYERS = 3, 8
# The table's options and their defaults. ``max_cases`` 0 plays until someone takes His
# Last Bow (with a hard stop at ``HARD_CASE_LIMIT``). The three waits are in seconds, 0
# for none of the game's own: a turn step or an Impromptu Arrest (``turn_seconds``), a
# response window (``window_seconds``), a secret choice (``choice_seconds``). No turn
# timer by default, so that a table nobody set one for never hurries anybody; a window
# long enough for a newcomer to read the card played on them.
OPTION_DEFAULTS = {
    "max_cases": 0,
    "fast_play": False,
    "turn_seconds": 0,
    "window_seconds": 30,
    "choice_seconds": 30,
}
# The longest wait each option may set.
SECONDS_LIMITS = {"turn_seconds": 3600, "window_seconds": 600, "choice_seconds": 600}
# Names the options had before they followed the rules' own: tables created then still
# store them, and API clients may still send them.
OLD_OPTION_NAMES = {"cases": "max_cases"}


def setup(config: dict, players: list[str], seed: int) -> dict:
    """A new game; ``ValueError`` for a table the rules cannot seat or options they refuse."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    options = read_options((config or {}).get("options") or {})
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
        "max_cases": options["max_cases"],
        "pool": pool,
        "holdings": [tokens.empty_holdings() for _ in players],
        "last_case": None,
        "result": None,
    }
    table.start_case(state)
    settling.settle(state)
    return state


def read_options(options: dict) -> dict:
    """The options under their own names, every one present; ``ValueError`` says what is
    wrong. An option left out or ``None`` takes its default."""
    if not isinstance(options, dict):
        raise ValueError("options are an object")
    options = renamed_options(options)
    unknown = set(options) - set(OPTION_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown options: {sorted(unknown)}")
    chosen = {**OPTION_DEFAULTS, **{k: v for k, v in options.items() if v is not None}}
    if not _whole(chosen["max_cases"]) or not 0 <= chosen["max_cases"] <= HARD_CASE_LIMIT:
        raise ValueError(f"max_cases is a whole number from 0 to {HARD_CASE_LIMIT}")
    if not isinstance(chosen["fast_play"], bool):
        raise ValueError("fast_play is true or false")
    for name, longest in SECONDS_LIMITS.items():
        if not _whole(chosen[name]) or not 0 <= chosen[name] <= longest:
            raise ValueError(f"{name} is a whole number of seconds from 0 to {longest}")
    return chosen


def renamed_options(options: dict) -> dict:
    """``options`` with any old name replaced by today's; both at once is refused."""
    renamed = dict(options)
    for old, new in OLD_OPTION_NAMES.items():
        if old in renamed:
            if new in renamed:
                raise ValueError(f"{new} is given twice, also under its old name {old}")
            renamed[new] = renamed.pop(old)
    return renamed


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
