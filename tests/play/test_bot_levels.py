"""Computer players of three strengths: the host picks one per seat, the seat remembers it,
and the server plays that seat with that strength's bot.

Nim (tests/play/nim.py) is given three bots here that choose differently from the same
heap, so which one moved shows in the heap: easy takes two, normal leaves a multiple of
four, expert takes three.
"""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import GAMES
from play import leaving, services
from play.models import Seat, Table, TableStatus
from tests.play import nim


def take(count):
    def bot(view, seat, legal, seed):
        return next((a for a in legal if a["count"] == count), legal[0])

    return bot


THREE_LEVELS = replace(
    nim.GAME, bots={"easy": take(2), "normal": nim.bot_action, "expert": take(3)}, bot=None
)


@pytest.fixture
def nim_levels(monkeypatch):
    monkeypatch.setitem(GAMES, nim.NAME, THREE_LEVELS)
    return THREE_LEVELS


@pytest.fixture
def nim_normal_only(monkeypatch):
    monkeypatch.setitem(GAMES, nim.NAME, nim.GAME)
    return nim.GAME


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def nim_table(host, heap=10) -> Table:
    return services.table_create(host=host, game="nim", options={"heap": heap})


def test_it_seats_a_computer_player_of_the_level_the_host_picks(nim_levels, alice):
    table = nim_table(alice)

    expert = services.seat_add_bot(table_id=table.pk, user=alice, level="expert")
    easy = services.seat_add_bot(table_id=table.pk, user=alice, level="easy")
    normal = services.seat_add_bot(table_id=table.pk, user=alice)

    assert [expert.bot_level, easy.bot_level, normal.bot_level] == ["expert", "easy", "normal"]
    # The name says the strength, except for the normal one every game has.
    names = [seat.public_name for seat in (expert, easy, normal)]
    assert names == ["Computer 1 (expert)", "Computer 2 (easy)", "Computer 3"]
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    levels = [(seat["name"], seat["level"]) for seat in table.summary["seats"]]
    assert levels == [
        ("Alice", None),
        ("Computer 1 (expert)", "expert"),
        ("Computer 2 (easy)", "easy"),
        ("Computer 3", "normal"),
    ]


def test_it_refuses_a_level_that_does_not_exist(nim_levels, alice):
    table = nim_table(alice)

    with pytest.raises(services.TableError) as refused:
        services.seat_add_bot(table_id=table.pk, user=alice, level="grandmaster")

    assert refused.value.code == "bad_bot_level"
    assert str(refused.value) == (
        "A computer player is easy, normal or expert; 'grandmaster' is none of these."
    )
    assert not Seat.objects.filter(table=table, user__isnull=True).exists()


def test_it_refuses_a_level_the_game_does_not_offer(nim_normal_only, alice):
    table = nim_table(alice)

    with pytest.raises(services.TableError) as refused:
        services.seat_add_bot(table_id=table.pk, user=alice, level="expert")

    assert refused.value.code == "bot_level_not_offered"
    assert str(refused.value) == "Nim has no expert computer player yet: choose normal."


def test_only_the_host_seats_a_computer_player_of_any_level(nim_levels, alice, bob):
    table = nim_table(alice)
    services.table_join(invite_code=table.invite_code, user=bob)

    with pytest.raises(PermissionDenied):
        services.seat_add_bot(table_id=table.pk, user=bob, level="expert")
    assert table.seats.count() == 2


def test_each_computer_player_moves_with_its_own_strength(nim_levels, alice):
    table = nim_table(alice, heap=20)
    services.seat_add_bot(table_id=table.pk, user=alice, level="easy")
    services.seat_add_bot(table_id=table.pk, user=alice, level="expert")
    services.seat_add_bot(table_id=table.pk, user=alice, level="normal")
    services.table_start(table_id=table.pk, user=alice)
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 1})
    heaps = []
    for _ in range(3):
        table.refresh_from_db()
        services.table_wake(table_id=table.pk, version=table.version)
        table.refresh_from_db()
        heaps.append(table.state["heap"])

    # 19: easy takes two (17), expert three (14), normal leaves a multiple of four (12).
    assert heaps == [17, 14, 12]
    assert table.state["turn"] == 0 and table.status == TableStatus.PLAYING


