"""The contract of a game: what its rules share (refusals, events, the system player, event
filtering) and the description the site reads (``Game``).

A game's rules are the functions of ``Rules`` below, with defaults for what most games
share; its ``apply`` is a ``MoveTable`` of checks and performs. States are JSON-able
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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

# The server's own seat, for actions no player takes: verdicts on answers, turn timers.
SYSTEM = "system"

# An event seen by every player and spectator.
EVERYONE = "all"

# A computer player: ``bot(view, seat, legal_actions, seed) -> action``, choosing from a
# seat's view alone.
BotFn = Callable[[dict, int, list[dict], int], dict]

# The strengths a host may seat, weakest first; every game with computer players offers
# all three, and "normal" is the one that takes over a departed person's seat.
BOT_LEVELS = ("easy", "normal", "expert")
DEFAULT_BOT_LEVEL = "normal"


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


def refuse(code: str, message: str, **details: Any) -> Refusal:
    """A ``Refusal``, with ``details`` as keywords: what a move's check returns."""
    return Refusal(code, message, details)


def no_deadline(state: dict) -> int | None:
    """The default ``deadline_seconds``: no wait of the game's own, only a table's timer."""
    return None


def notes_always(state: dict, seat: int) -> bool:
    """The default ``may_write_notes``: a seat may always write in its notebook."""
    return True


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (much quicker than ``copy.deepcopy``): the default
    ``clone`` of a move table. A game copying only what its moves change may pass its own."""
    if isinstance(value, dict):
        return {key: copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_json(item) for item in value]
    return value


@dataclass(frozen=True)
class Rules:
    """A game's pure rules, as the site and the tests call them.

    - ``setup(config, players, seed) -> state``: the first state; ``ValueError`` (a
      sentence) for options these players cannot start with: the host is told, and the
      table stays in its lobby.
    - ``legal_actions(state, player) -> [action]``; ``apply(state, player, action) ->
      (state, events) | Refusal`` (see ``MoveTable``).
    - ``view(state, player)``: what ``player`` may see (``None``: a spectator). A bot
      reads only this.
    - ``is_over(state)``; ``outcome(state)``: at the end, ``{"winners": [seats],
      "scores": {seat: points} | None, ...}``, else ``None``.
    - ``turn(state)``: whose turn it is, for notifications; ``None`` between turns.
    - ``waiting_for(state)``: every seat that owes an action now (its turn, or a pending
      choice of its own), sorted.
    - ``deadline_seconds(state)``: how long the game itself lets the current wait last (a
      response window), or ``None`` when only the table's turn timer applies. Default:
      ``None``.
    - ``may_write_notes(state, seat)``: whether the seat may write in its notebook now (a
      game may forbid it a while). Default: always.
    - ``FIXED_KEYS``: keys of the state that ``setup`` fills and ``apply`` never changes (a
      case's cards, say): the server stores them once per table. Default: none.
    - ``ACTIONS``: the action vocabulary, ``{type: {"description", "example"}}``, for the
      API's schema. Default: none documented.

    A game's ``rules/__init__.py`` exports these under the same names; ``Rules.of(module)``
    reads them, taking the default for what the module leaves out.
    """

    setup: Callable[[dict, list[str], int], dict]
    legal_actions: Callable[[dict, int | str], list[dict]]
    apply: Callable[[dict, int | str, object], tuple[dict, list[Event]] | Refusal]
    view: Callable[[dict, int | None], dict]
    is_over: Callable[[dict], bool]
    outcome: Callable[[dict], dict | None]
    turn: Callable[[dict], int | None]
    waiting_for: Callable[[dict], list[int]]
    deadline_seconds: Callable[[dict], int | None] = no_deadline
    may_write_notes: Callable[[dict, int], bool] = notes_always
    FIXED_KEYS: tuple[str, ...] = ()
    ACTIONS: Mapping[str, dict] = field(default_factory=dict, hash=False)

    @classmethod
    def of(cls, module: Any) -> Rules:
        """The rules a module exports under these names; the defaults for the rest."""
        names = (each.name for each in fields(cls))
        return cls(**{name: getattr(module, name) for name in names if hasattr(module, name)})


# --- One dispatcher for every game's moves ----------------------------------------------------

# A move's check reads the state and returns a ``Refusal``, or the parameters to perform it
# with; its perform changes the copy of the state it is given and returns the events.
Check = Callable[[dict, Any, dict], Any]
Perform = Callable[[dict, Any, Any], list[Event]]


class MoveTable:
    """``apply`` (and ``check``) from a table of moves: ``{"draw": (check_draw,
    perform_draw), ...}``, split in two so that a refusal never costs a copy.

    ``apply`` refuses an action that is not an object with a known ``"type"``, then asks
    ``check_actor(state, player, action)`` (who may act now: seats, turns, the system's
    own moves; ``None`` when they may), then the move's check. It performs on
    ``clone(state)`` (by default a deep copy; a game's own may copy only what its moves
    change, or return a copy-on-write ``dict`` subclass), then runs ``settle(state)`` (what
    follows every move, if the game has any), and returns the new state, a plain ``dict``,
    and the events. The input state is never changed.
    """

    def __init__(
        self,
        moves: Mapping[str, tuple[Check, Perform]],
        *,
        check_actor: Callable[[dict, Any, dict], Refusal | None] | None = None,
        clone: Callable[[dict], dict] = copy_json,
        settle: Callable[[dict], list[Event]] | None = None,
    ):
        self.moves = dict(moves)
        self.check_actor = check_actor
        self.clone = clone
        self.settle = settle

    def check(self, state: dict, player: Any, action: object) -> Refusal | tuple[str, Any]:
        """The refusal for ``action``, or its type and the parameters to perform it."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return refuse("malformed_action", 'An action is an object with a "type".')
        kind = action["type"]
        if kind not in self.moves:
            return refuse("unknown_action", f"There is no action {kind!r} in this game.")
        if self.check_actor is not None:
            refusal = self.check_actor(state, player, action)
            if refusal:
                return refusal
        params = self.moves[kind][0](state, player, action)
        if isinstance(params, Refusal):
            return params
        return kind, params

    def perform(self, state: dict, player: Any, kind: str, params: Any) -> list[Event]:
        """Perform a checked move on ``state`` itself (a copy ``apply`` made)."""
        return self.moves[kind][1](state, player, params)

    def apply(self, state: dict, player: Any, action: object) -> tuple[dict, list[Event]] | Refusal:
        """Play ``action`` for ``player`` (a seat, or ``SYSTEM``); the input is untouched."""
        checked = self.check(state, player, action)
        if isinstance(checked, Refusal):
            return checked
        new_state = self.clone(state)
        events = self.perform(new_state, player, *checked)
        if self.settle is not None:
            events += self.settle(new_state)
        if type(new_state) is not dict:  # a copy-on-write draft: the state is a plain dict
            new_state = dict(new_state)
        return new_state, events


# --- A game, as the server and the tests see it ---------------------------------------------


@dataclass(frozen=True)
class Option:
    """A house rule a table may set, with its default.

    Its kind follows its default: a yes/no switch (``bool``), a whole number between
    ``minimum`` and ``maximum`` (``int``), or one of ``choices`` (``str``: pairs of value
    and label). A default of ``None`` on a number means "the game decides from the number
    of players" (the rules read ``None`` and choose). ``zero`` names what 0 means for a
    number where it is no count ("no limit"), for the lobby to show.
    """

    name: str
    label: str
    help: str = ""
    default: bool | int | str | None = False
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    kind: str = ""
    zero: str = ""

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
    """Everything the site needs to know of one game, each part named here.

    - ``rules``: the pure rules, a ``Rules`` (a module exporting their names is read with
      ``Rules.of``, defaults and all).
    - ``site``: the server side, a ``games.sites.GameSite`` subclass named by its dotted
      path (``"games.nim.site.NimSite"``, imported when the site first asks, as it may use
      Django), or any callable taking the game; ``None``: ``GameSite``'s defaults.
    - ``bots``: the computer players by strength (``BOT_LEVELS``), each a ``BotFn``
      choosing from a seat's view alone; empty for a game without them. ``bot`` is the
      ``normal`` one (given alone, it is the game's only strength).
    - ``private_items(state, seat)``: the strings only that seat may see now (card
      texts...), for the leak tests.
    - ``example_config(players, **options)``: a config a table could start from, for
      tests. Default: every option at its default, unless given.
    - ``withdraw(state, seat)``: how play passes by a seat whose person left, for a game
      without ``bot`` (see the module's docstring), or ``None``.
    - ``renamed_options``: ``{old name: name}`` for options a game has renamed. Tables
      created before store the old names, and API clients may still send them:
      ``clean_options`` and ``stored_options`` read them under today's names.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    needs_case: bool
    rules: Rules
    private_items: Callable[[dict, int], set[str]]
    example_config: Callable[..., dict] | None = None
    options: tuple[Option, ...] = ()
    colours: tuple[Colour, ...] = SEAT_COLOURS
    site: str | Callable[[Game], Any] | None = None
    bots: Mapping[str, BotFn] = field(default_factory=dict, hash=False)
    bot: BotFn | None = None
    withdraw: Callable[[dict, int], tuple[dict, list[Event]] | Refusal] | None = None
    renamed_options: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self):
        if len(self.colours) < self.max_players:
            raise ValueError(f"{self.name}: fewer colours than seats")
        if not isinstance(self.rules, Rules):
            object.__setattr__(self, "rules", Rules.of(self.rules))
        if self.example_config is None:
            object.__setattr__(self, "example_config", self._default_config)
        self._settle_bots()

    def _settle_bots(self) -> None:
        """``bots`` and ``bot`` agree: ``bot`` is the normal strength."""
        bots = dict(self.bots)
        if self.bot is not None and not bots:
            bots = {DEFAULT_BOT_LEVEL: self.bot}
        unknown = set(bots) - set(BOT_LEVELS)
        if unknown:
            raise ValueError(f"{self.name}: unknown bot levels {sorted(unknown)}")
        if bots and DEFAULT_BOT_LEVEL not in bots:
            raise ValueError(f"{self.name}: bots need a {DEFAULT_BOT_LEVEL!r} level")
        ordered = {level: bots[level] for level in BOT_LEVELS if level in bots}
        object.__setattr__(self, "bots", ordered)
        object.__setattr__(self, "bot", ordered.get(DEFAULT_BOT_LEVEL))

    def bot_for(self, level: str | None) -> BotFn | None:
        """The computer player of that strength; the normal one for an unknown level."""
        return self.bots.get(level or DEFAULT_BOT_LEVEL, self.bot)

    def _default_config(self, players: int, **options) -> dict:
        """A table's config: every option at its default, unless given."""
        return {"options": {**self.clean_options({}), **options}}

    def clean_options(self, options: dict) -> dict:
        """The options of a new table: every option of the game, unknown names refused."""
        if not isinstance(options, dict):
            raise OptionsInvalid("Table options are an object of names and values.")
        options = self._renamed(options)
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptionsInvalid(f"Unknown table option: {', '.join(map(str, unknown))}.")
        return {name: option.clean(options.get(name)) for name, option in known.items()}

    def stored_options(self, options: dict | None) -> dict:
        """A table's stored options under today's names, every option present: those it
        lacks (a table created before the game had them), or stores as ``None``, at their
        defaults. The values were cleaned when the table was created; a name the game no
        longer has is left out."""
        stored = self._renamed(options or {}, strict=False)
        result = {}
        for option in self.options:
            value = stored.get(option.name)
            result[option.name] = option.default if value is None else value
        return result

    def _renamed(self, options: dict, *, strict: bool = True) -> dict:
        renamed = dict(options)
        for old, new in self.renamed_options.items():
            if old not in renamed:
                continue
            value = renamed.pop(old)
            if new not in renamed:
                renamed[new] = value
            elif strict:
                label = next((o.label for o in self.options if o.name == new), new)
                raise OptionsInvalid(f"{label} is given twice, as {new} and as {old}.")
        return renamed
