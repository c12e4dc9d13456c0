"""Watching: after the start, the invite offers "Watch this game": the spectator's view
only, live; the host may turn watching off, which sends the watchers away."""

import pytest
from django.test import Client
from django.urls import reverse

from play.models import Spectator

from .test_table_pages import ALICE_CARD_1, BOB_CARD_2, SOLUTION_TEXT, visit


@pytest.fixture
def clients(alice, bob, charlie, make_user):
    made = {}
    for user in (alice, bob, charlie, make_user("dora", display_name="Dora")):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


def watch(client, table):
    return client.post(reverse("play:watch", args=[table.invite_code]))


def test_a_fifth_friend_is_offered_to_watch_and_sees_the_spectators_view_only(clients, started):
    visit(clients, started, "alice", 1)
    visit(clients, started, "bob", 2)
    invite = clients["dora"].get(reverse("play:join", args=[started.invite_code]))
    assert "has already started" in invite.text and "Watch this game" in invite.text

    response = watch(clients["dora"], started)

    table_url = reverse("play:table", args=[started.pk])
    assert response["Location"] == table_url
    page = clients["dora"].get(table_url).text
    assert "You are watching" in page
    for secret in (ALICE_CARD_1, BOB_CARD_2, SOLUTION_TEXT):
        assert secret not in page
    live = clients["dora"].get(reverse("play:table-live", args=[started.pk])).text
    assert ALICE_CARD_1 not in live
    assert reverse("play:table-act", args=[started.pk]) not in live  # no move offered
    # A watcher makes no move.
    forbidden = clients["dora"].post(
        reverse("play:table-act", args=[started.pk]), {"action": '{"type": "visit"}'}
    )
    assert forbidden.status_code == 403


def test_nobody_watches_a_lobby_they_can_sit_at(clients, lobby):
    response = watch(clients["dora"], lobby)
    assert response["Location"] == reverse("play:join", args=[lobby.invite_code])
    assert not Spectator.objects.exists()


def test_the_host_turns_watching_off_and_the_watchers_are_sent_away(clients, started):
    watch(clients["dora"], started)
    table_url = reverse("play:table", args=[started.pk])
    assert "Turn watching off" in clients["alice"].get(table_url).text
    assert "Turn watching off" not in clients["bob"].get(table_url).text

    clients["alice"].post(reverse("play:table-watching", args=[started.pk]), {"allowed": "off"})

    # The table's address shows her why, and no longer the game.
    sent_away = clients["dora"].get(table_url)
    assert sent_away.templates[0].name == "play/outsider.html"
    assert "turned watching off" in sent_away.text
    invite = clients["dora"].get(reverse("play:join", args=[started.invite_code])).text
    assert "turned watching off" in invite and "Watch this game" not in invite
    refused = watch(clients["dora"], started)
    assert not Spectator.objects.exists() and refused.status_code == 302


def test_only_the_host_decides_who_watches(clients, started):
    response = clients["bob"].post(
        reverse("play:table-watching", args=[started.pk]), {"allowed": "off"}
    )
    assert response.status_code == 403
    started.refresh_from_db()
    assert started.watching_allowed
