"""The server side of a game: what the site needs beyond the pure rules.

A game names its site in ``Game.site``, usually a ``GameSite`` subclass in its folder's
``site.py``: how a table of the game is set up (from a case, or from its options alone),
what its players are told and when, what a finished table records, and how its page shows
a seat's view. ``play`` knows tables, seats, moves, bots and timers, and asks the game's
site for everything else, so a new game touches nothing in ``play``.

A site may use Django and the case domain (``cases``); it never imports ``play``,
``accounts`` or ``authoring`` (an import contract checks it). What it needs of a table
(its events, say) ``play`` hands it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from types import MappingProxyType
from typing import Any

from games import get_game
from games.base import Event, Game, Refusal
from games.pages import (
    EventReader,
    PageContext,
    SeatNames,
    Sentences,
    log_entries,
    newest_first,
    over_notice,
    seat_names,
    since_your_last_move,
    turn_sentence,
)
from games.words import names_sentence

__all__ = ["EventReader", "GameSite", "PageContext", "action_label", "get_site", "seat_names"]


class GameSite:
    """Defaults that suit a card game: no case, options only, turn and end notices."""

    # The template of the game's part of the table page, given ``game`` (``page``'s dict).
    template = "games/_table_generic.html"
    # Shown once above the live region (a case's introduction, say), or nothing.
    brief_template: str | None = None
    # The game's own style sheet (a static path), loaded by its table page, or nothing.
    stylesheet: str | None = None
    # Moves whose meaning depends on the board as the player saw it: the page sends the
    # version with them, and a move made on an out-of-date board is refused as stale.
    versioned_actions: frozenset[str] = frozenset()
    # Moves that count against a player's answer budget (throttled like guesses).
    throttled_actions: frozenset[str] = frozenset()
    # The game's table of sentences (``games.pages.Sentences``: event kind -> sentence),
    # each event worded once. The generic page tells those events in its log and under
    # "Since your last move"; without any, it shows neither.
    sentences: Sentences = MappingProxyType({})
    # How many of the latest events the generic page's log shows.
    log_length = 12
    # The game's own wording of the end's notice, given (title, names, details), as a
    # staticmethod; without one the notice names the winners. What it reads beyond the
    # winners, ``end_facts`` puts into the notice's details.
    end_wording: Callable[[str, Mapping[int, str], dict], str] | None = None

    def __init__(self, game: Game):
        self.game = game

    # --- A table's set-up -----------------------------------------------------------------

    def summary(self, case_version=None) -> dict:
        """The public facts every list and view names a table by (kept on its row)."""
        return {"title": self.game.title}

    def player_range(self, case_version=None) -> tuple[int, int]:
        return self.game.min_players, self.game.max_players

    def config(self, *, case_version, options: dict, host_seat: int) -> dict:
        """What ``rules.setup`` is given."""
        return {"options": dict(options)}

    # --- After a move -----------------------------------------------------------------------

    def progress(self, state: dict) -> dict:
        """Where a game stands, in public facts lists may show (kept on the table's
        summary, written when they change): the seats it waits for, and its round when
        the game counts rounds (``None`` otherwise)."""
        rules = self.game.rules
        waiting = [] if rules.is_over(state) else list(rules.waiting_for(state))
        return {"waiting_for": sorted(waiting), "round": None}

    def notices(self, before: dict, after: dict, events: list[Event]) -> list[tuple[str, dict]]:
        """The notifications a move calls for, as (kind, details): a new turn, the end."""
        rules = self.game.rules
        changes = []
        turn_before, turn_after = rules.turn(before), rules.turn(after)
        if turn_after is not None and turn_after != turn_before:
            changes.append(("your_turn", {"player": turn_after}))
        if rules.is_over(after) and not rules.is_over(before):
            outcome = rules.outcome(after) or {}
            winners = {"winners": list(outcome.get("winners", []))}
            changes.append(("game_over", {**winners, **self.end_facts(after)}))
        return changes

    def end_facts(self, after: dict) -> dict:
        """What the end's notice carries besides the winners, taken from the final state
        when the move is made: a notice is worded later, and must read as the page's
        headline does then. Nothing by default."""
        return {}

    def notice_text(self, kind: str, title: str, names: dict[int, str], details: dict) -> str:
        if kind == "table_started":
            return f"Your table for {title} has started."
        if kind == "your_turn":
            return f"It is your turn at {title}."
        if kind == "game_over" and self.end_wording is not None:
            return self.end_wording(title, names, details)
        if kind == "game_over":
            winners = [names[seat] for seat in details.get("winners", []) if seat in names]
            return over_notice(title, f"{names_sentence(winners)} won." if winners else "")
        raise ValueError(f"unknown notice {kind!r} for {self.game.name}")

    def notice_recipients(self, kind: str, details: dict, seats: list[int]) -> list[int]:
        if kind == "your_turn":
            return [seat for seat in seats if seat == details.get("player")]
        return list(seats)

    def outcome_record(self, outcome: dict) -> dict:
        """What a finished table keeps of the rules' outcome, for figures and lists."""
        return {"winners": list(outcome.get("winners", [])), "scores": outcome.get("scores")}

    # --- Judging (games whose answers the server judges) ----------------------------------

    def judgement_requests(self, state: dict) -> list[dict]:
        """Requests the rules wait on a verdict for: none, unless the game judges."""
        return []

    # --- Reads ------------------------------------------------------------------------------

    def view_extras(self, *, case_version_id, game_view: dict, may_reveal_case=None) -> dict:
        """More for a member's view, beside the rules' own (the solution, at the end).

        `may_reveal_case()`: whether the site lets this viewer see the case's secrets now
        (not while they play the same case at another table); ask it before showing any,
        and only then, as it costs a query. When it says no, the extras hold
        ``"solution_withheld": True`` and the view goes through ``view_withheld``."""
        return {}

    # --- Keeping a case's secrets from a viewer who still plays it -------------------------

    # Events that quote answers or verdicts (private ones: a player's own answers, a
    # check's result...). A member the case is withheld from gets none of them from the
    # table's history, whatever their audience.
    withheld_events: frozenset[str] = frozenset()

    def shows_case_to(self, state: dict, seat: int | None) -> bool:
        """Whether the rules would show this seat (None: a spectator) the case's secrets
        now: its solution, and the answers given and judged. A game without a case has
        none to show."""
        return False

    def view_withheld(self, game_view: dict) -> dict:
        """The rules' view for a viewer the case's secrets are withheld from (they play
        the case elsewhere, or their device holds a seat still playing it): without the
        answers given, their verdicts, the checker's reasons, or any other result that
        tells what the right answers are. By default the view as it is."""
        return game_view

    def timer_label(self, view: dict) -> str:
        """What the countdown above the game counts down to, in the player's words."""
        return "Time to move"

    def notes_refusal(self) -> str:
        return "You may not write notes just now."

    def action_from_form(self, action: dict, data: Any) -> dict:
        """A page's move: the action it offered, with what the player filled in. Each
        ``param-<name>`` field sets ``<name>``: a whole number where it is written in the
        digits 0 to 9, else the text. (The page's form refuses, with a sentence, a number
        written otherwise: ², ①, --5 or thousands of digits, which int() refuses.)"""
        result = dict(action)
        for name, value in data.items():
            if name.startswith("param-") and isinstance(value, str):
                digits = value.removeprefix("-")
                number = digits.isascii() and digits.isdigit() and len(digits) <= 18
                result[name[len("param-") :]] = int(value) if number else value.strip()
        return result

    def page(self, context: PageContext) -> dict:
        """The game's part of the page: the member's view (``context``, the page kit's),
        arranged for the game's ``template``. By default: whose turn it is, and the legal
        moves as buttons."""
        turn = context.game.get("turn")
        names = SeatNames(
            {number: seat["name"] for number, seat in context.seats.items()}, context.me
        )
        sentence = turn_sentence(names, turn) if turn in names.names else ""
        page = {
            "announce": sentence,
            "status": sentence,
            "controls": [
                self.control(action, action_label(action), context.version)
                for action in context.legal
            ],
        }
        if self.sentences:
            told = log_entries(context.happened(self.sentences), self.sentences, names)
            page["log"] = newest_first(told, self.log_length)
            page["since"] = since_your_last_move(told, context.me)
        return page

    def page_after_refusal(self, page: dict, action: dict, refusal: Refusal) -> dict:
        """The game's part of the page (``page``'s dict) just after the rules refused
        ``action``, a move of the member's own: a game with forms fills them in again as
        the player did, and may show the sentence by the field the refusal is about
        (``refusal.details``). The sentence itself is shown above the game in any case.
        By default: the page as it is (buttons have nothing to fill in)."""
        return page

    def control(self, action: dict, label: str, version: int, **extra) -> dict:
        """One legal action as a button's form: the action, a fresh idempotency key, and
        the version for moves that depend on the board."""
        return {
            "action": json.dumps(action, separators=(",", ":")),
            "label": label,
            "key": uuid.uuid4().hex,
            "version": version if action.get("type") in self.versioned_actions else None,
            **extra,
        }


def action_label(action: dict) -> str:
    """A plain label for an action no page has words for: "Take clue: button-3"."""
    words = str(action.get("type", "")).replace("_", " ").capitalize()
    details = [
        f"{value}" if not isinstance(value, (list, dict)) else json.dumps(value)
        for key, value in action.items()
        if key != "type"
    ]
    return f"{words}: {', '.join(details)}" if details else words


@cache
def get_site(name: str) -> GameSite:
    """The site of the registered game ``name``, as its ``Game.site`` says: a dotted path
    to a ``GameSite`` subclass (imported now, not when the registry loads: a site may use
    Django), any callable taking the game, or nothing for ``GameSite``'s defaults."""
    game = get_game(name)
    site = game.site
    if site is None:
        return GameSite(game)
    if isinstance(site, str):
        module, _, attribute = site.rpartition(".")
        site = getattr(import_module(module), attribute)
    return site(game)
