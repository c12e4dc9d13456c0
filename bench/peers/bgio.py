"""The boardgame.io side of `python -m bench peers`: seats taken through its lobby API and
the same simulated players as `bench.load`, speaking its socket.io protocol.

boardgame.io's protocol, as its own browser client speaks it (0.50): a socket on the
game's namespace; ``sync`` (match, seat, credentials, players) asks for the seat's view,
answered by a ``sync`` with it; a move is an ``update`` (action, the state id it was
chosen from, match, seat), and every seat at the table then receives an ``update`` with
its new view (filtered by the game's playerView) and the log of what happened. A move
chosen from a state that is no longer the latest is dropped without an answer; the
player learns it from the next ``update``, whose log holds someone else's move.

A player here does what `bench.load.Player` does: holds the socket open, waits for news,
thinks THINK_SECONDS on average, then makes one of the legal moves its view lists, chosen
with the same weights (`bench._harness.choose`).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from bench._harness import choose
from bench.load import REQUEST_TIMEOUT, THINK_SECONDS, Clock, Figures

GAME = "holmes-visit"  # the game's name in bench/peers/boardgameio/game.js
NAMESPACE = f"/{GAME}"
SEATS = ("0", "1", "2")
LOBBY_CLIENTS = 8  # seats taken this many at a time, before anything is measured


@dataclass
class Seat:
    match: str
    player: str
    credentials: str


# --- The lobby ----------------------------------------------------------------------------


async def seat_tables(session, base: str, count: int) -> list[list[Seat]]:
    """`count` matches of three seats each, created and joined through the lobby API."""
    tables: list[list[Seat]] = []
    queue = asyncio.Queue()
    for _ in range(count):
        queue.put_nowait(None)

    async def worker() -> None:
        while not queue.empty():
            queue.get_nowait()
            tables.append(await seat_one_table(session, base))

    await asyncio.gather(*(worker() for _ in range(min(LOBBY_CLIENTS, count))))
    return tables


async def seat_one_table(session, base: str) -> list[Seat]:
    async with session.post(f"{base}/games/{GAME}/create", json={"numPlayers": 3}) as answer:
        answer.raise_for_status()
        match = (await answer.json())["matchID"]
    seats = []
    for player in SEATS:
        body = {"playerID": player, "playerName": f"Player {int(player) + 1}"}
        async with session.post(f"{base}/games/{GAME}/{match}/join", json=body) as answer:
            answer.raise_for_status()
            seats.append(Seat(match, player, (await answer.json())["playerCredentials"]))
    return seats


# --- The protocol -------------------------------------------------------------------------


def move_message(seat: Seat, move: dict) -> dict:
    """A legal move as the view lists it ({"type": "visit", "location": 3, ...}) as the
    action boardgame.io's client sends: the move's name, its arguments, who and proof."""
    args = [move["location"], move["carriages"]] if move["type"] == "visit" else []
    return {
        "type": "MAKE_MOVE",
        "payload": {
            "type": move["type"],
            "args": args,
            "playerID": seat.player,
            "credentials": seat.credentials,
        },
    }


def made_by(log: list[dict] | None, player: str) -> bool:
    """Whether an update's log holds a move of `player` (so the update answers its move)."""
    for entry in log or []:
        action = entry.get("action") or {}
        by = (action.get("payload") or {}).get("playerID")
        if action.get("type") == "MAKE_MOVE" and by == player:
            return True
    return False


def legal_moves(state: dict | None) -> list[dict]:
    return ((state or {}).get("G") or {}).get("legal", [])


# --- A player -----------------------------------------------------------------------------


