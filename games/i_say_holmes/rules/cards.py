"""The 125 cards: the ledger, card look-ups and the story-sequence tests.

Card ids are the slug for a card printed once (``"boat"``) and ``slug-k`` for the k-th copy
of the others (``"clue-3"``). Ledger order is the order of the rows below, copies by k; it
orders the deal-out stack, the draw pile before shuffling and every tie the rules break.
"""

from __future__ import annotations

from dataclasses import dataclass

# Card types.
START = "start"
TRAVEL = "travel"
CITY = "city"
COUNTRY = "country"
INFORMATION = "information"
ACTION = "action"
INTERRUPT = "interrupt"
I_SAY = "i_say"
VILLAIN = "villain"

LOCATIONS = (CITY, COUNTRY)
# Cards that never follow another one (I Say cards are played under their own condition).
NEVER_FOLLOW = (START, INTERRUPT, I_SAY, VILLAIN)

# Story-sequence codes a card may list besides card slugs.
ANY_TRAVEL = "T"
SIMILAR = "S"
DISSIMILAR = "D"
ANY_INFORMATION = "Inf"
ANY_ACTION = "Act"
I_SAY_LISTED = "IS"

# When an I Say card may be played, judged on the Current card.
NOT_MOVING = "not_moving"
MOVING = "moving"
IN_CITY = "city"

# Who may counter an instruction: an Alibi or a Mastermind, or only a Mastermind.
ALIBI_OR_MASTERMIND = "alibi_or_mastermind"
MASTERMIND_ONLY = "mastermind_only"


@dataclass(frozen=True)
class Row:
    slug: str
    copies: int
    title: str
    type: str
    cp: int
    suns: tuple[int, ...]  # one Set Up Number per dealt copy, lowest copies first
    follows: tuple[str, ...] = ()
    travel: str | None = None  # the side of the Travel Marker a Travel card shows
    instruction: str | None = None
    counter: str | None = None
    condition: str | None = None  # I Say cards only


A_M = ALIBI_OR_MASTERMIND
M = MASTERMIND_ONLY

