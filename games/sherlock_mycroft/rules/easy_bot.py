"""The ``easy`` computer player: the normal player's rule of thumb, but careless. It rates
each move as the normal player does, adds a random amount to every rating (so a move a
few points worse is often preferred), and plays the last move of the game like any
other. Its other choices are the normal player's. It reads only its seat's view; the
seed makes it repeatable."""

from __future__ import annotations

import random

from games.sherlock_mycroft.rules.bot import CHOOSERS, Counts, rated_moves

# How much random worth, at most, each move gets on top of its rating.
CARELESSNESS = 7.0


def easy_bot(view: dict, seat: int, legal_actions: list[dict], seed: int) -> dict:
    """One of ``legal_actions``, chosen from ``view`` alone."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    counts = Counts(view, seat)
    if view["step"] == "move":
        return careless_move(view, seat, legal_actions, counts, random.Random(seed))
    chooser = CHOOSERS.get(view["step"])
    return chooser(view, seat, legal_actions, counts) if chooser else legal_actions[0]


def careless_move(view, seat, legal, counts, chance: random.Random) -> dict:
    rated = rated_moves(view, seat, legal, counts)
    noisy = [
        (value + chance.uniform(0, CARELESSNESS), order) for order, (value, _) in enumerate(rated)
    ]
    _, order = max(noisy)
    return rated[order][1]
