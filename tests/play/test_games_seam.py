"""Tables of any game: without a case, with options, computer players and timers.

Nim (tests/play/nim.py) stands for a card game here: it has no case, a table option and a
bot. It is registered for these tests only; every real game runs through the same code.
"""

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import GAMES
from play import services
from play.models import Seat, Table, TableEvent, TableStatus
from tests.play import nim


@pytest.fixture
def nim_game(monkeypatch):
    monkeypatch.setitem(GAMES, nim.NAME, nim.GAME)
    return nim.GAME


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def nim_table(host, heap=10, **fields) -> Table:
    return services.table_create(host=host, game="nim", options={"heap": heap}, **fields)


def wake_until_still(limit=200) -> int:
    """Run the sweep as a wake-up's backstop (or the embedded waker) would, until nothing is due."""
    for rounds in range(limit):
        if not services.tables_wake_due():
            return rounds
    raise AssertionError("the tables never settled")


# --- Tables without a case ----------------------------------------------------------------


def test_it_opens_a_table_of_a_game_without_a_case(nim_game, alice):
    table = nim_table(alice, heap=12)

    assert table.case_version is None
    assert table.options == {"heap": 12}
    assert table.summary == {"title": "Nim"}
    assert table.seats.get().colour == "red"


def test_it_refuses_options_and_cases_a_game_does_not_take(nim_game, alice, tutorial):
    with pytest.raises(services.TableError, match="Matches is between 4 and 40."):
        nim_table(alice, heap=99)
    with pytest.raises(services.TableError, match="Unknown table option: colour."):
        services.table_create(host=alice, game="nim", options={"colour": "red"})
    with pytest.raises(services.TableError, match="played without a case"):
        services.table_create(host=alice, game="nim", case_version=tutorial)
    with pytest.raises(services.TableError, match="played with a case"):
        services.table_create(host=alice, game="watson_holmes")
    with pytest.raises(services.TableError, match="no game called"):
        services.table_create(host=alice, game="croquet")
    assert not Table.objects.exists()


def test_it_takes_the_seat_limit_and_colours_from_the_game(
    nim_game, alice, bob, charlie, dave, erin
):
    table = nim_table(alice)
    for user in (bob, charlie, dave):
        services.table_join(invite_code=table.invite_code, user=user)
    with pytest.raises(services.TableError, match=r"full \(4 players\)"):
        services.table_join(invite_code=table.invite_code, user=erin)
    assert list(table.seats.values_list("colour", flat=True)) == ["red", "blue", "green", "yellow"]


def test_a_table_of_a_case_game_seats_eight_at_most(tutorial):
    from games import get_game

    assert max(game.max_players for game in GAMES.values()) <= 8
    assert len(get_game("watson_holmes").colours) == 8


# --- Computer players -----------------------------------------------------------------------


def test_the_host_seats_and_removes_computer_players(nim_game, alice, bob):
    table = nim_table(alice)
    bot = services.seat_add_bot(table_id=table.pk, user=alice)
    assert bot.is_bot and bot.user is None and bot.public_name == "Computer 1"
    with pytest.raises(PermissionDenied):
        services.seat_add_bot(table_id=table.pk, user=bob)
    services.seat_remove_bot(table_id=table.pk, user=alice, number=bot.number)
    assert list(table.seats.values_list("number", flat=True)) == [0]


def test_it_refuses_a_computer_player_for_a_game_without_one(alice, tutorial):
    table = services.table_create(host=alice, case_version=tutorial)
    with pytest.raises(services.TableError, match="has no computer players"):
        services.seat_add_bot(table_id=table.pk, user=alice)


def test_a_computer_player_moves_when_the_table_waits_for_it(
    nim_game, alice, django_capture_on_commit_callbacks
):
    table = nim_table(alice, heap=10)
    services.seat_add_bot(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 1})
    table.refresh_from_db()
    assert table.wake_at is not None  # the bot owes a move

    assert wake_until_still() == 1
    table.refresh_from_db()
    # Nine left: the bot leaves a multiple of four, as its policy says.
    assert table.state["heap"] == 8 and table.state["turn"] == 0
    assert table.wake_at is None  # alice has no timer: nothing to wake for


