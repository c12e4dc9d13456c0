"""A table's address opened by someone not at it: friends copy the address bar, not the
invite. They read what the invite page would offer (watching, or why not), never the game,
and the address alone seats nobody."""

from django.urls import reverse

from play import services
from play.models import Spectator, Table


def test_a_lobby_asks_for_the_invite_and_never_shows_it(lobby, dave, client):
    client.force_login(dave)
    page = client.get(reverse("play:table", args=[lobby.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "has not started" in text and "3 players seated so far" in text
    assert "invite link or code" in text
    # The code is the table's only key: its address must not hand it out.
    assert lobby.invite_code not in text and lobby.invite_code_shown not in text
    assert 'id="join-button"' not in text


def test_a_started_game_offers_watching_and_watching_works(started, dave, client):
    client.force_login(dave)
    page = client.get(reverse("play:table", args=[started.pk]))
    assert page.status_code == 200
    assert 'id="watch-button"' in page.content.decode()

    watched = client.post(reverse("play:table-watch", args=[started.pk]))

    assert watched.url == reverse("play:table", args=[started.pk])
    assert Spectator.objects.filter(table=started, user=dave).exists()
    table_page = client.get(watched.url)
    assert [t.name for t in table_page.templates][0] != "play/outsider.html"


def test_watching_turned_off_is_said_and_refused(started, alice, dave, client):
    services.table_set_watching(table_id=started.pk, user=alice, allowed=False)
    client.force_login(dave)
    text = client.get(reverse("play:table", args=[started.pk])).content.decode()
    assert "turned watching off" in text and 'id="watch-button"' not in text

    refused = client.post(reverse("play:table-watch", args=[started.pk]), follow=True)

    assert "turned watching off" in refused.content.decode()
    assert not Spectator.objects.filter(table=started, user=dave).exists()


def test_a_cancelled_table_says_so(lobby, alice, dave, client):
    services.table_cancel(table_id=lobby.pk, user=alice)
    client.force_login(dave)
    text = client.get(reverse("play:table", args=[lobby.pk])).content.decode()
    assert "This table was cancelled" in text


def test_a_private_play_test_is_no_table_to_anyone_else(tutorial, alice, dave, client):
    # As its invite opens none: its case may be a draft under review.
    table = services.table_create_private(host=alice, case_version=tutorial)
    client.force_login(dave)
    assert client.get(reverse("play:table", args=[table.pk])).status_code == 404
    assert client.post(reverse("play:table-watch", args=[table.pk])).status_code == 404


def test_only_a_table_that_does_not_exist_is_not_found(dave, client):
    client.force_login(dave)
    missing = (Table.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    assert client.get(reverse("play:table", args=[missing])).status_code == 404


def test_someone_logged_out_is_asked_to_log_in(started, client):
    page = client.get(reverse("play:table", args=[started.pk]))
    assert page.status_code == 302 and "login" in page.url
