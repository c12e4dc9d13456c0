"""The ``expert`` computer player: the normal player's candidates, tried out.

For a move it takes the few moves the normal player rates highest, then plays each of them
forward over the pure rules in several *guessed deals*: full states that agree with
everything its seat's view shows, the clues it cannot see (deck, discard pile, the rival's
unknown hidden clues) dealt at random from those nobody has shown it, the character deck
shuffled likewise. In each deal both seats then play the normal player's greedy policy to
the end of the day (to the end of the game on day 7), and the position is scored by the
final count it promises. The move with the best average wins; every candidate meets the
same deals, so luck in the deal cancels out between them.

The work is a count (candidates x deals x moves), never a clock: the same view and
seed always give the same move. Other choices are the normal player's.
"""

from __future__ import annotations

import random

from games.rng import seeded
from games.sherlock_mycroft.rules.actions import apply
from games.sherlock_mycroft.rules.bot import CHOOSERS, Counts, bot_action, rated_moves
from games.sherlock_mycroft.rules.cards import DAYS, DECK_CHARACTERS, VILLAINS, kind_of
from games.sherlock_mycroft.rules.endgame import (
    counted_margin,
    is_last_move,
    kind_counts,
    unknown_hidden_count,
    unseen_cards,
    utility,
)
from games.sherlock_mycroft.rules.legal import legal_actions
from games.sherlock_mycroft.rules.state import ASSIGN, KEEP, OVER

CANDIDATES = 4  # moves tried, the normal player's favourites
# Guessed deals per candidate: as many as a budget of moves played forward allows (a
# playout lasts as many moves as are left today), within these bounds.
MOVE_BUDGET = 100
FEWEST_DEALS, MOST_DEALS = 3, 6
MOST_PLIES = 40  # a safety stop for one playout
# What a marker still held is worth at the horizon, by the day the playout stopped in.
MARKER_WORTH = {day: 0.8 if day <= 4 else 0.5 if day <= 6 else 0.0 for day in range(1, 8)}


def expert_bot(view: dict, seat: int, legal_actions: list[dict], seed: int) -> dict:
    """One of ``legal_actions``, chosen from ``view`` alone."""
    if view["step"] != "move" or len(legal_actions) == 1 or is_last_move(view, seat):
        return bot_action(view, seat, legal_actions, seed)
    counts = Counts(view, seat)
    rated = rated_moves(view, seat, legal_actions, counts)
    rated.sort(key=lambda pair: -pair[0])  # stable: listed order among equals
    candidates = [action for _, action in rated[:CANDIDATES]]
    if len(candidates) == 1:
        return candidates[0]
    chance = random.Random(seed)
    deals = [deal(view, seat, chance) for _ in range(deal_count(view, len(candidates)))]
    totals = [0.0] * len(candidates)
    for state in deals:
        for index, action in enumerate(candidates):
            totals[index] += playout(state, seat, action)
    best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
    return candidates[best]


def deal_count(view: dict, candidates: int) -> int:
    """How many deals the budget allows: playouts to the end of the day cost as many
    moves as both seats have left today."""
    moves_today = sum(player["moves_left"] for player in view["players"])
    deals = MOVE_BUDGET // (candidates * moves_today)
    return max(FEWEST_DEALS, min(MOST_DEALS, deals))


# --- Guessing a deal --------------------------------------------------------------------


