"""The leak test for every game played without a case: whole games through the API, with a
spectator watching, and every body each member received searched for what only another
seat may see.

What is private comes from the game itself (`Game.private_items(state, seat)`: hands,
hidden clues, a look at the deck...), read from the state after every move; a body is
searched as soon as it arrives, against what is private at that moment (a card played
from a hand is private before and public after). Players choose among the legal actions
their own view offers; now and then the server's timer plays a timeout, and a player's
history of events is fetched. A new game is searched on the day it is registered.
"""

from __future__ import annotations

import json
import random

import pytest

from games import GAMES
from play import services
from play.models import Spectator, Table
from tests.play.helpers import ApiPlayer, table_url
from tests.play.test_leaks import listen, pushed_messages

MAX_MOVES = 300
CARD_GAMES = sorted(name for name, game in GAMES.items() if not game.needs_case)
# Shorter games where a game offers it, so that each plays to its end in seconds.
OPTIONS = {"holmes_elementary": {"max_rounds": 8}}


def players_for(game) -> int:
    return max(game.min_players, min(3, game.max_players))


def history(viewer: ApiPlayer, table_id: int) -> list[dict]:
    """Every event the viewer may see, page by page (kept apart from its other bodies:
    an event is searched against what was private when it happened)."""
    events, after = [], 0
    while True:
        response = viewer.client.get(table_url(table_id, f"events/?after={after}"))
        assert response.status_code == 200
        page = response.json()
        if not page:
            return events
        events += page
        after = page[-1]["sequence"]


def secrets_of_nobody(state: dict) -> set[str]:
    """What no seat may see: the order of the deck (three cards in a row, as any JSON
    writes a list), and the cards hidden in the Elementary deck's suit spots that nobody
    has seen (a wrong guess shows one to its guesser: then it is that seat's secret)."""
    found = set()
    for key in ("deck", "draw"):
        pile = state.get(key)
        if isinstance(pile, list) and len(pile) >= 3 and all(isinstance(c, str) for c in pile):
            found.add(json.dumps(pile[:3], separators=(",", ":"))[1:-1])
            found.add(json.dumps(pile[:3])[1:-1])
    spots = state.get("spots")
    if isinstance(spots, dict):
        emptied = state.get("emptied_by") or {}
        over = state.get("result") is not None
        seen = "".join(player.get("seen_spots", "") for player in state.get("players", []))
        found |= {
            f'"{card}"'
            for suit, card in spots.items()
            if suit not in emptied and not over and card not in seen
        }
    return found


# Games whose moves may deal the cards afresh (I Say, Holmes! deals the next case in the
# move that closes the last one), by the event that starts the new deal.
FRESH_DEALS = {"i_say_holmes": "case_started"}


def since_fresh_deals(game, events: list[dict]) -> list[dict]:
    """The events less those that came before a fresh deal in the same move: they tell of
    the cards as they lay before it, and the deal hands every card out again, so against
    the new hands they would look like leaks. The same events come in moves that deal
    nothing, and are searched there."""
    deals = {
        event["table_version"]: event["sequence"]
        for event in events
        if event["type"] == FRESH_DEALS.get(game.name)
    }
    return [
        event
        for event in events
        if event["sequence"] >= deals.get(event["table_version"], event["sequence"])
    ]


class Searcher:
    """Searches what each viewer received against the secrets of the moment: views (and
    every other body) against what is private now, events against what was private at
    the version they made. A card may change hands: played from a hand, shuffled back,
    drawn by another."""

    def __init__(self, game, table_id: int, viewers: dict):
        self.game = game
        self.table_id = table_id
        self.viewers = viewers  # seat (None: the spectator) -> ApiPlayer
        self.searched = {seat: 0 for seat in viewers}
        self.private_at: dict[int, dict[int, set[str]]] = {}
        self.items_checked = 0

    def private_now(self) -> dict[int, set[str]]:
        table = Table.objects.get(pk=self.table_id)
        players = len([seat for seat in self.viewers if seat is not None])
        private = {seat: self.game.private_items(table.state, seat) for seat in range(players)}
        # Nobody's secrets are every seat's "other seat's" secrets: -1 owns them.
        private[-1] = secrets_of_nobody(table.state)
        self.private_at[table.version] = private
        return private

    def search(self) -> None:
        private = self.private_now()
        for seat, viewer in self.viewers.items():
            fresh = viewer.bodies[self.searched[seat] :]
            self.searched[seat] = len(viewer.bodies)
            self.check(seat, private, fresh)

    def search_history(self, seat, events: list[dict]) -> None:
        for event in since_fresh_deals(self.game, events):
            private = self.private_at.get(event["table_version"])
            assert private is not None, f"no secrets recorded for version {event['table_version']}"
            self.check(seat, private, [json.dumps(event)])

    def check(self, seat, private: dict, bodies: list[str]) -> None:
        for owner, items in private.items():
            if owner == seat:
                continue
            for item in items:
                self.items_checked += 1
                for body in bodies:
                    assert item not in body, f"{self.who(seat)} received seat {owner}'s {item!r}"

    @staticmethod
    def who(seat) -> str:
        return "the spectator" if seat is None else f"seat {seat}"


