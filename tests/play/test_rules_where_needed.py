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
