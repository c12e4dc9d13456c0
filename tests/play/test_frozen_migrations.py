"""Data migrations carry their own frozen copy of what they need of the games, so that
renaming, moving or changing a game cannot change what they do. Each copy is checked here
against the live code it was taken from, for as long as that game is registered."""

import importlib
import random
from pathlib import Path

import pytest
from django.apps import apps

from games import GAMES
from games.base import SYSTEM
from games.sites import get_site
from play import services
from play.models import Table

outcomes_and_titles = importlib.import_module("play.migrations.0012_outcomes_and_titles")
FROZEN = sorted(outcomes_and_titles.TITLES)


def registered(name: str):
    if name not in GAMES:
        pytest.skip(f"{name} is no longer registered: the migration's frozen copy stands")
    return GAMES[name]


def finished_state(game, seed: int = 3) -> dict:
    """A game played to its end by random legal moves, the server's included."""
    players = game.min_players if game.min_players > 1 else 2
    rules = game.rules
    state = rules.setup(game.example_config(players), [f"p{n}" for n in range(players)], seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if rules.is_over(state):
            return state
        moves = [
            (actor, action)
            for actor in [*range(players), SYSTEM]
            for action in rules.legal_actions(state, actor)
        ]
        actor, action = rng.choice(moves)
        state, _ = rules.apply(state, actor, action)
    raise AssertionError(f"{game.name} did not end")


@pytest.mark.parametrize("name", FROZEN)
def test_the_frozen_titles_and_outcomes_are_the_live_ones(name):
    game = registered(name)
    frozen = outcomes_and_titles.OUTCOMES[name]
    start = game.rules.setup(game.example_config(game.min_players), ["a"] * game.min_players, 1)
    end = finished_state(game)

    assert outcomes_and_titles.TITLES[name] == game.title
    assert frozen(start) is None and game.rules.outcome(start) is None
    assert frozen(end) == get_site(name).outcome_record(game.rules.outcome(end))


def test_every_game_registered_then_is_frozen():
    # The migration ran on the four games of its day; it knows each of them by name.
    assert set(FROZEN) == set(outcomes_and_titles.OUTCOMES)
    assert {"watson_holmes", "sherlock_mycroft", "i_say_holmes", "holmes_elementary"} <= set(FROZEN)


def test_no_data_migration_imports_live_game_code():
    migrations = Path(outcomes_and_titles.__file__).parent
    importing = [
        path.name
        for path in sorted(migrations.glob("*.py"))
        if "from games" in path.read_text() or "import games" in path.read_text()
    ]
    assert importing == []


@pytest.mark.django_db
def test_it_gives_a_finished_table_its_title_and_outcome(alice):
    game = registered("sherlock_mycroft")
    table = services.table_create(host=alice, game=game.name, options={})
    end = finished_state(game)
    Table.objects.filter(pk=table.pk).update(status="finished", state=end, outcome=None, summary={})

    outcomes_and_titles.forwards(apps, None)

    table.refresh_from_db()
    assert table.summary == {"title": "Sherlock & Mycroft"}
    assert table.outcome == get_site(game.name).outcome_record(game.rules.outcome(end))
    assert table.outcome["winners"] == list(end["result"]["winners"])
