"""Leaving a started game, and the host removing a player who is away: a computer player
takes the seat (the card games) or play passes it by (the case game), everyone reads a
sentence, and the person sees the seat no more."""

import re
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import get_game
from play import leaving, services
from play.models import Notebook, Seat, Table, TableEvent, TableSocket
from play.services import TableError


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    settings.HOLMES_AWAY_SECONDS = 120


def card_game(alice, bob, game="sherlock_mycroft") -> Table:
    table = services.table_create(host=alice, game=game)
    Table.objects.filter(pk=table.pk).update(seed=1887)
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


def test_a_player_who_leaves_is_replaced_by_a_computer_player(alice, bob):
    table = card_game(alice, bob)
    version = table.version
    Notebook.objects.filter(seat__table=table, seat__user=bob).update(text="my secret plan")

    seat = leaving.seat_leave(table_id=table.pk, user=bob)

    table.refresh_from_db()
    assert seat.is_bot and seat.bot_name == "Computer 1" and seat.number == 1
    assert table.version == version + 1
    assert not Notebook.objects.filter(seat=seat).exists()
    said = "Bob left the game; a computer player (Computer 1) takes the seat."
    event = TableEvent.objects.get(table=table, type=leaving.SEAT_REPLACED)
    assert event.payload == {"seat": 1, "sentence": said} and event.audience == "all"
    assert table.summary["departures"] == [said]
    assert table.summary["seats"][1] == {
        **table.summary["seats"][1],
        "name": "Computer 1",
        "bot": True,
    }
    assert table.summary["seats"][0]["name"] == "Alice"


def test_the_computer_plays_the_seat_when_its_turn_comes(alice, bob):
    table = card_game(alice, bob)
    rules = get_game(table.engine).rules
    leaving.seat_leave(table_id=table.pk, user=bob)
    table.refresh_from_db()
    # Whoever the game waits for now, alice moves until the seat owes a move.
    for _ in range(20):
        if 1 in rules.waiting_for(table.state):
            break
        action = rules.legal_actions(table.state, 0)[0]
        services.game_apply_action(table_id=table.pk, player=0, action=action)
        table.refresh_from_db()
    assert 1 in rules.waiting_for(table.state) and table.wake_at is not None
    moved = services.table_wake(table_id=table.pk, version=table.version)
    assert moved is not None and moved.applied


def test_the_one_who_left_sees_the_table_no_more(alice, bob, client):
    table = card_game(alice, bob)
    leaving.seat_leave(table_id=table.pk, user=bob)
    api = APIClient()
    api.force_authenticate(bob)
    assert api.get(f"/api/tables/{table.pk}/").status_code == 404
    client.force_login(bob)
    # Its address shows them what it shows anyone not at the table: never the game.
    page = client.get(reverse("play:table", args=[table.pk]))
    assert page.status_code == 200
    assert [t.name for t in page.templates][0] == "play/outsider.html"
    assert "You are not at" in page.content.decode()
    # Their moves are refused as a stranger's, not played for the computer.
    with pytest.raises(services.NotSeated):
        services.game_apply_player_action(
            table_id=table.pk, user=bob, action={"type": "pass"}, expected_version=table.version + 1
        )


def test_leaving_is_for_a_started_game(alice, bob, charlie):
    lobby = services.table_create(host=alice, game="sherlock_mycroft")
    services.table_join(invite_code=lobby.invite_code, user=bob)
    with pytest.raises(TableError, match="only while the game is played"):
        leaving.seat_leave(table_id=lobby.pk, user=bob)
    table = card_game(alice, charlie)
    with pytest.raises(services.NotSeated):
        leaving.seat_leave(table_id=table.pk, user=bob)


def test_a_game_with_neither_a_computer_player_nor_withdraw_keeps_the_seat(monkeypatch, alice, bob):
    from dataclasses import replace

    from games import GAMES
    from tests.play import nim

    monkeypatch.setitem(GAMES, nim.NAME, replace(nim.GAME, bots={}, bot=None))
    table = services.table_create(host=alice, game="nim", options={"heap": 10})
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    with pytest.raises(TableError, match="has no computer player") as refused:
        leaving.seat_leave(table_id=table.pk, user=bob)
    assert refused.value.code == "no_bot"
    assert Seat.objects.get(table=table, number=1).user == bob


