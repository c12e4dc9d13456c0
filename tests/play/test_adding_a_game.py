"""The add-a-game guide (docs/adding-a-game.md), walked through: every file it shows of its
example game, Inspector Lestrade (the blocks that start with the file's path), is written
to a fresh folder, imported as `games.inspector_lestrade`, registered as the guide's step 6
says, and played: by the conformance test, then at a table and on its page. Should the
guide stop saying what is true, this fails."""

import ast
import importlib
import json
import re
import sys
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse

import games
from games import GAMES
from games.sites import GameSite, get_site
from play import services
from play.models import TableStatus
from tests.games import test_conformance as conformance

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
FILE_BLOCK = re.compile(r"```python\n# (games/inspector_lestrade/[\w/]+\.py)\n(.*?)```", re.S)
NAME = "inspector_lestrade"


def guide_files() -> dict[str, str]:
    """Each file of the example, as the guide shows it: path -> code."""
    return dict(FILE_BLOCK.findall(GUIDE.read_text(encoding="utf-8")))


def forget_the_example():
    for module in [name for name in sys.modules if name.startswith(f"games.{NAME}")]:
        del sys.modules[module]
    get_site.cache_clear()


@pytest.fixture
def lestrade(tmp_path, monkeypatch):
    """The guide's game, built from the guide alone and registered while the test runs."""
    for path, code in guide_files().items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path / "games")])
    forget_the_example()
    game = importlib.import_module(f"games.{NAME}").GAME
    monkeypatch.setitem(GAMES, game.name, game)
    yield game
    forget_the_example()


def code_lines(code: str) -> int:
    """Lines of code: not blank, not comments, not docstrings."""
    tree = ast.parse(code)
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(getattr(first.value, "value", None), str):
            docstrings |= set(range(first.lineno, first.end_lineno + 1))
    return sum(
        1
        for number, line in enumerate(code.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#") and number not in docstrings
    )


def test_the_guide_shows_every_file_of_its_example():
    assert sorted(guide_files()) == [
        f"games/{NAME}/__init__.py",
        f"games/{NAME}/privacy.py",
        f"games/{NAME}/rules/__init__.py",
        f"games/{NAME}/rules/bot.py",
        f"games/{NAME}/site.py",
    ]


def test_its_wiring_is_short():
    # The description, the site and the move table: what joins the rules to the site.
    files = guide_files()
    rules = files[f"games/{NAME}/rules/__init__.py"]
    move_table = rules[rules.index("apply = MoveTable(") :]
    wiring = files[f"games/{NAME}/__init__.py"] + files[f"games/{NAME}/site.py"] + move_table
    assert code_lines(wiring) <= 50


def test_it_passes_the_conformance_test(lestrade):
    conformance.test_it_describes_each_game_fully(lestrade)
    for players in conformance.seat_counts(lestrade):
        for seed in (1, 2):
            conformance.play_out(lestrade, players, seed, conformance.random_choice)
            conformance.play_out(lestrade, players, seed, conformance.bots_or_system(lestrade))


def test_it_takes_the_defaults_it_leaves_out(lestrade):
    state = lestrade.rules.setup(lestrade.example_config(2), ["Alice", "Bob"], 1)

    assert lestrade.example_config(2) == {"options": {"hand": 3}}
    assert lestrade.rules.deadline_seconds(state) is None
    assert lestrade.rules.may_write_notes(state, 1) is True
    assert lestrade.rules.ACTIONS["play"]["example"] == {"type": "play", "card": "lestrade-07"}
    site = get_site(NAME)
    assert isinstance(site, GameSite) and type(site).__name__ == "InspectorLestradeSite"
    assert lestrade.rules.apply(state, 1, {"type": "play", "card": "x"}).code == "not_your_turn"
    assert lestrade.rules.apply(state, 0, {"type": "fly"}).code == "unknown_action"


@pytest.mark.django_db
def test_a_table_of_it_is_played_on_the_site(lestrade, settings, client, alice):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    table = services.table_create(host=alice, game=NAME, options={"hand": 2})
    services.seat_add_bot(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    client.force_login(alice)
    page = reverse("play:table", args=[table.pk])

    html = client.get(page).text
    assert "It is your turn. You hold 2 cards." in html
    # The generic page offers each legal move as a button: alice presses the first.
    offered = re.search(r'name="action" value="([^"]*)"', html).group(1)
    card = json.loads(unescape(offered))["card"]
    move = {"action": unescape(offered), "key": "first-card"}
    response = client.post(reverse("play:table-act", args=[table.pk]), move, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.state["played"][0] == [card]
    # The guide's table of sentences tells the move in the generic page's log.
    assert f"<li>You played {card}.</li>" in client.get(page).text

    for _ in range(10):  # the computer player's move, then alice's last card, then its own
        services.tables_wake_due()
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            break
        if lestrade.rules.waiting_for(table.state) == [0]:
            action = lestrade.rules.legal_actions(table.state, 0)[0]
            services.game_apply_action(table_id=table.pk, player=0, action=action)
    assert table.status == TableStatus.FINISHED
    outcome = lestrade.rules.outcome(table.state)
    assert table.outcome == {"winners": outcome["winners"], "scores": outcome["scores"]}
