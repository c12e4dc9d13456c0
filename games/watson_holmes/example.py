"""A small case of our own, for tests and the conformance playouts: every icon, every card
text unique (so that a leak is easy to find in a view)."""

EXAMPLE_CARDS = [
    (1, "Scotland Yard", ["police", "call_off"]),
    (2, "The Port", []),
    (3, "Pawnbroker", ["lockpick"]),
    (4, "Cab Office", ["carriages"]),
    (5, "Vicarage", ["no_watson"]),
    (6, "Museum", ["no_police"]),
    (7, "Strongroom", ["locked"]),
    (8, "Tavern", []),
]
EXAMPLE_QUESTIONS = [
    {"id": "culprit", "ask": "Who took the ledger?", "kind": "person"},
    {"id": "place", "ask": "Where is it hidden?", "kind": "place"},
]


def card_text(number: int) -> str:
    return f"[secret text of card {number}]"


def example_config(players: int, **options) -> dict:
    """A table's config: the example case and the given house rules."""
    case = {
        "locations": [
            {
                "number": number,
                "name": name,
                "text": card_text(number),
                "icons": icons,
                "carriages": 3 if "carriages" in icons else None,
                "zone": None,
            }
            for number, name, icons in EXAMPLE_CARDS
        ],
        "questions": EXAMPLE_QUESTIONS,
        "zones": None,
        "start": {},
    }
    return {"case": case, "options": options}
