"""The 70 cards: seven suits of ranks 1 to 10, and the order the engine keeps them in.

A card is named by its id, the suit's letter and a two-digit rank (``"X01"`` ... ``"L10"``).
Hands and the discard pile are always kept sorted by ``canonical`` (suit order, then
rank), so that neither reveals in which order its cards arrived.
"""

from __future__ import annotations

SUITS = ("X", "S", "H", "A", "M", "C", "L")
SUIT_NAMES = {
    "X": "Mystery",
    "S": "Sherlock",
    "H": "Help",
    "A": "Action",
    "M": "Method",
    "C": "Clue",
    "L": "Locale",
}
ABILITIES = {
    "X": "Draw 2 cards.",
    "S": "Look at the top 5 cards of the deck.",
    "H": "Draw 1 card; an opponent discards 1 card at random.",
    "A": "An opponent discards 2 cards of their choice.",
    "M": "Look at an opponent's hand.",
    "C": "Take 1 random card from an opponent's hand.",
    "L": "Draw 3 cards, keep 1 and discard the others.",
}
# Suits whose ability is aimed at one opponent, named by the player with ``target``.
TARGETED_SUITS = frozenset("HAMC")
RANKS = range(1, 11)

_NAMES_BY_SUIT = {
    "X": (
        "Adventure of the Empty House",
        "The Hound of the Baskervilles",
        "A Study in Scarlet",
        "The Sign of the Four",
        "The Blanched Soldier",
        "The Man with the Twisted Lip",
        "Adventure of the Copper Beeches",
        "A Scandal in Bohemia",
        "The Lion's Mane",
        "The Red-Headed League",
    ),
    "S": (
        "The Violin",
        "A Three-Pipe Problem",
        "Chemical Experiments",
        "The Amateur Boxer",
        "Baritsu",
        "The Ear-Flapped Travelling Cap",
        "Disguise: the Nonconformist Clergyman",
        "Disguise: the Old Sailor",
        "Disguise: Escott the Plumber",
        "Disguise: Altamont",
    ),
    "H": (
        "Dr. John H. Watson",
        "Mrs. Hudson",
        "Mycroft Holmes",
        "Inspector Lestrade",
        "Inspector Gregson",
        "The Baker Street Irregulars",
        "Toby the Dog",
        "Billy the Page",
        "Mary Morstan",
        "Inspector Stanley Hopkins",
    ),
    "A": (
        "The Smoke Rocket",
        "The Vigil in the Dark",
        "The Pursuit down the Thames",
        "The Stake-out at Camden House",
        "Burgling Milverton's House",
        "The Struggle with Moriarty",
        "Waiting in the Bank Cellar",
        "The Ambush on the Moor",
        "Feigning a Mortal Illness",
        "The Chase down Regent Street",
    ),
    "M": (
        "Observation",
        "Reasoning Backwards",
        "Eliminating the Impossible",
        "The Science of Deduction",
        "The Brain-Attic",
        "The Commonplace Index",
        "The Monograph on Tobacco Ash",
        "Tracing Footsteps",
        "The Agony Column",
        "The Test for Bloodstains",
    ),
    "C": (
        "The Dog in the Night-Time",
        "RACHE Written in Blood",
        "The Five Orange Pips",
        "The Dancing Men Cipher",
        "The Blue Carbuncle",
        "The Dummy Bell-Rope",
        "The Ears in the Cardboard Box",
        "The Thumb-Mark on the Wall",
        "The Golden Pince-Nez",
        "A Gigantic Hound's Footprints",
    ),
    "L": (
        "221B Baker Street",
        "Baskerville Hall",
        "The Reichenbach Falls",
        "Pondicherry Lodge",
        "Stoke Moran",
        "Briony Lodge",
        "The Diogenes Club",
        "Scotland Yard",
        "The Bar of Gold",
        "Lauriston Gardens",
    ),
}


def card_id(suit: str, rank: int) -> str:
    return f"{suit}{rank:02d}"


def suit_of(card: str) -> str:
    return card[0]


def rank_of(card: str) -> int:
    rank = _RANKS.get(card)
    return int(card[1:]) if rank is None else rank


ALL_CARDS = tuple(card_id(suit, rank) for suit in SUITS for rank in RANKS)
CARD_SET = frozenset(ALL_CARDS)
CARD_NAMES = {
    card_id(suit, rank): _NAMES_BY_SUIT[suit][rank - 1] for suit in SUITS for rank in RANKS
}
_POSITION = {card: index for index, card in enumerate(ALL_CARDS)}
_RANKS = {card: int(card[1:]) for card in ALL_CARDS}
_DESCRIPTIONS = {
    card: {"id": card, "suit": suit_of(card), "rank": _RANKS[card], "name": CARD_NAMES[card]}
    for card in ALL_CARDS
}


def canonical(cards) -> list[str]:
    """``cards`` in suit order, then rank: how hands and the discard pile are kept."""
    return sorted(cards, key=_POSITION.__getitem__)


def describe(card: str) -> dict:
    """A card as a page draws it (a new dict each time)."""
    return _DESCRIPTIONS[card].copy()
