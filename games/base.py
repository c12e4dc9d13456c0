"""The contract of a game: what its rules share (refusals, events, the system player, event
filtering) and the description the site reads (``Game``).

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

from collections.abc import Callable, Iterable
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


# --- A game, as the server and the tests see it ---------------------------------------------


@dataclass(frozen=True)
class Option:
    """A house rule a table may set: a yes/no switch (today every option is one)."""

    name: str
    label: str
    help: str = ""
    default: bool = False


@dataclass(frozen=True)
class Colour:
    """A seat's colour; the letter makes sure colour is never the only cue."""

    value: str
    label: str
    letter: str


SEAT_COLOURS = (
    Colour("red", "Red", "R"),
    Colour("blue", "Blue", "B"),
    Colour("green", "Green", "G"),
    Colour("yellow", "Yellow", "Y"),
    Colour("purple", "Purple", "P"),
    Colour("orange", "Orange", "O"),
    Colour("grey", "Grey", "K"),
    Colour("teal", "Teal", "T"),
)


class OptionsInvalid(ValueError):
    """Table options a game does not take: the message is a sentence for the host."""


@dataclass(frozen=True)
class Game:
    """Everything the site needs to know of one game.

    ``rules`` is the pure module (``setup``, ``legal_actions``, ``apply``, ``view``,
    ``is_over``, ``outcome``, ``turn``; ``FIXED_KEYS`` where it has them). ``bot`` chooses
    a move from a seat's view alone: ``bot(view, seat, legal_actions, seed) -> action``,
    or ``None`` for a game without computer players. ``private_items(state, seat)`` lists
    the strings only that seat may see now (card texts...), for the leak tests.
    ``example_config(players)`` is a config a table could start from, for tests.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    needs_case: bool
    rules: Any
    private_items: Callable[[dict, int], set[str]]
    example_config: Callable[[int], dict]
    options: tuple[Option, ...] = ()
    colours: tuple[Colour, ...] = SEAT_COLOURS
    bot: Callable[[dict, int, list[dict], int], dict] | None = None

    def __post_init__(self):
        if len(self.colours) < self.max_players:
            raise ValueError(f"{self.name}: fewer colours than seats")

    def clean_options(self, options: dict) -> dict:
        """The options of a new table: every option of the game, unknown names refused."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptionsInvalid(f"Unknown table option: {', '.join(unknown)}.")
        return {name: bool(options.get(name, option.default)) for name, option in known.items()}