def test_the_host_removes_a_player_away_long_enough(alice, bob):
    table = card_game(alice, bob)
    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(hours=1))
    seat = Seat.objects.get(table=table, user=bob)
    Seat.objects.filter(pk=seat.pk).update(seen_at=timezone.now() - timedelta(seconds=30))
    with pytest.raises(TableError, match="try again in 90 seconds"):
        leaving.seat_remove(table_id=table.pk, host=alice, number=1)
    with pytest.raises(PermissionDenied):
        leaving.seat_remove(table_id=table.pk, host=bob, number=0)

    Seat.objects.filter(pk=seat.pk).update(seen_at=timezone.now() - timedelta(seconds=121))
    replaced = leaving.seat_remove(table_id=table.pk, host=alice, number=1)

    assert replaced.is_bot
    table.refresh_from_db()
    assert table.summary["departures"] == [
        "Alice removed Bob, who was away; a computer player (Computer 1) takes the seat."
    ]


def test_a_player_whose_page_is_open_is_not_away(alice, bob):
    table = card_game(alice, bob)
    seat = Seat.objects.get(table=table, user=bob)
    Seat.objects.filter(pk=seat.pk).update(seen_at=timezone.now() - timedelta(hours=1))
    TableSocket.objects.create(
        table=table, seat=seat, user=bob, expires_at=timezone.now() + timedelta(seconds=60)
    )
    with pytest.raises(TableError, match="not away long enough") as refused:
        leaving.seat_remove(table_id=table.pk, host=alice, number=1)
    assert refused.value.code == "not_away"
    with pytest.raises(TableError, match="leave the game instead"):
        leaving.seat_remove(table_id=table.pk, host=alice, number=0)


def test_never_seen_counts_from_the_start(alice, bob):
    table = card_game(alice, bob)
    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(minutes=5))
    assert leaving.seat_remove(table_id=table.pk, host=alice, number=1).is_bot


# --- The page -------------------------------------------------------------------------------


def test_the_page_offers_leave_and_says_who_left(alice, bob, client):
    table = card_game(alice, bob)
    page = reverse("play:table", args=[table.pk])
    client.force_login(bob)
    assert 'id="leave-game"' in client.get(page).content.decode()
    assert 'id="remove-seat-0"' not in client.get(page).content.decode()

    left = client.post(reverse("play:seat-leave", args=[table.pk]))

    assert left.status_code == 302 and left["Location"] == reverse("play:tables")
    client.force_login(alice)
    html = client.get(page).content.decode()
    assert "Bob left the game; a computer player (Computer 1) takes the seat." in html
    assert 'id="remove-seat-1"' not in html  # a computer's seat is nobody's to remove
    # The game's own panel names the seat as it is now.
    area = html[html.index('id="area-1-name"') :].split("</h3>")[0]
    assert "Computer 1" in area and "Bob" not in area


def test_the_host_removes_from_the_page_and_reads_why_not_yet(alice, bob, client):
    table = card_game(alice, bob)
    client.force_login(alice)
    page = reverse("play:table", args=[table.pk])
    # Bob has not been away long: no Remove beside him yet.
    assert 'id="remove-seat-1"' not in client.get(page).content.decode()
    remove = reverse("play:seat-remove", args=[table.pk, 1])

    refused = client.post(remove, HTTP_HX_REQUEST="true")

    assert refused.status_code == 200
    assert "Bob is not away long enough to be removed: try again in" in refused.content.decode()
    assert Seat.objects.get(table=table, number=1).user == bob
    client.force_login(bob)
    assert client.post(reverse("play:seat-remove", args=[table.pk, 0])).status_code == 403

    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(hours=1))
    client.force_login(alice)
    html = client.get(page).content.decode()
    assert 'id="remove-seat-1"' in html and 'id="remove-seat-0"' not in html
    assert client.post(remove).status_code == 302
    assert Seat.objects.get(table=table, number=1).is_bot


def test_it_leaves_a_host_who_left_no_say_over_the_table(alice, bob, client):
    table = card_game(alice, bob)
    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(hours=1))
    leaving.seat_leave(table_id=table.pk, user=alice)
    services.spectator_join(invite_code=table.invite_code, user=alice)

    with pytest.raises(PermissionDenied, match="You left this game"):
        leaving.seat_remove(table_id=table.pk, host=alice, number=1)
    with pytest.raises(PermissionDenied, match="You left this game"):
        services.table_set_watching(table_id=table.pk, user=alice, allowed=False)
    client.force_login(alice)
    html = client.get(reverse("play:table", args=[table.pk])).content.decode()
    assert 'id="watching-note"' in html  # she watches now
    assert 'id="watching-form"' not in html and 'id="remove-seat-1"' not in html
    watching = reverse("play:table-watching", args=[table.pk])
    assert client.post(watching, {"allowed": "off"}).status_code == 403
    assert client.post(reverse("play:seat-remove", args=[table.pk, 1])).status_code == 403
    api = APIClient()
    api.force_authenticate(alice)
    refused = api.post(f"/api/tables/{table.pk}/seats/1/remove/")
    assert refused.status_code == 403
    assert "the host's say over it went with your seat" in refused.content.decode()
    table.refresh_from_db()
    assert table.watching_allowed
    assert Seat.objects.get(table=table, number=1).user == bob


