"""Rules engine of the Elementary deck (``holmes_elementary``): a seven-suit deduction card
game for 2 to 6 players.

One card of each suit lies hidden in its suit's spot. On a turn a player draws
(Investigate), may play a card for its ability (Action), may solve a case with seven cards
of seven suits and seven ranks (Sleuth), then guesses a spot's rank or takes one of the
alternatives (Deduction), and discards down to nine cards (Retire). Five case tokens win.

Interface (see ``Rules`` in ``games/base.py``): ``setup``, ``legal_actions``, ``apply``,
``view``, ``is_over``, ``outcome``, ``turn``, ``waiting_for``; the rules set no window of
their own and every seat may keep notes, always (the defaults); plus ``ACTIONS`` (the
vocabulary, one example each) and ``CARDS`` (every card's id, suit, rank and name, for
pages).
"""

from games.holmes_elementary.rules.actions import ACTIONS, apply
from games.holmes_elementary.rules.cards import ALL_CARDS, describe
from games.holmes_elementary.rules.legal import legal_actions
from games.holmes_elementary.rules.setup import setup
from games.holmes_elementary.rules.state import NAME
from games.holmes_elementary.rules.view import is_over, outcome, turn, view, waiting_for

# The card list is code, not state: nothing is fixed per table.
FIXED_KEYS: tuple[str, ...] = ()

CARDS = tuple(describe(card) for card in ALL_CARDS)

__all__ = [
    "ACTIONS",
    "CARDS",
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
