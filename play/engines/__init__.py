"""Pure rules engines, one package per game, and their registry.

Engines know nothing of Django, the clock or global randomness; see ``base.py`` for the
interface they share. The server looks an engine up by the name stored on a game.
"""

from __future__ import annotations

from types import ModuleType

from play.engines import watson_holmes

ENGINES: dict[str, ModuleType] = {
    watson_holmes.NAME: watson_holmes,
}


def get_engine(name: str) -> ModuleType:
    """The engine registered under ``name``; ``KeyError`` names the known ones."""
    try:
        return ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise KeyError(f"no engine named {name!r} (known: {known})") from None