# --- Hidden information ---------------------------------------------------------------------


def test_the_one_who_left_reads_nothing_of_the_seat_any_more(alice, bob):
    from play import presence

    # Holmes Elementary deals each player a hand: a seat's own secrets from the start.
    table = card_game(alice, bob, game="holmes_elementary")
    seat = Seat.objects.get(table=table, user=bob)
    socket = presence.socket_open(table_id=table.pk, seat_id=seat.pk, user_id=bob.pk)
    api = APIClient()
    api.force_authenticate(bob)
    before = api.get(f"/api/tables/{table.pk}/").content.decode()
    secrets = get_game(table.engine).private_items(table.state, 1)
    assert secrets and any(secret in before for secret in secrets)  # the check can fail

    leaving.seat_leave(table_id=table.pk, user=bob)
    # Bob asks again everywhere he could read the seat from.
    table.refresh_from_db()
    answers = [
        api.get(f"/api/tables/{table.pk}/"),
        api.get(f"/api/tables/{table.pk}/events/"),
        api.post(
            f"/api/tables/{table.pk}/actions/",
            {"action": {"type": "x"}, "expected_version": table.version},
            format="json",
        ),
    ]
    secrets = get_game(table.engine).private_items(table.state, 1)
    for answer in answers:
        assert answer.status_code == 404, answer.content
        assert not any(secret in answer.content.decode() for secret in secrets)
    # An open socket of his stops counting at its next ping, and the consumer closes it.
    refreshed = presence.socket_refresh(
        socket_id=socket, table_id=table.pk, seat_id=seat.pk, user_id=bob.pk
    )
    assert refreshed is None
    assert not TableSocket.objects.filter(seat=seat).exists()


# --- The API --------------------------------------------------------------------------------


def test_the_api_leaves_and_removes_with_sentences(alice, bob, charlie):
    table = card_game(alice, bob)
    bob_api, alice_api = APIClient(), APIClient()
    bob_api.force_authenticate(bob)
    alice_api.force_authenticate(alice)

    not_yet = alice_api.post(f"/api/tables/{table.pk}/seats/1/remove/")
    assert not_yet.status_code == 400, not_yet.content
    assert not_yet.json()["error"]["code"] == "not_away"
    assert "try again in" in not_yet.json()["error"]["message"]
    assert bob_api.post(f"/api/tables/{table.pk}/seats/0/remove/").status_code == 403

    assert bob_api.post(f"/api/tables/{table.pk}/seat/leave/").status_code == 204
    seats = alice_api.get(f"/api/tables/{table.pk}/").json()["seats"]
    assert seats[1]["name"] == "Computer 1" and seats[1]["bot"] is True
    assert bob_api.post(f"/api/tables/{table.pk}/seat/leave/").status_code == 404


def test_the_others_are_told_and_so_is_the_removed_player(alice, bob):
    from accounts.models import Notification

    table = card_game(alice, bob)
    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(hours=1))
    leaving.seat_remove(table_id=table.pk, host=alice, number=1)

    told_bob = Notification.objects.get(user=bob)
    assert told_bob.message == (
        "Alice removed you from Sherlock & Mycroft, as you were away; "
        "a computer player took your seat."
    )
    assert told_bob.url == reverse("play:tables")
    assert not Notification.objects.filter(user=alice).exists()  # she did it


def test_the_others_read_who_left(alice, bob):
    from accounts.models import Notification

    table = card_game(alice, bob)
    leaving.seat_leave(table_id=table.pk, user=bob)
    told = Notification.objects.get(user=alice)
    assert told.message == (
        "At Sherlock & Mycroft: Bob left the game; a computer player (Computer 1) takes the seat."
    )
    assert not Notification.objects.filter(user=bob).exists()


# --- The case game: play passes a leaver by -------------------------------------------------


