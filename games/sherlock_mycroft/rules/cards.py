"""The components of Sherlock & Mycroft: clue kinds, characters and the fixed numbers.

Clue cards are named ``<kind>-<n>`` with n from 1 (``button-4``, ``wild-2``). The
*canonical order* of clues (listings, tie-breaks) is the kinds in ``KINDS`` order, then n.
"""

from __future__ import annotations

from typing import NamedTuple

NAME = "sherlock_mycroft"

DAYS = 7
LINE_SIZE = 4
TOTAL_TOKENS = 24
START_TOKENS = 5
MARKERS_PER_PLAYER = 3
ROLES = ("sherlock", "mycroft")


class Kind(NamedTuple):
    id: str
    name: str
    value: int | None  # None: no majority is scored for it
    copies: int


KINDS = (
    Kind("false_pass", "False Pass", 3, 3),
    Kind("explosive", "Explosive", 4, 4),
    Kind("cigarette", "Cigarette", 5, 5),
    Kind("bullet", "Bullet", 6, 6),
    Kind("button", "Button", 7, 7),
    Kind("footprint", "Footprint", 8, 8),
    Kind("fingerprint", "Fingerprint", 9, 9),
    Kind("wild", "Wildcard", None, 5),
    Kind("map", "Map Fragment", None, 5),
)
KIND_BY_ID = {kind.id: kind for kind in KINDS}
WILD = "wild"
MAP = "map"
NUMBERED = tuple(kind.id for kind in KINDS if kind.value is not None)
VALUE = {kind.id: kind.value for kind in KINDS if kind.value is not None}

# Points for map fragments, by how many a player holds (no majority: each alone).
MAP_POINTS = (0, -1, 1, 3, 6, 10)
# Holding every copy of a numbered kind as real cards adds this.
ALL_COPIES_BONUS = 3
# An uncollected reserved clue (Sherlock/Mycroft card) costs this at the end.
RESERVED_PENALTY = 3

CLUE_IDS = tuple(f"{kind.id}-{n}" for kind in KINDS for n in range(1, kind.copies + 1))
_RANK = {card: index for index, card in enumerate(CLUE_IDS)}
_KIND_OF = {card: card.rsplit("-", 1)[0] for card in CLUE_IDS}


def kind_of(card: str) -> str:
    return _KIND_OF.get(card) or card.rsplit("-", 1)[0]


def is_clue(card: object) -> bool:
    return isinstance(card, str) and card in _RANK


def canonical(cards) -> list[str]:
    """``cards`` sorted in canonical order."""
    return sorted(cards, key=_RANK.__getitem__)


def rank(card: str) -> int:
    return _RANK[card]


class Character(NamedTuple):
    id: str
    name: str
    cost: str  # as printed, for pages
    permanent: bool = False
    villain: bool = False


CHARACTER_LIST = (
    Character("watson", "Doctor Watson", "1", permanent=True),
    Character("mrs_hudson", "Mrs Hudson", "0", permanent=True),
    Character("lestrade", "Inspector Lestrade", "3", permanent=True),
    Character("irene_adler", "Irene Adler", "the day's number"),
    Character("gregson", "Inspector Gregson", "2 per clue"),
    Character("wiggins", "Wiggins", "0"),
    Character("langdale_pike", "Langdale Pike", "1 per card"),
    Character("toby", "Toby", "0"),
    Character("shinwell_johnson", 'Shinwell "Porky" Johnson', "0"),
    Character("billy", "Billy the bellboy", "0"),
    Character("von_kramm", "Von Kramm", "0"),
    Character("violet_hunter", "Violet Hunter", "0"),
    Character("moriarty", "James Moriarty", "-", villain=True),
    Character("moran", "Sebastian Moran", "-", villain=True),
)
CHARACTERS = {character.id: character for character in CHARACTER_LIST}
PERMANENT = tuple(c.id for c in CHARACTER_LIST if c.permanent)
DECK_CHARACTERS = tuple(c.id for c in CHARACTER_LIST if not c.permanent and not c.villain)
VILLAINS = ("moriarty", "moran")

# What abilities give: fixed marker gains and clue-taking costs.
MARKER_GAINS = {"mrs_hudson": 3, "wiggins": 5}
TAKE_COUNTS = {"watson": (1, 1), "von_kramm": (1, 1), "lestrade": (2, 2), "gregson": (1, 3)}
FREE_GAIN_CHARACTERS = ("mrs_hudson", "wiggins", "toby")


def take_cost(character: str, count: int) -> int:
    """Markers a clue-taking character costs for ``count`` clues."""
    return {"watson": 1, "lestrade": 3, "gregson": 2 * count, "von_kramm": 0}[character]


# The optional cards, as a table's options and ``setup``'s ``variants`` name them.
VARIANTS = ("reserve_card", "moriarty", "moran")
