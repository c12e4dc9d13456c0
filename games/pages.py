"""The page kit: what every game's page shares, so that each game writes only its own.

A game's site is handed one ``PageContext`` (``GameSite.page(context)``): the member's
view, the table's seats, a reader of the events the member may see, and the builder of a
move's form. From it the kit gives

- ``SeatNames``: how a page names seats ("You", "your", "Alice's", "Alice and Bob"),
  an event's actor, and the words that agree with a seat ("you win", "Alice wins");
- ``tell`` and ``log_entries``: a game's events in sentences, from the game's one table of
  sentences (``Sentences``: event kind -> function of the event's data and the names), so
  that the log, the notifications and the headlines word an event the same way;
- ``newest_first`` and ``since_your_last_move``: the full log, and the moves others made
  since the viewer last acted, shown just under the status line (what the others did must
  not sit at the bottom of the page, below the game);
- ``turn_sentence``: the status line's plainest form ("It is your turn.");
- ``over_notice``: the end's notification, the table's title then the headline;
- ``moves_by_type``: the legal moves grouped by their type, for the move controls;
- ``seat_badge`` and ``result_panel``: a seat's colour and letter, and the end's headline,
  with the ranking each game fills in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.words import names_sentence

__all__ = [
    "SINCE_SHOWN",
    "PageContext",
    "SeatNames",
    "Sentences",
    "log_entries",
    "moves_by_type",
    "newest_first",
    "over_notice",
    "result_panel",
    "seat_badge",
    "seat_names",
    "since_your_last_move",
    "tell",
    "turn_sentence",
]

# At most this many sentences under the status line; the rest are counted, and the full
# log below the game holds them.
SINCE_SHOWN = 8

# A reader of the table's log: the (type, data) of the events of the given types that the
# member may see, oldest first.
EventReader = Callable[[Iterable[str]], list[tuple[str, dict]]]
# A move's form: ``control(action, label, version, **extra)`` (``GameSite.control``).
ControlBuilder = Callable[..., dict]
# A seat the table no longer knows (it cannot happen at a live table): grey, no letter.
UNKNOWN_SEAT = {"colour": "grey", "letter": "?", "name": ""}


class SeatNames:
    """How a page names seats: "You" for the member, else the seat's name now (a computer
    player's once the person who sat there has left). ``unknown`` names a seat the table
    does not know."""

    def __init__(self, names: Mapping[int, str], me: int | None, unknown: str = "Somebody"):
        self.names = dict(names)
        self.me = me
        self.unknown = unknown

    def name(self, seat) -> str:
        """The seat's name, even for the member (beside a "(you)" tag)."""
        return self.names.get(seat, self.unknown)

    def __call__(self, seat, *, capital: bool = True) -> str:
        if seat == self.me:
            return "You" if capital else "you"
        return self.name(seat)

    def possessive(self, seat, *, capital: bool = False) -> str:
        if seat == self.me:
            return "Your" if capital else "your"
        return f"{self.names.get(seat, self.unknown.lower())}'s"

    def actor(self, data: Mapping, *, key: str = "player", capital: bool = True) -> str:
        """The seat that acted in an event, named from the event's data (its ``key``)."""
        return self(data.get(key), capital=capital)

    def agree(self, seat, you: str, other: str) -> str:
        """The word that agrees with the seat: ``you`` for the member reading ("win",
        "your"), ``other`` for anyone else ("wins", "their")."""
        return you if seat == self.me else other

    def many(self, seats, *, capital: bool = True) -> str:
        """ "You, Alice and Bob"; "nobody" for no seat."""
        named = [self(seat, capital=capital and index == 0) for index, seat in enumerate(seats)]
        return names_sentence(named) or "nobody"


def seat_names(seats: dict[int, dict], players: Iterable[dict]) -> dict[int, str]:
    """Each seat's name as the table knows it now: a computer player's once the person who
    sat there has left (``seats``, the table's), else the name the game was set up with
    (``players``: the rules' entries, each with "seat" and "name"). A game's state keeps
    the names given at set-up; the seat is renamed, the state not."""
    names = {player["seat"]: player["name"] for player in players}
    names.update({number: seat["name"] for number, seat in seats.items() if seat.get("name")})
    return names


