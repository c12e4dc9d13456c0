"""Playing a sampled world forward fast, and judging where it got to: the expert's rollouts.

The rollout policy is the normal bot's, read straight off the world's state (each seat
uses only its own hand and notes there) so that no view or list of legal actions is
built per move: it solves a case as soon as it holds one, plays a spare card, guesses
only sure spots, else looks at a pile with six fresh cards (where the house rules allow)
or draws and discards. A turn's later action passes its earlier phases by itself, so a
turn costs two or three ``apply`` calls.

A rollout stops at the end of the game or when the deciding seat's next turn starts;
``value`` then scores each seat's position in case tokens.
"""

from __future__ import annotations

from games.base import Refusal
from games.holmes_elementary.rules.actions import apply
from games.holmes_elementary.rules.bot import (
    ACTION_PREFERENCE,
    FRESH_DISCARDS,
    best_option,
    spare_cards,
    suits_matched,
    worst_cards,
)
from games.holmes_elementary.rules.cards import RANKS, SUITS, TARGETED_SUITS, card_id, suit_of
from games.holmes_elementary.rules.cases import every_case
from games.holmes_elementary.rules.state import ID_LENGTH, OVER
from games.holmes_elementary.rules.view import outcome

MAX_MOVES = 400  # a safety net: a rollout ends long before

# What a position is worth, in case tokens. A seat that holds a case will cash it next
# turn; a spot it can name for sure it will take unless someone is faster; fewer
# candidates are worth more; a matched suit is a seventh of a case.
CASE_IN_HAND = 0.8
SPOT_BY_CANDIDATES = {1: 0.75, 2: 0.3, 3: 0.15}
SPOT_MANY = 0.05
MATCHED_SUIT = 0.06


def rollout(world: dict, seat: int, rivals_too: bool = False) -> dict:
    """Play ``world`` on until the game ends or ``seat``'s turn is over (with
    ``rivals_too``, until its next turn begins)."""
    state = world
    started_elsewhere = False
    for _ in range(MAX_MOVES):
        if state["phase"] == OVER:
            break
        actor = state["pending"]["player"] if state["pending"] else state["current"]
        if actor != seat and state["current"] != seat:
            if not rivals_too:
                break
            started_elsewhere = True
        elif started_elsewhere and state["pending"] is None and state["phase"] == "action":
            break
        state = step(state, actor)
    return state


def step(state: dict, actor: int) -> dict:
    result = apply(state, actor, policy(state, actor))
    if isinstance(result, Refusal):  # not expected; the turn moves on all the same
        result = apply(state, actor, fallback(state))
    return result[0]


def fallback(state: dict) -> dict:
    if state["pending"] is None:
        return {"type": "pass"}
    return {"type": "discard", "cards": state["players"][state["pending"]["player"]]["hand"][:1]}


def policy(state: dict, seat: int) -> dict:
    hand = state["players"][seat]["hand"]
    pending = state["pending"]
    if pending is not None:
        if pending["kind"] == "locale":
            return {"type": "keep", "card": best_option(hand, pending["options"])}
        return {"type": "discard", "cards": worst_cards(hand, pending["count"])}
    if suits_matched(tuple(hand)) == len(SUITS):
        return {"type": "solve", "cards": every_case(hand)[0]}
    if state["phase"] == "action":
        play = _play(state, seat, hand)
        if play is not None:
            return play
    return deduction(state, seat)


def _play(state: dict, seat: int, hand: list[str]) -> dict | None:
    spare = spare_cards(hand)
    for suit in ACTION_PREFERENCE:
        cards = [card for card in spare if suit_of(card) == suit]
        if cards:
            action = {"type": "play", "card": cards[-1]}
            if suit in TARGETED_SUITS:
                action["target"] = _leader(state, seat)
            return action
    return None


def _leader(state: dict, seat: int) -> int:
    players = state["players"]
    count = len(players)
    order = [(seat + step) % count for step in range(1, count)]
    return max(order, key=lambda other: (players[other]["tokens"], len(players[other]["hand"])))


def deduction(state: dict, seat: int) -> dict:
    named = _named_wrong(state)
    for suit in SUITS:
        ranks = spot_candidates(state, seat, suit, named)
        if ranks is not None and len(ranks) == 1:
            return {"type": "guess", "suit": suit, "rank": ranks[0]}
    player = state["players"][seat]
    fresh = len(state["discard"]) >= player["discard_looked"] + FRESH_DISCARDS
    if fresh and state.get("discard_look", True):
        return {"type": "view_discard"}
    if state["deck"] or state["discard"]:
        return {"type": "draw_discard"}
    return {"type": "pass"}


_IDS_OF_SUIT = {suit: [(rank, card_id(suit, rank)) for rank in RANKS] for suit in SUITS}


def _named_wrong(state: dict) -> str:
    """Every id named in a wrong guess, by anyone."""
    return "".join(player["wrong"] for player in state["players"])


def spot_candidates(state: dict, seat: int, suit: str, named: str) -> list[int] | None:
    """The ranks ``seat`` cannot rule out for a spot it may guess; ``None`` where it may
    not. ``named``: ``_named_wrong(state)``."""
    if suit in state["emptied_by"]:
        return None
    player = state["players"][seat]
    if suit in player["wrong"][::ID_LENGTH]:
        return None
    seen = player["seen"]
    return [rank for rank, card in _IDS_OF_SUIT[suit] if card not in seen and card not in named]


def value(state: dict, seat: int) -> float:
    """``seat``'s position against its best rival, in case tokens (a won game is worth
    far more than any position)."""
    if state["phase"] == OVER:
        winners = outcome(state)["winners"]
        return 10.0 / len(winners) if seat in winners else -10.0
    named = _named_wrong(state)
    worth = [_worth(state, other, named) for other in range(len(state["players"]))]
    rivals = [w for other, w in enumerate(worth) if other != seat]
    return worth[seat] - max(rivals)


def _worth(state: dict, seat: int, named: str) -> float:
    player = state["players"][seat]
    hand = tuple(player["hand"])
    matched = suits_matched(hand)
    worth = player["tokens"] + MATCHED_SUIT * matched
    if matched == len(SUITS):
        worth += CASE_IN_HAND
    for suit in SUITS:
        ranks = spot_candidates(state, seat, suit, named)
        if ranks:
            worth += SPOT_BY_CANDIDATES.get(len(ranks), SPOT_MANY)
    return worth
