"""Rules engine of I Say, Holmes! (``i_say_holmes``), 3 to 8 players.

Interface (see ``games/base.py``): ``setup``, ``legal_actions``, ``apply``, ``view``,
``is_over``, ``outcome``, ``turn``, ``waiting_for``, ``deadline_seconds`` (notes are
always allowed: the default); plus ``ACTIONS`` (the action vocabulary, one example each).
The computer player is ``bot.bot_action``. Decisions where the printed rules are silent are in
``docs/rules/i-say-holmes.md``.
"""

from games.i_say_holmes.rules.actions import ACTIONS, apply
from games.i_say_holmes.rules.decision import waiting_for
from games.i_say_holmes.rules.legal import legal_actions
from games.i_say_holmes.rules.setup import setup
from games.i_say_holmes.rules.state import NAME
from games.i_say_holmes.rules.view import deadline_seconds, is_over, outcome, turn, view

FIXED_KEYS = ("players",)

__all__ = [
    "ACTIONS",
    "FIXED_KEYS",
    "NAME",
    "apply",
    "deadline_seconds",
    "is_over",
    "legal_actions",
    "outcome",
    "setup",
    "turn",
    "view",
    "waiting_for",
]
