"""Setting up a game: the config, the shuffles (always in the same order), the state.

The state's shape::

    players        the two names; seat 0 and seat 1
    roles          each seat's role ("sherlock" / "mycroft"), cosmetic
    variants       the optional cards in use: reserve_card, moriarty, moran
    first          the seat that leads every day
    day, step      1..7; what the game waits for (state.MOVE, KEEP, ...)
    turn, actor    the seat awaited; the seat whose move is being resolved
    moves_left     moves each seat still makes today
    board          characters in board order: {id, space, face_up}
    character_deck top first; villains_discarded, day_villains
    markers        per seat, 3 action markers {on: character or None (in hand), standing}
    tokens, reserve investigation markers held / in the shared reserve (24 in all)
    line, deck, discard       clue ids (deck top first)
    visible, hidden, hidden_known, reserved, assigned   per seat
    card_holder    who holds the Sherlock/Mycroft card (None when it is not in use)
    pending        the open choice's details (Pike's look, Von Kramm's active player)
    queue          choices still to come: villains at dawn, wildcards at the end
    result         the final scores, once over
    rng            the generator's state (games.rng)
"""

from __future__ import annotations

from games.rng import below, seeded, shuffled
from games.sherlock_mycroft.rules.cards import (
    CLUE_IDS,
    DECK_CHARACTERS,
    LINE_SIZE,
    MARKERS_PER_PLAYER,
    PERMANENT,
    ROLES,
    START_TOKENS,
    TOTAL_TOKENS,
    VARIANTS,
    VILLAINS,
)
from games.sherlock_mycroft.rules.state import MOVE, rival


def setup(config: dict, players: list[str], seed: int) -> dict:
    """A new game for exactly two players. ``config`` is a table's ``{"options": {...}}``
    and may also give ``first`` (0, 1 or "random"), ``first_role``, ``variants`` and, for
    tests, ``stack`` (the clue and character orders, top first, replacing the shuffles)."""
    if not isinstance(players, list) or len(players) != 2:
        raise ValueError("Sherlock & Mycroft is a game for exactly two players.")
    settings = read_config(config)
    variants = settings["variants"]
    rng = seeded(seed)
    day_one, character_deck, rng = deal_characters(settings, rng)
    clues, rng = deal_clues(settings, rng)
    first = settings["first"]
    if first == "random":
        first, rng = below(rng, 2)
    roles = [None, None]
    roles[first] = settings["first_role"]
    roles[rival(first)] = next(role for role in ROLES if role != settings["first_role"])
    board = [{"id": c, "space": "permanent", "face_up": True} for c in PERMANENT]
    board += [
        {"id": day_one[0], "space": "day1_left", "face_up": True},
        {"id": day_one[1], "space": "day1_right", "face_up": True},
    ]
    return {
        "players": list(players),
        "roles": roles,
        "variants": variants,
        "first": first,
        "day": 1,
        "step": MOVE,
        "turn": first,
        "actor": None,
        "moves_left": [MARKERS_PER_PLAYER, MARKERS_PER_PLAYER],
        "board": board,
        "character_deck": character_deck,
        "villains_discarded": [],
        "day_villains": [],
        "markers": [
            [{"on": None, "standing": False} for _ in range(MARKERS_PER_PLAYER)] for _seat in (0, 1)
        ],
        "tokens": [START_TOKENS, START_TOKENS],
        "reserve": TOTAL_TOKENS - 2 * START_TOKENS,
        "line": clues[:LINE_SIZE],
        "deck": clues[LINE_SIZE:],
        "discard": [],
        "visible": [[], []],
        "hidden": [[], []],
        "hidden_known": [[], []],
        "reserved": [None, None],
        "assigned": [None, None],
        "card_holder": rival(first) if variants["reserve_card"] else None,
        "pending": {},
        "queue": [],
        "result": None,
        "rng": rng,
    }


def deal_characters(settings: dict, rng: str) -> tuple[list, list, str]:
    """The two Day-1 characters and the character deck (villains shuffled in after the
    Day-1 pair is drawn, so that no villain starts on the board)."""
    villains = [v for v in VILLAINS if settings["variants"][v]]
    stacked = settings["stack"].get("characters")
    if stacked is not None:
        return stacked[:2], stacked[2:], rng
    order, rng = shuffled(list(DECK_CHARACTERS), rng)
    deck = order[2:]
    if villains:
        deck, rng = shuffled(deck + villains, rng)
    return order[:2], deck, rng


def deal_clues(settings: dict, rng: str) -> tuple[list, str]:
    stacked = settings["stack"].get("clues")
    if stacked is not None:
        return list(stacked), rng
    return shuffled(list(CLUE_IDS), rng)


# --- The config ---------------------------------------------------------------------------


def read_config(config: object) -> dict:
    """The settings ``config`` asks for; ``ValueError`` for a bad value of a known key.
    Unknown keys are ignored."""
    if not isinstance(config, dict):
        raise ValueError("The config is an object.")
    options = _object(config.get("options", {}), "options")
    variants = _object(config.get("variants", {}), "variants")
    chosen = {}
    for name in VARIANTS:
        value = variants.get(name, options.get(name, False))
        if not isinstance(value, bool):
            raise ValueError(f"The optional card {name!r} is on (true) or off (false).")
        chosen[name] = value
    first = config.get("first", options.get("first", 0))
    if first not in (0, 1, "random") or isinstance(first, bool):
        raise ValueError('The first player is 0, 1 or "random".')
    first_role = config.get("first_role", "sherlock")
    if first_role not in ROLES:
        raise ValueError('The first player\'s role is "sherlock" or "mycroft".')
    stack = _object(config.get("stack", {}), "stack")
    return {
        "variants": chosen,
        "first": first,
        "first_role": first_role,
        "stack": read_stack(stack, chosen),
    }


def _object(value: object, name: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"The config's {name} is an object.")
    return value


def read_stack(stack: dict, variants: dict) -> dict:
    """Fixed card orders for tests, checked to hold exactly the game's cards."""
    result = {}
    if "clues" in stack:
        clues = stack["clues"]
        if not isinstance(clues, list) or sorted(map(str, clues)) != sorted(CLUE_IDS):
            raise ValueError("A stacked clue deck lists each of the 52 clue ids once.")
        result["clues"] = list(clues)
    if "characters" in stack:
        characters = stack["characters"]
        villains = [v for v in VILLAINS if variants[v]]
        expected = sorted([*DECK_CHARACTERS, *villains])
        if not isinstance(characters, list) or sorted(map(str, characters)) != expected:
            raise ValueError(
                "A stacked character deck lists the nine deck characters and the "
                "villains in use, each once."
            )
        if set(characters[:2]) & set(VILLAINS):
            raise ValueError("No villain may be among the two Day-1 characters.")
        result["characters"] = list(characters)
    return result