def deal(view: dict, seat: int, chance: random.Random) -> dict:
    """A full state that agrees with ``view``: what the view hides is dealt at random
    from what it does not show (the rival's hidden clues are never wildcards, since a
    wildcard drawn face down is shown at once)."""
    rival = 1 - seat
    unseen = unseen_cards(view, seat)
    chance.shuffle(unseen)
    missing = unknown_hidden_count(view, seat)
    their_hidden = [card for card in unseen if kind_of(card) != "wild"][:missing]
    rest = [card for card in unseen if card not in their_hidden]
    deck, discard = rest[: view["deck_count"]], rest[view["deck_count"] :]
    players = view["players"]
    hidden = [None, None]
    hidden[seat] = list(view["private"]["hidden"])
    hidden[rival] = list(players[rival]["hidden_known"]) + their_hidden
    return {
        "players": [player["name"] for player in players],
        "roles": list(view["roles"]),
        "variants": dict(view["variants"]),
        "first": view["first"],
        "day": view["day"],
        "step": view["step"],
        "turn": view["turn"],
        "actor": None,
        "moves_left": [player["moves_left"] for player in players],
        "board": [
            {"id": card["id"], "space": card["space"], "face_up": card["face_up"]}
            for card in view["board"]
        ],
        "character_deck": character_deck(view, chance),
        "villains_discarded": list(view["villains_discarded"]),
        "day_villains": [],
        "markers": [markers_of(view, s) for s in (0, 1)],
        "tokens": [player["tokens"] for player in players],
        "reserve": view["reserve"],
        "line": list(view["line"]),
        "deck": deck,
        "discard": discard,
        "visible": [list(player["visible"]) for player in players],
        "hidden": hidden,
        "hidden_known": [list(player["hidden_known"]) for player in players],
        "reserved": [player["reserved"] for player in players],
        "assigned": [player["assigned"] for player in players],
        "card_holder": next((p["seat"] for p in players if p["holds_card"]), None),
        "pending": {},
        "queue": [],
        "result": None,
        "rng": seeded(chance.getrandbits(63)),
    }


def character_deck(view: dict, chance: random.Random) -> list[str]:
    """The characters not yet drawn, in a random order."""
    villains = [v for v in VILLAINS if view["variants"][v]]
    shown = {card["id"] for card in view["board"]} | set(view["villains_discarded"])
    left = [c for c in (*DECK_CHARACTERS, *villains) if c not in shown]
    chance.shuffle(left)
    return left


def markers_of(view: dict, seat: int) -> list[dict]:
    placed = [
        {"on": card["id"], "standing": marker["standing"]}
        for card in view["board"]
        for marker in card["markers"]
        if marker["seat"] == seat
    ]
    in_hand = view["players"][seat]["markers_in_hand"]
    return placed + [{"on": None, "standing": False} for _ in range(in_hand)]


# --- Playing a deal forward ---------------------------------------------------------------


def playout(state: dict, seat: int, action: dict) -> float:
    """``action`` in ``state``, then both seats' greedy play to the horizon: the end of
    today (of the game on day 7). The position's worth to ``seat`` there."""
    horizon = state["day"]
    state = apply(state, seat, action)[0]
    for _ in range(MOST_PLIES):
        if state["step"] in (ASSIGN, OVER) or state["day"] > horizon:
            break
        actor = state["turn"]
        state = apply(state, actor, greedy(state, actor))[0]
    return worth(state, seat)


def greedy(state: dict, seat: int) -> dict:
    """The normal player's rule of thumb, read from a light view of ``state``."""
    legal = legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    view = light_view(state, seat)
    counts = Counts(view, seat)
    return CHOOSERS[state["step"]](view, seat, legal, counts)


def light_view(state: dict, seat: int) -> dict:
    """The parts of ``view`` the normal player's rule of thumb reads, built cheaply."""
    players = [
        {
            "seat": s,
            "visible": state["visible"][s],
            "hidden_known": state["hidden_known"][s],
            "hidden_count": len(state["hidden"][s]),
            "reserved": state["reserved"][s],
            "tokens": state["tokens"][s],
            "moves_left": state["moves_left"][s],
            "assigned": state["assigned"][s],
        }
        for s in (0, 1)
    ]
    looking = state["pending"].get("looking", []) if state["step"] == KEEP else []
    return {
        "you": seat,
        "day": state["day"],
        "days": DAYS,
        "step": state["step"],
        "first": state["first"],
        "line": state["line"],
        "reserve": state["reserve"],
        "players": players,
        "private": {"hidden": state["hidden"][seat], "looking": looking},
    }


def worth(state: dict, seat: int) -> float:
    """What ``seat`` may expect from ``state``: the final count if the game ended now
    (wildcards placed), plus the markers still to spend."""
    cards = [kind_counts(state["visible"][s] + state["hidden"][s]) for s in (0, 1)]
    reserved = (state["reserved"][seat], state["reserved"][1 - seat])
    margin = counted_margin(cards[seat], cards[1 - seat], reserved, state["first"] == seat)
    lead = state["tokens"][seat] - state["tokens"][1 - seat]
    if state["step"] in (ASSIGN, OVER):
        return utility(margin, lead)
    return margin + MARKER_WORTH[min(state["day"], DAYS)] * lead
