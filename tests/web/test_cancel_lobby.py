"""The host may cancel a lobby: the table stays, cancelled, and says so to everyone who
opens it; the players are told."""

from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from play.models import TableStatus


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_host_cancels_the_lobby_and_everyone_reads_what_happened(lobby, alice, bob):
    response = client_of(alice).post(reverse("play:table-cancel", args=[lobby.pk]))

    assert response["Location"] == reverse("play:table", args=[lobby.pk])
    lobby.refresh_from_db()
    assert lobby.status == TableStatus.CANCELLED
    page = client_of(bob).get(reverse("play:table", args=[lobby.pk])).text
    assert "Alice cancelled this table before the game started." in page
    assert 'id="start-game"' not in page and 'name="colour"' not in page
    assert Notification.objects.get(user=bob).message == (
        "Alice cancelled the table for The Clerkenwell Repeater."
    )
    assert not Notification.objects.filter(user=alice).exists()  # she did it herself
    tables = client_of(bob).get(reverse("play:tables")).text
    assert "Cancelled by the host" in tables


def test_a_lobby_page_open_meanwhile_reloads_to_show_it(lobby, alice, bob):
    client_of(alice).post(reverse("play:table-cancel", args=[lobby.pk]))

    live = client_of(bob).get(
        reverse("play:table-live", args=[lobby.pk]),
        {"since": "0", "status": "lobby"},
        headers={"HX-Request": "true"},
    )

    assert live.headers.get("HX-Refresh") == "true"


def test_only_the_host_cancels_and_only_a_lobby(lobby, started, alice, bob):
    refused = client_of(bob).post(reverse("play:table-cancel", args=[lobby.pk]))
    assert refused.status_code == 403

    too_late = client_of(alice).post(
        reverse("play:table-cancel", args=[started.pk]), headers={"HX-Request": "true"}
    )
    assert "it can no longer be cancelled" in too_late.text
    started.refresh_from_db()
    assert started.status == TableStatus.PLAYING


def test_nobody_joins_a_cancelled_table(lobby, alice, make_user):
    client_of(alice).post(reverse("play:table-cancel", args=[lobby.pk]))
    dora = client_of(make_user("dora", display_name="Dora"))

    page = dora.get(reverse("play:join", args=[lobby.invite_code])).text

    assert "Alice cancelled the table for The Clerkenwell Repeater" in page
    assert 'id="join-button"' not in page and "Watch this game" not in page
    watch = dora.post(reverse("play:watch", args=[lobby.invite_code]), follow=True)
    assert "The host cancelled this table." in watch.text
