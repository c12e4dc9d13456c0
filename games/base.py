"""The contract of a game: what its rules share (refusals, events, the system player, event
filtering) and the description the site reads (``Game``).

A game's rules are a module with the functions of ``Rules`` below. States are JSON-able
plain values and are never mutated: ``apply`` returns a new state. A player is a seat index
(0..N-1); the server acts as ``SYSTEM``, for verdicts and for timers: whenever
``waiting_for(state)`` names a seat, ``legal_actions(state, SYSTEM)`` offers
``{"type": "timeout"}``, which settles what those seats owed in the game's own default way
(pass, the first choice, a blank answer). The server applies it when the table's turn
timer, or the game's own deadline (``deadline_seconds``), runs out.

A table's config is ``{"options": {...}}``, every option of the game present
(``Game.clean_options`` fills the defaults), plus ``"case"`` for a game that ``needs_case``.
A game's bot policy lives beside its rules (``rules/bot.py``) and is as pure as they are.

A person may leave a started game. Where the game has a bot, a computer player takes the
seat. A game without one may say how play passes the seat by instead: ``Game.withdraw``,
``withdraw(state, seat) -> (state, events) | Refusal``, as pure as ``apply``. After it the
rules never wait for that seat (``waiting_for``, ``turn``) and offer it no action
(``legal_actions`` is empty), whatever it owed then is settled as ``timeout`` would settle
it, and its ``view`` still works. What was private to the seat stays private to it: no
other seat inherits it. If nobody is left to play, the game is over. A game with neither
keeps the seat: leaving it is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

# The server's own seat, for actions no player takes: verdicts on answers, turn timers.
SYSTEM = "system"

# An event seen by every player and spectator.
EVERYONE = "all"


@dataclass(frozen=True)
class Refusal:
    """An action the rules do not allow: a machine code and a sentence for the player.

    ``details`` (optional) says which part of the action the sentence is about, so that a
    page can show it by that field and an API client can find it: ``{"question": "place"}``
    for an answer left blank, say. Like the sentence, it never holds hidden information.
    """

    code: str
    message: str
    details: dict[str, Any] = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            result["details"] = dict(self.details)
        return result


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


class Rules(Protocol):
    """What every game's pure rules module provides (checked by the conformance test)."""

    # Keys of the state that ``setup`` fills and ``apply`` never changes (a case's cards,
    # say): the server stores them once per table, not with every move. May be empty.
    FIXED_KEYS: tuple[str, ...]

    def setup(self, config: dict, players: list[str], seed: int) -> dict:
        """The first state. ``ValueError`` (a sentence) for options these players cannot
        start with: the host is told, and the table stays in its lobby."""

    def legal_actions(self, state: dict, player: int | str) -> list[dict]: ...

    def apply(
        self, state: dict, player: int | str, action: object
    ) -> tuple[dict, list[Event]] | Refusal: ...

    def view(self, state: dict, player: int | None) -> dict:
        """What ``player`` may see (``None``: a spectator). A bot reads only this."""

    def is_over(self, state: dict) -> bool: ...

    def outcome(self, state: dict) -> dict | None:
        """At the end: ``{"winners": [seats], "scores": {seat: points} | None, ...}``."""

    def may_write_notes(self, state: dict, seat: int) -> bool:
        """Whether the seat may write in its notebook now (a game may forbid it a while)."""

    def turn(self, state: dict) -> int | None:
        """Whose turn it is, for notifications; ``None`` between turns."""

    def waiting_for(self, state: dict) -> list[int]:
        """Every seat that owes an action now (its turn, or a pending choice of its own)."""

    def deadline_seconds(self, state: dict) -> int | None:
        """How long the game itself lets the current wait last (a response window), or
        ``None`` when only the table's turn timer applies."""


# --- A game, as the server and the tests see it ---------------------------------------------


@dataclass(frozen=True)
class Option:
    """A house rule a table may set, with its default.

    Its kind follows its default: a yes/no switch (``bool``), a whole number between
    ``minimum`` and ``maximum`` (``int``), or one of ``choices`` (``str``: pairs of value
    and label). A default of ``None`` on a number means "the game decides from the number
    of players" (the rules read ``None`` and choose).
    """

    name: str
    label: str
    help: str = ""
    default: bool | int | str | None = False
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    kind: str = ""

    def __post_init__(self):
        if not self.kind:
            object.__setattr__(self, "kind", self._kind_of_default())

    def _kind_of_default(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        if self.choices:
            return "choice"
        return "int"

    def clean(self, value: Any) -> bool | int | str | None:
        """``value`` as this option stores it; ``OptionsInvalid`` says why not."""
        if value is None:
            return self.default
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if value in ("true", "on", "1", 1):
                return True
            if value in ("false", "off", "0", 0, ""):
                return False
            raise OptionsInvalid(f"{self.label} is yes or no.")
        if self.kind == "choice":
            allowed = [choice for choice, _ in self.choices]
            if value not in allowed:
                raise OptionsInvalid(f"{self.label} is one of: {', '.join(allowed)}.")
            return value
        return self._clean_number(value)

    def _clean_number(self, value: Any) -> int:
        if value == "" and self.default is None:
            return None
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise OptionsInvalid(f"{self.label} is a whole number.") from None
        if isinstance(value, bool) or (isinstance(value, float) and value != number):
            raise OptionsInvalid(f"{self.label} is a whole number.")
        low = self.minimum if self.minimum is not None else number
        high = self.maximum if self.maximum is not None else number
        if not low <= number <= high:
            raise OptionsInvalid(f"{self.label} is between {low} and {high}.")
        return number


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

    ``rules`` is the pure module with the functions of ``Rules`` (``setup``,
    ``legal_actions``, ``apply``, ``view``, ``is_over``, ``outcome``, ``turn``,
    ``waiting_for``, ``deadline_seconds``, ``may_write_notes``; ``FIXED_KEYS``). ``bot`` chooses
    a move from a seat's view alone: ``bot(view, seat, legal_actions, seed) -> action``,
    or ``None`` for a game without computer players. ``private_items(state, seat)`` lists
    the strings only that seat may see now (card texts...), for the leak tests.
    ``example_config(players)`` is a config a table could start from, for tests.
    ``withdraw(state, seat)`` is how play passes by a seat whose person left, for a game
    without ``bot`` (see the module's docstring), or ``None``.
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
    withdraw: Callable[[dict, int], tuple[dict, list[Event]] | Refusal] | None = None

    def __post_init__(self):
        if len(self.colours) < self.max_players:
            raise ValueError(f"{self.name}: fewer colours than seats")

    def clean_options(self, options: dict) -> dict:
        """The options of a new table: every option of the game, unknown names refused."""
        if not isinstance(options, dict):
            raise OptionsInvalid("Table options are an object of names and values.")
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptionsInvalid(f"Unknown table option: {', '.join(map(str, unknown))}.")
        return {name: option.clean(options.get(name)) for name, option in known.items()}