@pytest.fixture
def people(make_user):
    return [make_user(name) for name in ("alice", "bob", "charlie", "dave", "erin", "frank")]


@pytest.mark.parametrize("name", CARD_GAMES)
def test_it_shows_nobody_another_seats_secrets(
    name, people, settings, roomy_channel_layer, django_capture_on_commit_callbacks
):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    game = GAMES[name]
    rnd = random.Random(1895)
    count = players_for(game)
    host = ApiPlayer(people[0])
    created = host.post("/api/tables/", {"game": name, "options": OPTIONS.get(name, {})})
    assert created.status_code == 201, created.content
    table_id, code = created.json()["table"], created.json()["invite_code"]
    players = [host]
    for user in people[1:count]:
        player = ApiPlayer(user)
        assert player.post("/api/tables/join/", {"invite_code": code}).status_code == 200
        players.append(player)
    watcher = ApiPlayer(people[-1])
    Spectator.objects.create(table_id=table_id, user=watcher.user)
    Table.objects.filter(pk=table_id).update(seed=1895)
    channel = listen(table_id)
    started = host.post(table_url(table_id, "start/"))
    assert started.status_code == 200, started.content

    viewers = {seat: player for seat, player in enumerate(players)} | {None: watcher}
    searcher = Searcher(game, table_id, viewers)
    searcher.search()
    moves = timeouts = 0
    for _ in range(MAX_MOVES):
        table = Table.objects.get(pk=table_id)
        if table.status == "finished":
            break
        waiting = game.rules.waiting_for(table.state)
        assert waiting, "nobody is waited for, yet the game is not over"
        if rnd.random() < 0.06:
            result = services.game_apply_action(
                table_id=table_id, player="system", action={"type": "timeout"}
            )
            assert result.applied
            timeouts += 1
            searcher.search()
            continue
        # The seat to move looks at its view and picks a legal move; the others and the
        # spectator look now and then.
        seat = rnd.choice(waiting)
        view = players[seat].view(table_id)
        for other in range(count):
            if other != seat and rnd.random() < 0.3:
                players[other].view(table_id)
        if rnd.random() < 0.3:
            watcher.view(table_id)
        searcher.search()
        action = rnd.choice(view["game"]["legal_actions"])
        with django_capture_on_commit_callbacks(execute=True):
            response = players[seat].act(table_id, action, view["version"])
        assert response.status_code == 200, response.content
        searcher.search()
        moves += 1
        if rnd.random() < 0.05:
            for seat_of, viewer in viewers.items():
                searcher.search_history(seat_of, history(viewer, table_id))
    searcher.search()
    for seat_of, viewer in viewers.items():
        searcher.search_history(seat_of, history(viewer, table_id))
        viewer.get(table_url(table_id))
    searcher.search()
    assert Table.objects.get(pk=table_id).status == "finished", "the game did not end"
    assert timeouts, "no timer ran out: the timeout's path went unsearched"

    # The game was long enough, and had secrets enough, for the search to mean something.
    assert moves >= 20
    assert searcher.items_checked > 30
    refused = players[0].act(table_id, {"type": "no_such_move"}, 0)
    assert refused.status_code in (400, 409)
    searcher.search()
    # Live pushes say "version N exists" and nothing else.
    messages = pushed_messages(channel)
    assert messages
    for message in messages:
        assert set(message) == {"type", "version"}