def test_a_table_of_computer_players_plays_to_its_end(nim_game, alice):
    table = nim_table(alice, heap=21)
    Seat.objects.filter(table=table).update(user=None, bot_name="Alice's stand-in")
    for _ in range(3):
        services.seat_add_bot(table_id=table.pk, user=alice)
    table.refresh_from_db()
    # Seats are fixed at the start; the host's seat plays by computer here.
    services.table_start(table_id=table.pk, user=alice)

    moves = wake_until_still()

    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert table.outcome["winners"] in ([0], [1], [2], [3])
    assert moves == TableEvent.objects.filter(table=table, type="took").count()
    assert table.wake_at is None and table.deadline_at is None


def test_a_wake_up_for_a_version_the_table_left_does_nothing(nim_game, alice):
    table = nim_table(alice, heap=10)
    services.seat_add_bot(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 1})
    table.refresh_from_db()
    stale = table.version - 1

    assert services.table_wake(table_id=table.pk, version=stale) is None
    first = services.table_wake(table_id=table.pk, version=table.version)
    again = services.table_wake(table_id=table.pk, version=table.version)

    assert first.applied and again is None
    assert TableEvent.objects.filter(table=table, type="took").count() == 2


def test_a_chain_of_computer_moves_is_queued_not_run_inline(
    nim_game, alice, django_capture_on_commit_callbacks
):
    # Celery is eager in tests: were a bot's move run inside the commit of the move
    # before it, a table of bots would play itself out inside the host's request.
    table = nim_table(alice, heap=21)
    Seat.objects.filter(table=table).update(user=None, bot_name="Alice's stand-in")
    services.seat_add_bot(table_id=table.pk, user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.state["heap"] == 21  # nobody moved during the request
    assert table.wake_at is not None  # the first computer player owes a move


# --- Timers ---------------------------------------------------------------------------------


def test_a_turn_timer_plays_the_games_timeout_at_its_deadline(nim_game, alice, bob):
    table = nim_table(alice, heap=10, turn_timer_seconds=60)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert table.deadline_at == table.wake_at
    left = (table.deadline_at - timezone.now()).total_seconds()
    assert 55 < left <= 60

    assert services.tables_wake_due() == 0  # not yet

    Table.objects.filter(pk=table.pk).update(
        deadline_at=timezone.now() - timedelta(seconds=1),
        wake_at=timezone.now() - timedelta(seconds=1),
    )
    assert services.tables_wake_due() == 1
    table.refresh_from_db()
    assert table.state["heap"] == 9 and table.state["turn"] == 1  # alice's time ran out
    assert table.deadline_at > timezone.now()  # bob's clock runs now


def test_a_move_before_the_deadline_wins_over_the_timer(nim_game, alice, bob):
    table = nim_table(alice, heap=10, turn_timer_seconds=60)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    timed_version = table.version
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "take", "count": 2})
    Table.objects.filter(pk=table.pk).update(wake_at=timezone.now(), deadline_at=timezone.now())

    assert services.table_wake(table_id=table.pk, version=timed_version) is None
    table.refresh_from_db()
    assert table.state["heap"] == 8


def test_a_case_game_table_times_out_a_turn(started):
    Table.objects.filter(pk=started.pk).update(turn_timer_seconds=30)
    table = Table.objects.get(pk=started.pk)
    services.game_apply_action(table_id=table.pk, player=0, action={"type": "carriage_stop"})
    table.refresh_from_db()
    assert table.deadline_at is not None
    Table.objects.filter(pk=table.pk).update(wake_at=timezone.now(), deadline_at=timezone.now())

    assert services.tables_wake_due() == 1
    assert TableEvent.objects.filter(table=table, type="timeout").exists()


def test_it_refuses_a_turn_timer_out_of_range(nim_game, alice):
    with pytest.raises(services.TableError, match="between 10 seconds and 24 hours"):
        nim_table(alice, turn_timer_seconds=3)


# --- On the web and in the API ------------------------------------------------------------


def test_the_games_page_opens_a_table_of_a_card_game(nim_game, client, alice):
    client.force_login(alice)
    page = client.get(reverse("play:games")).text
    assert "Watson &amp; Holmes" in page and "Nim" in page
    response = client.post(
        reverse("play:game-table-create", args=["nim"]),
        {"nim-heap": "15", "nim-turn_timer_seconds": "60"},
    )
    table = Table.objects.get()
    assert response.url == reverse("play:table", args=[table.pk])
    assert (table.engine, table.options, table.turn_timer_seconds) == ("nim", {"heap": 15}, 60)
    lobby = client.get(response.url).text
    assert "Seat a computer player" in lobby and "Matches: 15" in lobby


