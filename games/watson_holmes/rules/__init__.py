"""Rules engine of the flagship game (``watson_holmes``), after ``rules-watson-holmes.md``.

Interface (see ``games/base.py``): ``setup``, ``legal_actions``, ``apply``, ``view``,
``is_over``, ``outcome``; plus ``pending_judgement`` (answers the server must judge),
``ACTIONS`` (the action vocabulary, one example each) and ``FIXED_KEYS``. Locations: case
cards are named by number; ``"221B"`` and ``"carriage_stop"`` are 221B Baker Street and
the Carriage Stop. Decisions where the spec is silent are in ``DECISIONS.md``.
"""

from games.watson_holmes.rules.actions import ACTIONS, apply
from games.watson_holmes.rules.actions import waiting_on_players as waiting_for
from games.watson_holmes.rules.legal import legal_actions
from games.watson_holmes.rules.setup import setup
from games.watson_holmes.rules.solving import pending_judgement
from games.watson_holmes.rules.state import BAKER_STREET, CARRIAGE_STOP, NAME
from games.watson_holmes.rules.view import is_over, may_write_notes, outcome, turn, view
from games.watson_holmes.rules.withdraw import withdraw

# Setup fills these keys of the state and no action changes them: the case's cards,
# questions and zones, most of a state's size. The server stores them once per table.
FIXED_KEYS = ("case",)
# No deadline of its own (the ``Rules`` default): only a table's turn timer hurries it.


__all__ = [
    "ACTIONS",
    "BAKER_STREET",
    "CARRIAGE_STOP",
    "FIXED_KEYS",
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
    "waiting_for",
    "withdraw",
]
