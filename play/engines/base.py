"""What every rules engine shares: refusals, events, the system player and event filtering.

An engine is a module (or object) with six functions:

- ``setup(config, players, seed) -> state``
- ``legal_actions(state, player) -> list[dict]``
- ``apply(state, player, action) -> (state, list[Event]) | Refusal``
- ``view(state, player) -> dict`` (``player=None`` is a spectator)
- ``is_over(state) -> bool`` and ``outcome(state) -> dict | None``
- ``turn(state) -> int | None`` (whose turn it is, for notifications) and
  ``may_write_notes(state, seat) -> bool`` (the server keeps notebooks; rules may lock
  them): small reads the server makes on hot paths instead of building a whole view

and may declare ``FIXED_KEYS``: the keys of the state that ``setup`` fills and ``apply``
never changes (a case's cards, say). The server stores them once per table, not with
every move.

States are JSON-able plain values and are never mutated: ``apply`` returns a new state.
A player is a seat index (0..N-1); the server acts as ``SYSTEM``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

# The server's own seat, for actions no player takes: verdicts on answers, turn timers.
SYSTEM = "system"

# An event seen by every player and spectator.
EVERYONE = "all"


@dataclass(frozen=True)
class Refusal:
    """An action the rules do not allow: a machine code and a sentence for the player."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class Event:
    """Something that happened, with who may learn about it.

    ``audience`` is ``EVERYONE`` or a tuple of seat indices; spectators only see events
    for everyone.
    """

    type: str
    audience: str | tuple[int, ...] = EVERYONE
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        result = asdict(self)
        if isinstance(self.audience, tuple):
            result["audience"] = list(self.audience)
        return result


def can_see(event: Event, player: int | None) -> bool:
    """Whether ``player`` (a seat, or ``None`` for a spectator) may see ``event``."""
    if event.audience == EVERYONE:
        return True
    return player is not None and player in event.audience


def events_for(events: Iterable[Event], player: int | None) -> list[Event]:
    """The events among ``events`` that ``player`` may see, in order."""
    return [event for event in events if can_see(event, player)]
