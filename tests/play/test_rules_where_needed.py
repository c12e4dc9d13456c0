"""Rules at the point of play: each game described on the Games page and in its lobby, and
"How to play" from the lobby, the invite page and the table, opening beside the game."""

import html
import re

import pytest
from django.urls import reverse

from games import GAMES
from play import selectors, services

pytestmark = pytest.mark.django_db

HOW_TO_PLAY = re.compile(r'<a href="(/games/[a-z_]+/rules/)" target="_blank" rel="noopener"')


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_is_described_in_a_paragraph_of_its_own_rules(name):
    summary = selectors.game_summary(name=name)
    assert GAMES[name].title.split()[0].strip("!,") in summary
    assert 20 <= len(summary.split()) <= 120


def test_the_games_page_describes_every_game(client):
    text = client.get(reverse("play:games")).content.decode()
    for name in GAMES:
        assert html.escape(selectors.game_summary(name=name).split(".")[0]) in text


def test_a_card_games_lobby_describes_the_game_and_links_its_rules(alice, client):
    table = services.table_create(host=alice, game="holmes_elementary")
    client.force_login(alice)
    text = client.get(reverse("play:table", args=[table.pk])).content.decode()
    assert selectors.game_summary(name="holmes_elementary").split(".")[0] in text
    assert HOW_TO_PLAY.search(text).group(1) == "/games/holmes_elementary/rules/"


def test_the_table_in_play_links_its_rules_beside_the_game(started, alice, client):
    client.force_login(alice)
    text = client.get(reverse("play:table", args=[started.pk])).content.decode()
    assert HOW_TO_PLAY.search(text).group(1) == "/games/watson_holmes/rules/"
    assert "opens beside this page, in a new tab" in text


def test_the_invite_page_links_the_rules(lobby, dave, client):
    client.force_login(dave)
    text = client.get(reverse("play:join", args=[lobby.invite_code])).content.decode()
    assert HOW_TO_PLAY.search(text).group(1) == "/games/watson_holmes/rules/"


def first_game_section(html_text: str) -> str:
    found = re.search(r"<h2[^>]*>Your first game</h2>(.*?)<h2", html_text, re.S)
    return re.sub(r"<[^>]+>", " ", found.group(1)) if found else ""


@pytest.mark.parametrize("name", list(GAMES))
def test_each_rules_page_opens_with_a_short_first_game(name, client):
    text = client.get(reverse("play:game-rules", args=[name])).content.decode()
    first_game = first_game_section(text)
    assert 100 <= len(first_game.split()) <= 250
    assert text.index("<h1>") < text.index(">Your first game</h2>") < text.index(">Contents</h2>")


@pytest.mark.parametrize("name", list(GAMES))
def test_the_moves_json_lives_on_its_own_page_for_programs(name, client):
    rules = client.get(reverse("play:game-rules", args=[name])).content.decode()
    moves = client.get(reverse("play:game-api-moves", args=[name]))
    assert "{&quot;type&quot;" not in rules and '{"type"' not in rules
    assert f'href="/games/{name}/api/"' in rules
    assert moves.status_code == 200
    assert "{&quot;type&quot;" in moves.content.decode() or '{"type"' in moves.content.decode()
    assert f'href="/games/{name}/rules/"' in moves.content.decode()


def test_a_game_that_does_not_exist_has_no_moves_page(client):
    assert client.get("/games/no_such_game/api/").status_code == 404


@pytest.mark.parametrize("name", list(GAMES))
def test_every_list_on_a_rules_page_is_rendered_as_a_list(name, client):
    # A table nested in a list item once folded the items after it into one paragraph,
    # each with a literal "- ".
    text = client.get(reverse("play:game-rules", args=[name])).content.decode()
    assert not re.search(r"\n- ", text) and "<pre>" not in text
    assert text.count("<li>") >= 40
