"""Play again: a finished table opens a new lobby for its group, once; the computer players
sit down again, the people are told with the new lobby's link and choose to join."""

import pytest
from django.urls import reverse

from accounts.models import Notification
from play import services
from play.models import Seat, Table, TableStatus


def finish(table: Table) -> Table:
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    table.refresh_from_db()
    return table


def play_again(client, user, table: Table):
    client.force_login(user)
    return client.post(reverse("play:table-play-again", args=[table.pk]))


@pytest.mark.django_db
def test_play_again_opens_one_new_lobby_for_the_group(client, started, alice, bob, charlie):
    finished = finish(started)
    response = play_again(client, bob, finished)
    rematch = Table.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302 and response.url == f"/tables/{rematch.pk}/"
    assert rematch.host == bob and rematch.status == TableStatus.LOBBY
    assert rematch.case_version_id == finished.case_version_id
    assert rematch.options == finished.options
    assert list(rematch.seats.values_list("user__username", flat=True)) == ["bob"]

    # The others are told, with the new lobby's invite; bob, who asked, is not.
    told = Notification.objects.filter(dedupe_key=f"table{finished.pk}:rematch")
    assert sorted(told.values_list("user__username", flat=True)) == ["alice", "charlie"]
    assert {n.url for n in told} == {f"/join/{rematch.invite_code}/"}
    assert "Bob opened a new table" in told.first().message

    # The finished table's page now offers the new table; pressing joins it, no second one.
    client.force_login(alice)
    page = client.get(reverse("play:table", args=[finished.pk])).content.decode()
    assert "Join the new table" in page
    response = play_again(client, alice, finished)
    assert response.url == f"/tables/{rematch.pk}/"
    assert Table.objects.count() == 2
    assert Seat.objects.filter(table=rematch, user=alice).exists()


@pytest.mark.django_db
def test_the_computer_players_sit_down_again(client, alice):
    table = services.table_create(host=alice, game="sherlock_mycroft")
    services.seat_add_bot(table_id=table.pk, user=alice)
    finished = finish(services.table_start(table_id=table.pk, user=alice))
    page = (client.force_login(alice), client.get(f"/tables/{finished.pk}/"))[1]
    assert "Play again" in page.content.decode()
    play_again(client, alice, finished)
    rematch = Table.objects.exclude(pk=finished.pk).get()
    old_bot = finished.seats.get(user__isnull=True)
    new_bot = rematch.seats.get(user__isnull=True)
    assert new_bot.bot_name == old_bot.bot_name
    assert rematch.engine == "sherlock_mycroft"


@pytest.mark.django_db
def test_only_a_finished_table_of_yours_can_be_played_again(client, started, bob, dave):
    response = play_again(client, bob, started)  # still playing
    assert response.status_code == 302 and response.url == f"/tables/{started.pk}/"
    assert Table.objects.count() == 1
    page = client.get(response.url).content.decode()
    assert "Only a finished game can be played again." in page
    assert "Play again" not in page

    finished = finish(started)
    assert play_again(client, dave, finished).status_code == 404  # not at the table
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_a_private_play_test_is_not_played_again(client, tutorial, alice):
    table = services.table_create_private(host=alice, case_version=tutorial)
    finished = finish(services.table_start(table_id=table.pk, user=alice))
    client.force_login(alice)
    assert "Play again" not in client.get(f"/tables/{finished.pk}/").content.decode()
    with pytest.raises(services.TableError, match="private play-test"):
        services.table_rematch(table_id=finished.pk, user=alice)
    assert Table.objects.count() == 1
