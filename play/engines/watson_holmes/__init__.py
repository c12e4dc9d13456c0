"""Rules engine of the flagship game (``watson_holmes``), after ``rules-watson-holmes.md``.

Interface (see ``play/engines/base.py``): ``setup``, ``legal_actions``, ``apply``, ``view``,
``is_over``, ``outcome``; plus ``pending_judgement`` (answers the server must judge) and
``ACTIONS`` (the action vocabulary, one example each). Locations: case cards are named by
number; ``"221B"`` and ``"carriage_stop"`` are 221B Baker Street and the Carriage Stop.
Decisions where the spec is silent are in ``DECISIONS.md``.
"""

from play.engines.watson_holmes.actions import ACTIONS, apply
from play.engines.watson_holmes.legal import legal_actions
from play.engines.watson_holmes.setup import setup
from play.engines.watson_holmes.solving import pending_judgement
from play.engines.watson_holmes.state import BAKER_STREET, CARRIAGE_STOP, NAME
from play.engines.watson_holmes.view import is_over, may_write_notes, outcome, turn, view

__all__ = [
    "ACTIONS",
    "BAKER_STREET",
    "CARRIAGE_STOP",
    "NAME",
    "apply",
    "is_over",
    "legal_actions",
    "may_write_notes",
    "outcome",
    "pending_judgement",
    "setup",
    "turn",
    "view",
]