def case_game(tutorial, *people) -> Table:
    host, *others = people
    table = services.table_create(host=host, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1887)
    for person in others:
        services.table_join(invite_code=table.invite_code, user=person)
    return services.table_start(table_id=table.pk, user=host)


def test_a_case_game_player_who_leaves_is_passed_by(tutorial, alice, bob, charlie):
    table = case_game(tutorial, alice, bob, charlie)
    rules = get_game(table.engine).rules
    assert rules.waiting_for(table.state) == [0]
    version = table.version
    Notebook.objects.filter(seat__table=table, seat__user=alice).update(text="the butler?")

    seat = leaving.seat_leave(table_id=table.pk, user=alice)

    table.refresh_from_db()
    assert seat.has_left and not seat.is_bot and seat.user is None and seat.bot_name == ""
    assert not Notebook.objects.filter(seat=seat).exists()
    assert table.version == version + 1
    # Alice was on turn: Bob plays now, and nobody waits for Alice again.
    assert rules.waiting_for(table.state) == [1] and rules.legal_actions(table.state, 0) == []
    assert table.state["players"][0]["status"] == "withdrawn"
    said = "Alice left the game; play passes them by."
    assert table.summary["departures"] == [said]
    entry = table.summary["seats"][0]
    assert entry["name"] == "Alice (left)" and entry["left"] and not entry["bot"]
    types = list(TableEvent.objects.filter(table=table).values_list("type", flat=True))
    assert "withdrew" in types and leaving.SEAT_REPLACED in types
    # A seat nobody holds is never given to the computer mover: no wake-up is planned
    # for it, and waking the table does nothing.
    assert services.table_wake(table_id=table.pk, version=table.version) is None
    bob_move = rules.legal_actions(table.state, 1)[0]
    assert services.game_apply_action(table_id=table.pk, player=1, action=bob_move).applied


def test_the_game_ends_when_every_player_has_left(tutorial, alice, bob):
    from play.models import TableStatus

    table = case_game(tutorial, alice, bob)
    leaving.seat_leave(table_id=table.pk, user=bob)
    leaving.seat_leave(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert get_game(table.engine).rules.outcome(table.state)["winners"] == []


def test_the_host_removes_an_away_case_game_player(tutorial, alice, bob, charlie):
    from accounts.models import Notification

    table = case_game(tutorial, alice, bob, charlie)
    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(hours=1))

    removed = leaving.seat_remove(table_id=table.pk, host=alice, number=1)

    assert removed.has_left
    table.refresh_from_db()
    assert table.summary["departures"] == ["Alice removed Bob, who was away; play passes them by."]
    assert "play passes your seat by" in Notification.objects.get(user=bob).message
    assert "play passes them by" in Notification.objects.get(user=charlie).message
    with pytest.raises(TableError, match="No player sits in that seat"):
        leaving.seat_remove(table_id=table.pk, host=alice, number=1)


def plain_fragments(secrets: set[str]) -> list[str]:
    """A stretch of plain words from each secret: found the same in JSON and in HTML,
    where quotes and line breaks are escaped."""
    return [max(re.findall(r"[A-Za-z][A-Za-z ]+", secret), key=len)[:30] for secret in secrets]


def test_the_case_game_leaver_sees_no_private_card_and_nobody_inherits_them(
    tutorial, alice, bob, charlie, client
):
    table = case_game(tutorial, alice, bob, charlie)
    rules = get_game(table.engine).rules
    # Everyone places a pawn on a card, and reads it in private.
    for seat in range(3):
        table.refresh_from_db()
        visit = next(
            a
            for a in rules.legal_actions(table.state, seat)
            if a["type"] == "visit" and a.get("carriages") == 0 and len(a) == 3
        )
        services.game_apply_action(table_id=table.pk, player=seat, action=visit)
    table.refresh_from_db()
    assert table.state["step"] == "reading"
    secrets = plain_fragments(get_game(table.engine).private_items(table.state, 1))
    api = APIClient()
    api.force_authenticate(bob)
    before = api.get(f"/api/tables/{table.pk}/").content.decode()
    assert secrets and any(secret in before for secret in secrets)  # the check can fail

    leaving.seat_leave(table_id=table.pk, user=bob)

    table.refresh_from_db()
    secrets = plain_fragments(get_game(table.engine).private_items(table.state, 1))
    client.force_login(bob)
    answers = [
        api.get(f"/api/tables/{table.pk}/"),
        api.get(f"/api/tables/{table.pk}/events/"),
        client.get(reverse("play:table", args=[table.pk])),
    ]
    for answer in answers:
        assert answer.status_code in (200, 404)
        assert not any(secret in answer.content.decode() for secret in secrets)
    assert answers[0].status_code == 404 or answers[0].json()["you"]["seat"] is None
    for other in (alice, charlie):
        api.force_authenticate(other)
        seen = api.get(f"/api/tables/{table.pk}/").content.decode()
        seen += api.get(f"/api/tables/{table.pk}/events/").content.decode()
        assert not any(secret in seen for secret in secrets)