LEDGER: tuple[Row, ...] = (
    Row("afoot", 1, "Come, Watson, Come! The Game is Afoot!", START, 0, (3,), ("T",)),
    Row("hansom", 12, "Hansom Cab", TRAVEL, 0, (3, 3, 4, 6), ("S", "fog"), "hansom"),
    Row("train", 12, "Train", TRAVEL, 1, (3, 3, 5, 8), ("D", "fog"), "train"),
    Row("fog", 3, "Dense Fog", TRAVEL, 1, (8,), ("S", "D"), "hansom", "FOG"),
    Row("boat", 1, "Boat", TRAVEL, 2, (7,), ("D",), "train", "DRAW1", A_M),
    Row("chase", 1, "Foot Chase", TRAVEL, 2, (6,), ("S", "arrest"), "hansom", "DRAW1", A_M),
    Row("london", 4, "London", CITY, 1, (3,), ("T", "clue", "suspicion", "IS")),
    Row("bakerst", 3, "221B Baker St.", CITY, 3, (3,), ("Inf", "detective", "IS")),
    Row("westend", 3, "West End", CITY, 1, (4,), ("T", "disguise", "telegram", "constabulary")),
    Row("yard", 2, "Scotland Yard", CITY, 2, (6,), ("Act", "T"), None, "DRAW2", M),
    Row("fleet", 2, "Fleet Street", CITY, 2, (8,), ("Inf", "T", "IS"), None, "GIFT", M),
    Row("dartmoor", 3, "Dartmoor", COUNTRY, 1, (3,), ("T", "clue", "suspicion", "IS")),
    Row("baskerville", 3, "Baskerville Hall", COUNTRY, 2, (3,), ("Inf", "T")),
    Row("stokemoran", 2, "Stoke Moran", COUNTRY, 1, (5,), ("Inf", "detective")),
    Row(
        "birlstone", 2, "Birlstone Manor", COUNTRY, 2, (7,), ("T", "disguise", "telegram", "arrest")
    ),
    Row(
        "boscombe",
        2,
        "Boscombe Valley",
        COUNTRY,
        1,
        (6,),
        ("T", "clue", "suspicion", "constabulary"),
    ),
    Row("reichenbach", 1, "Reichenbach Falls", COUNTRY, 3, (), ("T", "arrest", "IS")),
    Row(
        "clue",
        10,
        "Clue",
        INFORMATION,
        2,
        (3, 3, 5, 7),
        ("T", "arrest", "disguise", "IS"),
        None,
        "CLUE",
        M,
    ),
    Row(
        "disguise",
        6,
        "Disguise",
        INFORMATION,
        2,
        (4, 7),
        ("T", "clue", "detective"),
        None,
        "SHOW",
        M,
    ),
    Row(
        "suspicion", 10, "Suspicion", INFORMATION, 1, (3, 3, 4, 8), ("Act", "T"), None, "DRAW1", A_M
    ),
    Row("telegram", 6, "Telegram", INFORMATION, 1, (3, 6), ("T", "clue", "IS"), None, "WIRE", M),
    Row("arrest", 6, "Arrest", ACTION, 3, (3, 5, 8), ("T", "Inf"), None, "ARREST", A_M),
    Row(
        "constabulary",
        4,
        "Constabulary",
        ACTION,
        2,
        (4,),
        ("T", "suspicion", "IS"),
        None,
        "GIVE",
        M,
    ),
    Row(
        "detective",
        4,
        "Detective",
        ACTION,
        3,
        (3, 7),
        ("T", "arrest", "clue", "IS"),
        None,
        "DRAW2",
        A_M,
    ),
    Row("alibi", 6, "Alibi", INTERRUPT, 4, (3, 6, 8), ("T", "Inf")),
    Row("mastermind", 3, "Mastermind", INTERRUPT, 7, (5,)),
    Row("sherlock", 1, "Sherlock Holmes", I_SAY, 6, (), (), None, "LOOK+", M, NOT_MOVING),
    Row("watson", 1, "Dr. John Watson", I_SAY, 5, (), (), None, "LOOK+", A_M, NOT_MOVING),
    Row("mycroft", 1, "Mycroft Holmes", I_SAY, 6, (), (), None, "SWAP", M, IN_CITY),
    Row("lestrade", 2, "Inspector Lestrade", I_SAY, 4, (4,), (), None, "LOOK", A_M, NOT_MOVING),
    Row("irene", 1, "Irene Adler", I_SAY, 5, (), (), None, "DROP", None, MOVING),
    Row("pm", 1, "Prime Minister", I_SAY, 6, (), (), None, "ALLDRAW", M, IN_CITY),
    Row("irregulars", 1, "Baker Street Irregulars", I_SAY, 4, (), (), None, "IRREG", M, IN_CITY),
    Row("moriarty", 1, "Professor Moriarty", VILLAIN, 7, (3,)),
    Row("moran", 1, "Colonel Moran", VILLAIN, 6, (5,)),
    Row("milverton", 1, "C. A. Milverton", VILLAIN, 5, ()),
    Row("clay", 1, "John Clay", VILLAIN, 5, (7,)),
    Row("woodley", 1, "Mr. Woodley", VILLAIN, 4, ()),
)

ROWS = {row.slug: row for row in LEDGER}

# A few words on each instruction, for the players' screens.
INSTRUCTION_TEXT = {
    "FOG": "Everyone holding a card puts one in; they are shuffled and dealt back.",
    "DRAW1": "Another player draws a card.",
    "DRAW2": "Another player draws two cards.",
    "GIFT": "Give an opponent who lacks one an I Say token.",
    "CLUE": "See two random cards of another player's hand.",
    "SHOW": "Another player shows you one of their highest cards.",
    "WIRE": "Give another player a telegram.",
    "ARREST": "Arrest another player: take their hand if they are innocent.",
    "GIVE": "You may give another player a card from your hand.",
    "LOOK": "Look at another player's hand.",
    "LOOK+": "Look at another player's hand; a villain there is arrested.",
    "SWAP": "Exchange hands with another player.",
    "DROP": "Discard a villain from your hand.",
    "ALLDRAW": "Every opponent draws a card.",
    "IRREG": "Draw a card; every opponent shows you one of their highest cards.",
}


def _ids(row: Row) -> list[str]:
    if row.copies == 1:
        return [row.slug]
    return [f"{row.slug}-{k}" for k in range(1, row.copies + 1)]


def _build() -> tuple[list[str], dict[str, Row], dict[str, int | None]]:
    order, rows, suns = [], {}, {}
    for row in LEDGER:
        for copy, card in enumerate(_ids(row)):
            order.append(card)
            rows[card] = row
            suns[card] = row.suns[copy] if copy < len(row.suns) else None
    return order, rows, suns


