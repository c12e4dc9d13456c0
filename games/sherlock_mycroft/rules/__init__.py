"""Rules engine of Sherlock & Mycroft (``sherlock_mycroft``), a two-player duel of
majorities: seven days of moving action markers between London characters to collect
clue cards, then a count of who holds more of each kind.

Interface (see ``Rules`` in ``games/base.py``): ``setup``, ``legal_actions``, ``apply``,
``view``, ``is_over``, ``outcome``, ``turn``, ``waiting_for``; no deadline of its own and
notes always allowed (the defaults). Seats are 0 and 1; ``SYSTEM`` only answers
timeouts. The computer players are ``easy_bot``, ``bot`` (normal) and ``expert_bot``.
Players' rules, with the decisions taken where the printed rules are silent:
``docs/rules/sherlock-mycroft.md``.
"""

from games.sherlock_mycroft.rules.actions import ACTION_TYPES, apply
from games.sherlock_mycroft.rules.cards import CLUE_IDS, NAME
from games.sherlock_mycroft.rules.legal import legal_actions
from games.sherlock_mycroft.rules.setup import setup
from games.sherlock_mycroft.rules.view import is_over, outcome, turn, view, waiting_for

# Nothing in the state is fixed for a whole table: every key may change.
FIXED_KEYS: tuple[str, ...] = ()

__all__ = [
    "ACTION_TYPES",
    "CLUE_IDS",
    "FIXED_KEYS",
    "NAME",
    "apply",
    "is_over",
    "legal_actions",
    "outcome",
    "setup",
    "turn",
    "view",
    "waiting_for",
]