@dataclass
class PageContext:
    """What a game's page is built from, the same for every game.

    ``view``: the member's view (``view["game"]`` the rules' view with its
    ``legal_actions``, ``view["you"]["seat"]``, ``view["version"]``); ``seats``: the
    table's seats by number, as pages show them (name, colour, letter); ``events``: the
    reader of the events this member may see; ``control``: the builder of a move's form.
    """

    view: dict
    seats: dict[int, dict]
    events: EventReader | None = None
    control: ControlBuilder | None = None

    @property
    def game(self) -> dict:
        return self.view["game"]

    @property
    def me(self) -> int | None:
        return self.view["you"]["seat"]

    @property
    def version(self) -> int:
        return self.view["version"]

    @property
    def legal(self) -> list[dict]:
        return self.game.get("legal_actions") or []

    @cached_property
    def by_type(self) -> dict[str, list[dict]]:
        return moves_by_type(self.legal)

    def names(self, unknown: str = "Somebody", players: str = "players") -> SeatNames:
        """The seats' names for this member, from the table and the rules' view (which
        lists its players under ``players``, each with "seat" and "name")."""
        return SeatNames(seat_names(self.seats, self.game[players]), self.me, unknown)

    def happened(self, kinds: Iterable[str]) -> list[tuple[str, dict]]:
        """The events of these kinds the member may see, oldest first."""
        return list(self.events(kinds)) if self.events else []

    def seat(self, number) -> dict:
        """The table's seat (name, colour, letter), as the page shows it."""
        return seat_badge(self.seats, number)


# --- Sentences ------------------------------------------------------------------------------

# A game's table of sentences: event kind -> ``sentence(data, names)``; "" tells nothing.
Sentences = Mapping[str, Callable[[dict, SeatNames], str]]


def tell(sentences: Sentences, kind: str, data: dict, names: SeatNames) -> str:
    """The event in the game's own words, or "" for an event its table does not tell."""
    sentence = sentences.get(kind)
    return sentence(data, names) if sentence else ""


def log_entries(
    happened: Iterable[tuple[str, dict]],
    sentences: Sentences,
    names: SeatNames,
    actor: str = "player",
) -> list[dict]:
    """The events told, oldest first, each ``{"kind", "text", "player"}`` (the seat that
    acted, the event's ``actor`` key, or None for the game itself); events told in no
    words are left out."""
    entries = []
    for kind, data in happened:
        text = tell(sentences, kind, data, names)
        if text:
            entries.append({"kind": kind, "text": text, "player": data.get(actor)})
    return entries


def newest_first(entries: list[dict], length: int | None = None) -> list[dict]:
    """The log as pages show it: the newest first, the latest ``length`` of them."""
    kept = entries if length is None else entries[-length:]
    return list(reversed(kept))


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


# --- Status, moves, the end -----------------------------------------------------------------


def turn_sentence(names: SeatNames, seat, detail: str = "") -> str:
    """ "It is your turn." / "It is Alice's turn: Action phase." ("" for nobody's turn)."""
    if seat is None:
        return ""
    whose = "your" if seat == names.me else f"{names.name(seat)}'s"
    return f"It is {whose} turn{': ' + detail if detail else ''}."


def over_notice(title: str, headline: str = "") -> str:
    """The notification of a game's end: the table's title, then the headline as a
    spectator reads it; only the title when the notice carries too little to word it (one
    queued before it carried the result)."""
    return f"{title} is over: {headline}" if headline else f"{title} is over."


def moves_by_type(legal: Iterable[dict]) -> dict[str, list[dict]]:
    """The legal moves grouped by their type (a missing type: no moves)."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    for action in legal:
        grouped[action["type"]].append(action)
    return grouped


def seat_badge(seats: Mapping[int, dict], seat) -> dict:
    """The table's seat (name, colour, letter), or a grey "?" for one it does not know."""
    return seats.get(seat, UNKNOWN_SEAT)


def result_panel(sentence: str, winners: Iterable[int], me, ranking: list, **extra: Any) -> dict:
    """The end of a game as every page shows it: the headline, whether the viewer won, and
    the ranking (each game's own rows), with what else the game's panel shows."""
    return {"sentence": sentence, "you_won": me in set(winners), "ranking": ranking, **extra}
