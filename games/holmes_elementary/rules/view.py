"""What a seat (or a spectator) may see, and the questions the server asks of a state.

Public: the phase and whose turn, the choice being waited for (kind, player, count), the
deck's and discard pile's sizes, the case token supply, each spot (open or not, who
emptied it, who may no longer guess it, its card once emptied or at the end), each
player's hand size, tokens, cases, right and wrong guesses, and every wrong guess's suit
and rank. Under ``you``, for a seat only: its hand, its Locale options, its latest look,
the spot cards it saw by guessing wrong, and ``seen`` (every card it has held or been
shown: its deduction notes). Never here: the deck's order, the discard pile's contents,
other hands, hidden spot cards, the generator's state.
"""

from __future__ import annotations

from games.holmes_elementary.rules.cards import (
    ABILITIES,
    SUIT_NAMES,
    SUITS,
    describe,
    rank_of,
    suit_of,
)
from games.holmes_elementary.rules.state import (
    NAME,
    OVER,
    barred_suits,
    is_seat,
    seen_cards,
    split_ids,
    spot_is_open,
)


def view(state: dict, player: int | None = None) -> dict:
    viewer = player if is_seat(state, player) else None
    pending = state["pending"]
    barred = [barred_suits(player) for player in state["players"]]
    return {
        "engine": NAME,
        "viewer": viewer,
        "round": state["round"],
        "max_rounds": state["max_rounds"],
        "first": state["first"],
        "player": None if state["phase"] == OVER else state["current"],
        "phase": state["phase"],
        "waiting_for": waiting_for(state),
        "pending": (
            {key: pending[key] for key in ("kind", "player", "count")} if pending else None
        ),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "supply": state["supply"],
        "suits": [
            {"suit": suit, "name": SUIT_NAMES[suit], "ability": ABILITIES[suit]} for suit in SUITS
        ],
        "spots": [_spot(state, suit, barred) for suit in SUITS],
        "players": [_player(state, seat, barred[seat]) for seat in range(len(state["players"]))],
        "wrong_guesses": _wrong_guesses(state),
        "result": outcome(state),
        "you": _private(state, viewer) if viewer is not None else None,
    }


def _spot(state: dict, suit: str, barred: list[list[str]]) -> dict:
    """``barred``: each seat's ``barred_suits``."""
    is_open = spot_is_open(state, suit)
    revealed = not is_open or state["phase"] == OVER
    return {
        "suit": suit,
        "name": SUIT_NAMES[suit],
        "open": is_open,
        "emptied_by": state["emptied_by"].get(suit),
        "barred": [seat for seat, suits in enumerate(barred) if suit in suits],
        "card": describe(state["spots"][suit]) if revealed else None,
    }


def _wrong_guesses(state: dict) -> list[dict]:
    """Every wrong guess, seat by seat: the suit and the rank named (never as an id, which
    could be mistaken for a card someone holds)."""
    return [
        {"player": seat, "suit": suit_of(guess), "rank": rank_of(guess)}
        for seat, player in enumerate(state["players"])
        for guess in split_ids(player["wrong"])
    ]


def _player(state: dict, seat: int, barred: list[str]) -> dict:
    player = state["players"][seat]
    return {
        "seat": seat,
        "name": player["name"],
        "hand_count": len(player["hand"]),
        "tokens": player["tokens"],
        "cases": player["cases"],
        "correct": list(player["correct"]),
        "barred": barred,
    }


def _private(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    pending = state["pending"]
    mine = pending is not None and pending["player"] == seat and pending["kind"] == "locale"
    look = player["last_look"]
    return {
        "seat": seat,
        "hand": [describe(card) for card in player["hand"]],
        "options": [describe(card) for card in pending["options"]] if mine else [],
        "last_look": {**look, "cards": list(look["cards"])} if look else None,
        "seen_spots": {suit_of(card): card for card in split_ids(player["seen_spots"])},
        "seen": seen_cards(player),
        "discard_looked": player["discard_looked"],
    }


def is_over(state: dict) -> bool:
    return state["phase"] == OVER


def outcome(state: dict) -> dict | None:
    """``None`` until the end; then the reason, the winners (several on a tie at the round
    limit), tokens per seat (also as ``scores``) and the ranking, best first."""
    result = state["result"]
    if result is None:
        return None
    return {
        "reason": result["reason"],
        "winners": list(result["winners"]),
        "scores": dict(result["scores"]),
        "tokens": list(result["tokens"]),
        "ranking": list(result["ranking"]),
    }


def waiting_for(state: dict) -> list[int]:
    """The seat that owes an action: a choice's chooser, else the player on turn."""
    if state["phase"] == OVER:
        return []
    if state["pending"] is not None:
        return [state["pending"]["player"]]
    return [state["current"]]


def turn(state: dict) -> int | None:
    seats = waiting_for(state)
    return seats[0] if seats else None