def test_a_table_whose_summary_has_no_levels_plays_them_as_normal(nim_levels, alice):
    # Tables started before strengths existed keep their summary as it was written.
    table = nim_table(alice, heap=10)
    services.seat_add_bot(table_id=table.pk, user=alice, level="expert")
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    table.summary = {
        **table.summary,
        "seats": [{k: v for k, v in s.items() if k != "level"} for s in table.summary["seats"]],
    }
    table.save(update_fields=["summary"])
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 1})
    table.refresh_from_db()

    services.table_wake(table_id=table.pk, version=table.version)

    table.refresh_from_db()
    assert table.state["heap"] == 8  # normal: from nine, leave eight


def test_a_person_who_leaves_is_replaced_by_the_normal_computer_player(nim_levels, alice, bob):
    table = nim_table(alice)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)

    seat = leaving.seat_leave(table_id=table.pk, user=bob)

    table.refresh_from_db()
    assert seat.is_bot and seat.bot_level == "normal" and seat.public_name == "Computer 1"
    assert table.summary["seats"][1]["level"] == "normal"


def test_a_rematch_seats_each_computer_player_at_its_level(nim_levels, alice):
    table = nim_table(alice, heap=4)
    services.seat_add_bot(table_id=table.pk, user=alice, level="expert")
    services.table_start(table_id=table.pk, user=alice)
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 3})
    table.refresh_from_db()
    services.table_wake(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED

    rematch = services.table_rematch(table_id=table.pk, user=alice)

    bots = [(seat.public_name, seat.bot_level) for seat in rematch.seats.filter(user=None)]
    assert bots == [("Computer 1 (expert)", "expert")]


# --- The lobby page -------------------------------------------------------------------------


def test_the_lobby_offers_one_button_per_level_the_game_has(nim_levels, client, alice):
    table = nim_table(alice)
    client.force_login(alice)

    lobby = client.get(reverse("play:table", args=[table.pk])).text

    assert "Seat a computer player:" in lobby
    for level, label, button in (
        ("easy", "Easy", "add-bot-easy"),
        ("normal", "Normal", "add-bot"),
        ("expert", "Expert", "add-bot-expert"),
    ):
        assert f'name="level" value="{level}" id="{button}">{label}</button>' in lobby


def test_a_game_with_only_the_normal_level_keeps_one_button(nim_normal_only, client, alice):
    table = nim_table(alice)
    client.force_login(alice)

    lobby = client.get(reverse("play:table", args=[table.pk])).text

    assert 'id="add-bot">Seat a computer player</button>' in lobby
    assert 'name="level"' not in lobby


def test_the_lobby_seats_the_level_pressed_and_names_it(nim_levels, client, alice):
    table = nim_table(alice)
    client.force_login(alice)

    client.post(reverse("play:table-bot-add", args=[table.pk]), {"level": "expert"})

    assert table.seats.get(number=1).bot_level == "expert"
    lobby = client.get(reverse("play:table", args=[table.pk])).text
    assert "Computer 1 (expert)" in lobby


def test_the_lobby_says_why_a_level_is_refused(nim_normal_only, client, alice):
    table = nim_table(alice)
    client.force_login(alice)

    response = client.post(
        reverse("play:table-bot-add", args=[table.pk]), {"level": "expert"}, follow=True
    )

    assert response.status_code == 200
    assert "Nim has no expert computer player yet: choose normal." in response.text
    assert table.seats.count() == 1


def test_the_lobby_refuses_a_guest_who_presses_the_button(nim_levels, client, alice, bob):
    table = nim_table(alice)
    services.table_join(invite_code=table.invite_code, user=bob)
    client.force_login(bob)

    response = client.post(reverse("play:table-bot-add", args=[table.pk]), {"level": "easy"})

    assert response.status_code == 403
    assert not table.seats.filter(user=None).exists()


# --- The API --------------------------------------------------------------------------------


def api_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_api_seats_the_level_asked_and_shows_it_in_the_seats(nim_levels, alice):
    table = nim_table(alice)
    api = api_for(alice)

    expert = api.post(f"/api/tables/{table.pk}/bots/", {"level": "expert"}, format="json")
    normal = api.post(f"/api/tables/{table.pk}/bots/")

    assert expert.status_code == normal.status_code == 201
    seats = [(seat["name"], seat["bot"], seat["level"]) for seat in normal.json()["seats"]]
    assert seats == [
        ("Alice", False, None),
        ("Computer 1 (expert)", True, "expert"),
        ("Computer 2", True, "normal"),
    ]
    games = {game["name"]: game for game in api.get("/api/games/").json()}
    assert games["nim"]["bot_levels"] == ["easy", "normal", "expert"]
    assert games["watson_holmes"]["bot_levels"] == []


def test_the_api_refuses_a_level_that_does_not_exist(nim_levels, alice):
    table = nim_table(alice)

    refused = api_for(alice).post(
        f"/api/tables/{table.pk}/bots/", {"level": "grandmaster"}, format="json"
    )

    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == (
        'level: A computer player is easy, normal or expert; "grandmaster" is none of these.'
    )
    assert table.seats.count() == 1


def test_the_api_refuses_a_level_the_game_does_not_offer(nim_normal_only, alice):
    table = nim_table(alice)

    refused = api_for(alice).post(f"/api/tables/{table.pk}/bots/", {"level": "easy"}, format="json")

    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "code": "bot_level_not_offered",
        "message": "Nim has no easy computer player yet: choose normal.",
        "details": {},
    }


