"""Tokens: telegrams, I Say tokens, Case Closed Book tokens and Villain tokens.

Their ids and values stay hidden from every player until the game ends; the pools and
holdings in the state record which token is where. A seat's holdings are
``{"telegrams": [ids in order of arrival], "pipe"|"hat"|"glass": id or None, "books":
[names], "villains": [villain slugs]}``.
"""

from __future__ import annotations

from games.base import Event
from games.i_say_holmes.rules.state import owned_holdings, owned_pool

I_SAY_TYPES = ("pipe", "hat", "glass")
I_SAY_VP = (1, 1, 2, 2, 3)  # pipe-1 .. pipe-5, and the same for hats and glasses

TELEGRAMS = tuple(f"tg{number}" for number in range(1, 9))
# What each telegram is worth: to its owner, to the owner's left and right neighbours.
TELEGRAM_VP = {
    "tg1": (0, 0, 0),
    "tg2": (-1, 0, 0),
    "tg3": (-2, 0, 0),
    "tg4": (-3, 0, 0),
    "tg5": (0, 2, 0),
    "tg6": (0, 0, 2),
    "tg7": (0, 1, 0),
    "tg8": (0, 1, 1),
}

# Case Closed Book tokens: name, threshold (printed on the front), VP (on the back).
BOOKS = (
    ("His Last Bow", 0, 4),
    ("A Study in Scarlet", 10, 2),
    ("The Sign of Four", 20, 3),
    ("The Adventures", 30, 4),
    ("The Hound of the Baskervilles", 40, 5),
    ("The Valley of Fear", 50, 6),
)
LAST_BOW = "His Last Bow"
BOOK_THRESHOLD = {name: threshold for name, threshold, _ in BOOKS}
BOOK_VP = {name: vp for name, _, vp in BOOKS}

VILLAIN_VP = {"moriarty": 5, "moran": 4, "milverton": 3, "clay": 3, "woodley": 2}
VILLAIN_NAMES = {
    "moriarty": "Professor Moriarty",
    "moran": "Colonel Moran",
    "milverton": "C. A. Milverton",
    "clay": "John Clay",
    "woodley": "Mr. Woodley",
}


def i_say_ids(kind: str) -> list[str]:
    return [f"{kind}-{number}" for number in range(1, 6)]


def i_say_vp(token: str) -> int:
    return I_SAY_VP[int(token.rsplit("-", 1)[1]) - 1]


def empty_holdings() -> dict:
    return {"telegrams": [], "pipe": None, "hat": None, "glass": None, "books": [], "villains": []}


def lacking(state: dict, seat: int) -> list[str]:
    """The I Say token types ``seat`` does not hold, in the order pipe, hat, glass."""
    held = state["holdings"][seat]
    return [kind for kind in I_SAY_TYPES if held[kind] is None]


def holders(state: dict, kind: str) -> list[int]:
    """The seats holding an I Say token of ``kind``."""
    return [seat for seat, held in enumerate(state["holdings"]) if held[kind] is not None]


def take_i_say(state: dict, seat: int, kind: str, source: int | None) -> Event:
    """``seat`` gets an I Say token of ``kind``: the pool's top one, else ``source``'s."""
    from_pool = bool(state["pool"][kind])
    if from_pool:
        token = owned_pool(state, kind).pop(0)
    else:
        token = state["holdings"][source][kind]
        owned_holdings(state, source)[kind] = None
    owned_holdings(state, seat)[kind] = token
    return Event(
        "token",
        data={"seat": seat, "token": kind, "token_from": None if from_pool else source},
    )


def telegram_sources(state: dict, target: int) -> list[int]:
    """Seats a telegram may come from when the pool is empty: any holder but the target."""
    return [
        seat for seat, held in enumerate(state["holdings"]) if seat != target and held["telegrams"]
    ]


def public_holdings(state: dict, seat: int) -> dict:
    held = state["holdings"][seat]
    return {
        "telegrams": len(held["telegrams"]),
        "i_say": [kind for kind in I_SAY_TYPES if held[kind] is not None],
        "books": list(held["books"]),
        "villains": [VILLAIN_NAMES[slug] for slug in held["villains"]],
    }


def public_pool(state: dict) -> dict:
    pool = state["pool"]
    return {
        "telegrams": len(pool["telegrams"]),
        **{kind: len(pool[kind]) for kind in I_SAY_TYPES},
        "books": [{"name": name, "threshold": BOOK_THRESHOLD[name]} for name in pool["books"]],
        "villains": [VILLAIN_NAMES[slug] for slug in pool["villains"]],
    }


def scores(state: dict) -> list[int]:
    """Each seat's victory points from the tokens in front of it and its neighbours."""
    count = len(state["holdings"])
    points = [0] * count
    for seat, held in enumerate(state["holdings"]):
        points[seat] += sum(BOOK_VP[name] for name in held["books"])
        points[seat] += sum(VILLAIN_VP[slug] for slug in held["villains"])
        points[seat] += sum(i_say_vp(held[kind]) for kind in I_SAY_TYPES if held[kind])
        for token in held["telegrams"]:
            own, to_left, to_right = TELEGRAM_VP[token]
            points[seat] += own
            points[(seat + 1) % count] += to_left
            points[(seat - 1) % count] += to_right
    return points


def revealed(state: dict, seat: int) -> dict:
    """Every token of ``seat`` with its value, for the end of the game."""
    held = state["holdings"][seat]
    return {
        "telegrams": [
            {"id": token, "own": own, "left": left, "right": right}
            for token in held["telegrams"]
            for own, left, right in [TELEGRAM_VP[token]]
        ],
        "i_say": [
            {"id": held[kind], "type": kind, "vp": i_say_vp(held[kind])}
            for kind in I_SAY_TYPES
            if held[kind]
        ],
        "books": [{"name": name, "vp": BOOK_VP[name]} for name in held["books"]],
        "villains": [
            {"name": VILLAIN_NAMES[slug], "vp": VILLAIN_VP[slug]} for slug in held["villains"]
        ],
    }