LEDGER_ORDER, _ROW_OF, SET_UP_NUMBER = _build()
LEDGER_INDEX = {card: index for index, card in enumerate(LEDGER_ORDER)}
ALL_CARDS = frozenset(LEDGER_ORDER)
VILLAINS = tuple(card for card in LEDGER_ORDER if _ROW_OF[card].type == VILLAIN)
VILLAIN_CARDS = frozenset(VILLAINS)
INTERRUPT_CARDS = frozenset(card for card in LEDGER_ORDER if _ROW_OF[card].type == INTERRUPT)
# The cards of a hand that escapes (with at least one Villain among them).
ESCAPING_CARDS = VILLAIN_CARDS | INTERRUPT_CARDS
AFOOT = "afoot"


def row(card: str) -> Row:
    return _ROW_OF[card]


def is_card(value: object) -> bool:
    return isinstance(value, str) and value in ALL_CARDS


def kind(card: str) -> str:
    return _ROW_OF[card].type


def cp(card: str) -> int:
    return _ROW_OF[card].cp


def side(card: str) -> str | None:
    """The side of the Location Marker a Location card stands for."""
    card_type = _ROW_OF[card].type
    return card_type if card_type in LOCATIONS else None


def is_villain(card: str) -> bool:
    return _ROW_OF[card].type == VILLAIN


def is_interrupt(card: str) -> bool:
    return _ROW_OF[card].type == INTERRUPT


def is_i_say(card: str) -> bool:
    return _ROW_OF[card].type == I_SAY


def deal_out_stack(players: int) -> list[str]:
    """The cards dealt at set-up for this many players, in ledger order."""
    return [card for card in LEDGER_ORDER if (SET_UP_NUMBER[card] or 99) <= players]


def in_ledger_order(cards) -> list[str]:
    return sorted(cards, key=LEDGER_INDEX.__getitem__)


def follows(card: str, current: str, location: str) -> bool:
    """Whether ``card`` keeps the story going after ``current``, the marker on ``location``."""
    return card in following(current, location)


_FOLLOWING: dict[tuple[str, str], frozenset[str]] = {}


def following(current: str, location: str) -> frozenset[str]:
    """Every card that keeps the story going after ``current``, the marker on ``location``
    (worked out once for each kind of Current card and side of the marker)."""
    key = (_ROW_OF[current].slug, location)
    found = _FOLLOWING.get(key)
    if found is None:
        found = _FOLLOWING[key] = frozenset(
            card for card in LEDGER_ORDER if _follows(card, current, location)
        )
    return found


def _follows(card: str, current: str, location: str) -> bool:
    played = _ROW_OF[card]
    if played.type in NEVER_FOLLOW:
        return False
    for code in _ROW_OF[current].follows:
        if code == played.slug:
            return True
        if code == ANY_TRAVEL and played.type == TRAVEL:
            return True
        if code == SIMILAR and side(card) == location:
            return True
        if code == DISSIMILAR and side(card) not in (None, location):
            return True
        if code == ANY_INFORMATION and played.type == INFORMATION:
            return True
        if code == ANY_ACTION and played.type == ACTION:
            return True
    return False


def lists_i_say(current: str) -> bool:
    return I_SAY_LISTED in _ROW_OF[current].follows


def permissible(card: str, current: str) -> bool:
    """Whether the I Say ``card``'s condition holds with ``current`` as the Current card."""
    condition = _ROW_OF[card].condition
    current_type = _ROW_OF[current].type
    if condition == NOT_MOVING:
        return current_type != TRAVEL
    if condition == MOVING:
        return current_type == TRAVEL
    return current_type == CITY


def public_card(card: str) -> dict:
    """What a face-up card shows (a fresh dict each time)."""
    shown = dict(_PUBLIC[card])
    if "follows" in shown:
        shown["follows"] = list(shown["follows"])
    return shown


def _public(card: str) -> dict:
    info = _ROW_OF[card]
    shown = {"id": card, "title": info.title, "type": info.type, "cp": info.cp}
    if info.follows:
        shown["follows"] = list(info.follows)
    if info.travel:
        shown["travel"] = info.travel
    if info.instruction:
        shown["instruction"] = INSTRUCTION_TEXT[info.instruction]
        shown["counter"] = info.counter
    if info.condition:
        shown["condition"] = info.condition
    return shown


_PUBLIC = {card: _public(card) for card in LEDGER_ORDER}