def test_the_case_game_page_offers_leave_and_marks_who_left(tutorial, alice, bob, client):
    table = case_game(tutorial, alice, bob)
    page = reverse("play:table", args=[table.pk])
    client.force_login(bob)
    html = client.get(page).content.decode()
    assert 'id="leave-game"' in html and "Play passes your seat by" in html

    left = client.post(reverse("play:seat-leave", args=[table.pk]))

    assert left.status_code == 302 and left["Location"] == reverse("play:tables")
    client.force_login(alice)
    html = client.get(page).content.decode()
    assert "Bob left the game; play passes them by." in html
    assert 'id="player-1-left"' in html


# --- A host with players on their device (pass and play) -----------------------------------


def test_the_players_on_a_hosts_device_leave_with_the_host(alice, bob):
    from accounts.models import Notification
    from play import local_players

    table = services.table_create(host=alice, game="holmes_elementary")
    Table.objects.filter(pk=table.pk).update(seed=1887)
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Mara")
    services.table_join(invite_code=table.invite_code, user=bob)
    # A name is the player's own text, braces and all: never read as a template.
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Nell {bot}")
    table = services.table_start(table_id=table.pk, user=alice)
    alice_api = APIClient()
    alice_api.force_authenticate(alice)

    assert alice_api.post(f"/api/tables/{table.pk}/seat/leave/").status_code == 204

    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    assert [seats[n].bot_name for n in (0, 1, 3)] == ["Computer 1", "Computer 2", "Computer 3"]
    assert all(seats[n].is_bot and seats[n].held_by_id is None for n in (0, 1, 3))
    assert seats[2].user == bob
    said = [
        "Alice left the game; a computer player (Computer 1) takes the seat.",
        "Mara, on Alice's device, left the game too; a computer player (Computer 2) "
        "takes the seat.",
        "Nell {bot}, on Alice's device, left the game too; a computer player (Computer 3) "
        "takes the seat.",
    ]
    table.refresh_from_db()
    assert table.summary["departures"] == said
    told = Notification.objects.filter(user=bob).order_by("pk").values_list("message", flat=True)
    assert [message.split(": ", 1)[1] for message in told] == said
    assert not Notification.objects.filter(user=alice).exists()
    assert alice_api.get(f"/api/tables/{table.pk}/").status_code == 404
    # Bob plays on: the computers move the three seats, Bob's view names them.
    bob_api = APIClient()
    bob_api.force_authenticate(bob)
    names = [seat["name"] for seat in bob_api.get(f"/api/tables/{table.pk}/").json()["seats"]]
    assert names == ["Computer 1", "Computer 2", "Bob", "Computer 3"]


def test_a_case_game_passes_by_the_players_on_the_leavers_device(tutorial, alice, bob):
    from play import local_players

    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1887)
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Mara")
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)
    rules = get_game(table.engine).rules

    leaving.seat_leave(table_id=table.pk, user=alice)

    table.refresh_from_db()
    gone = Seat.objects.filter(table=table, number__in=[0, 1])
    assert all(seat.has_left and seat.held_by_id is None and not seat.is_bot for seat in gone)
    assert [table.state["players"][n]["status"] for n in (0, 1)] == ["withdrawn", "withdrawn"]
    assert table.summary["departures"] == [
        "Alice left the game; play passes them by.",
        "Mara, on Alice's device, left the game too; play passes them by.",
    ]
    assert [entry["name"] for entry in table.summary["seats"]] == [
        "Alice (left)",
        "Mara (left)",
        "Bob",
    ]
    assert rules.waiting_for(table.state) == [2]


def test_the_game_ends_when_a_host_and_their_device_leave_it_empty(tutorial, alice):
    from play import local_players
    from play.models import TableStatus

    table = services.table_create(host=alice, case_version=tutorial)
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Mara")
    table = services.table_start(table_id=table.pk, user=alice)

    leaving.seat_leave(table_id=table.pk, user=alice)

    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert len(table.summary["departures"]) == 2