def test_the_api_refuses_a_guest_seating_a_computer_player(nim_levels, alice, bob):
    table = nim_table(alice)
    services.table_join(invite_code=table.invite_code, user=bob)

    refused = api_for(bob).post(f"/api/tables/{table.pk}/bots/", {"level": "expert"}, format="json")

    assert refused.status_code == 403
    assert refused.json()["error"]["message"] == "Only the host seats computer players."
    assert not table.seats.filter(user=None).exists()


def test_the_schema_documents_the_levels(client):
    schema = client.get("/api/schema/?format=json").json()

    components = schema["components"]["schemas"]
    level = components["TableBotInput"]["properties"]["level"]
    levels = components[level["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert levels["enum"] == ["easy", "normal", "expert"] and level["default"] == "normal"
    operation = schema["paths"]["/api/tables/{table_id}/bots/"]["post"]
    assert "400" in operation["responses"] and "403" in operation["responses"]


# --- Pace -----------------------------------------------------------------------------------


@pytest.fixture
def a_pause_to_follow(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 30
    return 30


def test_a_computer_player_pauses_where_a_person_plays(nim_levels, alice, a_pause_to_follow):
    table = nim_table(alice)
    services.seat_add_bot(table_id=table.pk, user=alice, level="expert")
    services.table_start(table_id=table.pk, user=alice)
    before = timezone.now()

    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 1})

    table.refresh_from_db()
    assert table.wake_at >= before + timedelta(seconds=a_pause_to_follow)
    assert services.tables_wake_due() == 0  # not yet: alice gets to see it coming


def test_a_table_of_computers_alone_plays_without_pausing(nim_levels, alice, a_pause_to_follow):
    table = nim_table(alice, heap=21)
    Seat.objects.filter(table=table).update(user=None, bot_name="Alice's stand-in")
    services.seat_add_bot(table_id=table.pk, user=alice, level="easy")
    services.seat_add_bot(table_id=table.pk, user=alice, level="expert")

    services.table_start(table_id=table.pk, user=alice)

    table.refresh_from_db()
    assert table.wake_at <= timezone.now()
    for _ in range(30):  # the sweep finds each move due at once, to the end
        if not services.tables_wake_due():
            break
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED


def test_once_the_last_person_leaves_the_computers_stop_pausing(
    nim_levels, alice, a_pause_to_follow
):
    table = nim_table(alice, heap=21)
    services.seat_add_bot(table_id=table.pk, user=alice, level="expert")
    services.table_start(table_id=table.pk, user=alice)
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 1})
    table.refresh_from_db()
    assert table.wake_at > timezone.now()

    leaving.seat_leave(table_id=table.pk, user=alice)

    table.refresh_from_db()
    assert table.wake_at <= timezone.now()
    assert services.tables_wake_due() == 1