def test_the_games_page_says_why_a_table_was_refused(nim_game, client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("play:game-table-create", args=["nim"]), {"nim-heap": "2"}, follow=True
    )
    assert "Matches: Ensure this value is greater than or equal to 4." in response.text
    assert not Table.objects.exists()


def test_the_api_creates_a_table_of_a_game_seats_a_bot_and_lists_games(nim_game, alice):
    api = APIClient()
    api.force_authenticate(alice)
    games = {game["name"]: game for game in api.get("/api/games/").json()}
    assert games["nim"]["options"][0] == {
        "name": "heap",
        "label": "Matches",
        "kind": "int",
        "default": 10,
        "choices": None,
        "minimum": 4,
        "maximum": 40,
    }
    assert games["watson_holmes"]["needs_case"] is True

    created = api.post("/api/tables/", {"game": "nim", "options": {"heap": 9}}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["engine"], body["title"], body["case"]) == ("nim", "Nim", None)
    seated = api.post(f"/api/tables/{body['table']}/bots/")
    assert seated.status_code == 201
    assert [seat["bot"] for seat in seated.json()["seats"]] == [False, True]

    refused = api.post("/api/tables/", {"game": "nim", "options": {"heap": 1}}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "Matches is between 4 and 40."


def test_the_schema_types_each_games_view_and_actions(client):
    schema = client.get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    view = components["WatsonHolmesView"]
    assert view["type"] == "object" and "players" in view["properties"]
    visit = components["WatsonHolmesVisitAction"]
    assert visit["properties"]["type"] == {"type": "string", "enum": ["visit"]}
    assert {"$ref": "#/components/schemas/WatsonHolmesView"} in components["TableView"][
        "properties"
    ]["game"]["oneOf"]


# --- play/ is game-neutral ------------------------------------------------------------------

GAME_WORDS = ("carriage", "221b", "baker street", "watson", "irene", "police", "holmes_check")


def test_no_module_of_play_names_a_games_own_concepts():
    play = Path(__file__).resolve().parents[2] / "play"
    found = []
    for path in sorted(play.rglob("*")):
        if path.suffix not in (".py", ".html", ".js") or "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8").lower()
        found += [f"{path.relative_to(play)}: {word}" for word in GAME_WORDS if word in text]
    assert found == []


# --- The note sheet -------------------------------------------------------------------------


def test_a_player_keeps_marks_on_the_games_note_sheet(nim_game, client, alice, bob):
    table = nim_table(alice)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    client.force_login(alice)
    url = reverse("play:table-notebook", args=[table.pk])

    saved = client.post(
        url, {"marks": '{"C": {"3": "no"}}'}, headers={"Accept": "application/json"}
    )
    assert saved.json() == {"saved": True}
    refused = client.post(url, {"marks": "[1, 2]"}, headers={"Accept": "application/json"})
    assert refused.status_code == 409 and refused.json()["error"] == "The marks could not be read."

    api = APIClient()
    api.force_authenticate(bob)
    assert api.get(f"/api/tables/{table.pk}/notebook/").json() == {"text": "", "marks": {}}
    api.force_authenticate(alice)
    mine = api.get(f"/api/tables/{table.pk}/notebook/").json()
    assert mine == {"text": "", "marks": {"C": {"3": "no"}}}
    put = api.put(f"/api/tables/{table.pk}/notebook/", {"text": "hm"}, format="json")
    assert put.json() == {"text": "hm", "marks": {"C": {"3": "no"}}}  # marks kept


def test_the_page_counts_down_to_the_deadline(nim_game, client, alice, bob):
    table = nim_table(alice, heap=10, turn_timer_seconds=60)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    client.force_login(alice)

    page = client.get(reverse("play:table", args=[table.pk])).text

    assert 'id="turn-timer"' in page and "Time to move:" in page
    table.refresh_from_db()
    assert f'data-deadline="{table.deadline_at.isoformat()}"' in page


def test_marks_holding_a_nul_character_are_refused_not_a_server_error(nim_game, alice, bob):
    table = nim_table(alice)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    api = APIClient()
    api.force_authenticate(alice)

    for marks in ({"C": "a\x00b"}, {"a\x00": 1}):
        response = api.put(f"/api/tables/{table.pk}/notebook/", {"marks": marks}, format="json")
        assert response.status_code == 400, response.content
    assert api.get(f"/api/tables/{table.pk}/notebook/").json()["marks"] == {}
