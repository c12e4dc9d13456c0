"""What every game's page shares, so that each game writes only what is its own.

``since_your_last_move``: the sentences of every move others made (people and computer
players) since the viewer last acted, shown just under the status line: what the others
did must not sit at the bottom of the page, below the game.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["SINCE_SHOWN", "since_your_last_move"]

# At most this many sentences under the status line; the rest are counted, and the full
# log below the game holds them.
SINCE_SHOWN = 8


def since_your_last_move(entries: Iterable[dict], me: int | None) -> dict | None:
    """``entries``: the log, oldest first, each ``{"text", "player"}`` (the seat that
    acted, or None for the game itself). What happened after the viewer's own last entry,
    none of it theirs: ``{"lines": [...], "more": n}``, or None when there is nothing to
    tell (a spectator, nothing yet, or the viewer acted last)."""
    if me is None:
        return None
    entries = list(entries)
    last_own = max((i for i, e in enumerate(entries) if e.get("player") == me), default=None)
    if last_own is None:
        return None  # the viewer has not moved yet: the log tells the opening
    lines = [e["text"] for e in entries[last_own + 1 :] if e.get("player") != me and e["text"]]
    if not lines:
        return None
    return {"lines": lines[-SINCE_SHOWN:], "more": max(0, len(lines) - SINCE_SHOWN)}