class BgioPlayer:
    """One simulated player on boardgame.io: its socket carries the views and the moves."""

    def __init__(self, session, base: str, seat: Seat, figures: Figures, clock: Clock, rnd):
        self.session, self.base, self.seat = session, base, seat
        self.figures, self.clock, self.rnd = figures, clock, rnd
        self.state: dict | None = None
        self.news = asyncio.Event()
        self.pending: asyncio.Future | None = None  # answered "applied" or "stale"
        self.pending_from = -1  # the state id the pending move was chosen from
        self.opened_at = 0.0  # when it began to open its socket, as Holmes's players
        self.leaving = False

    @property
    def state_id(self) -> int:
        return self.state["_stateID"] if self.state else -1

    async def play(self) -> None:
        import socketio

        await asyncio.sleep(self.rnd.uniform(0, self.clock.arrival_seconds))
        client = socketio.AsyncClient(
            reconnection=False,
            handle_sigint=False,
            http_session=self.session,
            request_timeout=REQUEST_TIMEOUT,
        )
        client.on("sync", self.on_sync, namespace=NAMESPACE)
        client.on("update", self.on_update, namespace=NAMESPACE)
        client.on("disconnect", self.on_disconnect, namespace=NAMESPACE)
        self.opened_at = time.perf_counter()
        try:
            await client.connect(
                self.base,
                namespaces=[NAMESPACE],
                transports=["websocket"],
                wait_timeout=REQUEST_TIMEOUT,
            )
        except (socketio.exceptions.ConnectionError, TimeoutError, OSError):
            self.figures.error("socket refused")
            return
        self.client = client
        try:
            await client.emit(
                "sync", (self.seat.match, self.seat.player, self.seat.credentials, 3), NAMESPACE
            )
            await self.take_turns()
        finally:
            self.leaving = True
            await client.disconnect()

    async def on_sync(self, match: str, info: dict) -> None:
        first = self.state is None
        self.state = info["state"]
        if first:
            self.figures.first_views.append(time.perf_counter() - self.opened_at)
            self.clock.arrive()
        self.news.set()

    async def on_update(self, match: str, state: dict, log: list | None = None) -> None:
        if state["_stateID"] <= self.state_id:
            return
        if self.clock.measuring():
            self.figures.pushes += 1
        self.state = state
        pending = self.pending
        if pending and not pending.done() and state["_stateID"] > self.pending_from:
            pending.set_result("applied" if made_by(log, self.seat.player) else "stale")
        self.news.set()

    async def on_disconnect(self, *reason) -> None:
        if not self.leaving:
            self.figures.error("socket closed")

    async def take_turns(self) -> None:
        while self.clock.left() > 0:
            try:
                await asyncio.wait_for(self.news.wait(), timeout=min(self.clock.left(), 1.0))
            except TimeoutError:
                continue
            self.news.clear()
            move = choose(legal_moves(self.state), self.rnd)
            if move is None:
                continue
            seen = self.state_id
            await asyncio.sleep(self.rnd.uniform(0.5, 1.5) * THINK_SECONDS)
            if self.clock.left() <= 0:
                return
            if self.state_id != seen:
                continue  # the table moved on while thinking: look again (news is set)
            await self.post(move)

    async def post(self, move: dict) -> None:
        self.pending = asyncio.get_running_loop().create_future()
        self.pending_from = self.state_id
        started = time.perf_counter()
        message = move_message(self.seat, move)
        await self.client.emit(
            "update", (message, self.pending_from, self.seat.match, self.seat.player), NAMESPACE
        )
        try:
            outcome = await asyncio.wait_for(self.pending, timeout=REQUEST_TIMEOUT)
        except TimeoutError:
            outcome = "unanswered"
        measured = self.clock.measuring()
        if outcome == "applied":
            if measured:
                self.figures.moves.append(time.perf_counter() - started)
        elif outcome == "stale":
            if measured:
                self.figures.stale += 1
        elif measured:
            self.figures.error("move unanswered")
        self.news.set()  # whatever came of it, look again


def players(session, base: str, tables: list[list[Seat]], figures, clock) -> list[BgioPlayer]:
    return [
        BgioPlayer(session, base, seat, figures, clock, random.Random(number * 10 + index))
        for number, seats in enumerate(tables)
        for index, seat in enumerate(seats)
    ]
