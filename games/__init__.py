"""The games Holmes hosts, one folder each, and their registry.

A game is a folder ``games/<name>/`` holding its pure rules (``rules/``: no Django, no
clock, no global randomness) and its ``Game`` description (``games/base.py``). Adding a
game is adding its folder and its line below; the conformance test plays every game
registered here.
"""

from __future__ import annotations

from types import ModuleType

from games.base import Game
from games.holmes_elementary import GAME as HOLMES_ELEMENTARY
from games.i_say_holmes import GAME as I_SAY_HOLMES
from games.sherlock_mycroft import GAME as SHERLOCK_MYCROFT
from games.watson_holmes import GAME as WATSON_HOLMES

GAMES: dict[str, Game] = {
    game.name: game for game in (WATSON_HOLMES, SHERLOCK_MYCROFT, I_SAY_HOLMES, HOLMES_ELEMENTARY)
}


def get_game(name: str) -> Game:
    """The game registered under ``name``; ``KeyError`` names the known ones."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"no game named {name!r} (known: {known})") from None


def case_game() -> Game:
    """The game played with the site's cases (its catalogue opens tables of it)."""
    return next(game for game in GAMES.values() if game.needs_case)


def get_rules(name: str) -> ModuleType:
    """The pure rules of the game ``name`` (what a table's ``engine`` names)."""
    return get_game(name).rules
