"""A tiny game for the seam's tests: Nim, registered only while a test needs it.

Players take one to three matches from a heap in turn; whoever takes the last wins. It
has what the card games have and the case game lacks (no case, a table option, a bot),
so the server's game-neutral parts are tested without depending on any real game.
"""

import sys

from games.base import SYSTEM, Event, Game, Option, Refusal

NAME = "nim"
FIXED_KEYS = ()


def setup(config: dict, players: list[str], seed: int) -> dict:
    return {"heap": config["options"]["heap"], "turn": 0, "players": list(players), "winner": None}


def legal_actions(state: dict, player) -> list[dict]:
    if state["winner"] is not None:
        return []
    if player == SYSTEM:
        return [{"type": "timeout"}]
    if player != state["turn"]:
        return []
    return [{"type": "take", "count": n} for n in range(1, min(3, state["heap"]) + 1)]


def apply(state: dict, player, action):
    if action not in legal_actions(state, player):
        return Refusal("not_allowed", "That move is not yours to make now.")
    taken = 1 if action["type"] == "timeout" else action["count"]
    seat = state["turn"]
    heap = state["heap"] - taken
    winner = seat if heap == 0 else None
    new = {**state, "heap": heap, "turn": (seat + 1) % len(state["players"]), "winner": winner}
    events = [Event("took", data={"player": seat, "count": taken})]
    if winner is not None:
        events.append(Event("game_over", data={"winners": [winner]}))
    return new, events


def view(state: dict, player) -> dict:
    return {"heap": state["heap"], "turn": turn(state), "winner": state["winner"]}


def is_over(state: dict) -> bool:
    return state["winner"] is not None


def outcome(state: dict):
    if state["winner"] is None:
        return None
    return {"winners": [state["winner"]], "scores": None}


def turn(state: dict):
    return None if is_over(state) else state["turn"]


def waiting_for(state: dict) -> list[int]:
    return [] if is_over(state) else [state["turn"]]


def bot_action(view: dict, seat: int, legal: list[dict], seed: int) -> dict:
    # The winning move leaves a multiple of four; otherwise take one and hope.
    best = view["heap"] % 4
    return next((a for a in legal if a["count"] == best), legal[0])


GAME = Game(
    name=NAME,
    title="Nim",
    min_players=2,
    max_players=4,
    needs_case=False,
    rules=sys.modules[__name__],  # read with Rules.of: no deadline, notes always (defaults)
    private_items=lambda state, seat: set(),
    example_config=lambda players: {"options": {"heap": 10}},
    options=(
        Option(
            "heap", "Matches", "How many matches the heap starts with.", 10, minimum=4, maximum=40
        ),
    ),
    bot=bot_action,
)
