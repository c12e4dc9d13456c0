"""Pass and play (play/local_players.py, play/views_local.py): the host seats players who
share their device; the page shows one seat at a time, confirmed on a pass screen that
holds nothing private, and moves and notes go to that seat alone."""

import json
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import GAMES, get_rules
from play import local_players, services
from play.device import PASS_FIRST
from play.models import Seat, Table, TableStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, table: Table, *args) -> str:
    return reverse(f"play:{name}", args=[table.pk, *args])


@pytest.fixture
def lobby(alice) -> Table:
    table = services.table_create(host=alice, game="sherlock_mycroft", options={})
    Table.objects.filter(pk=table.pk).update(seed=1887)
    return table


def add_local(client, table, name: str):
    return client.post(url("local-seat-add", table), {"name": name}, HTTP_HX_REQUEST="true")


LOCAL_NAMES = ["Mara", "Nell", "Owen"]
CARD_GAMES = sorted(name for name, game in GAMES.items() if not game.needs_case)


def started(alice, table) -> Table:
    """The table started with as few local players beside the host as its game allows."""
    players = max(2, GAMES[table.engine].min_players)
    for name in LOCAL_NAMES[: players - 1]:
        local_players.local_seat_add(table_id=table.pk, user=alice, name=name)
    return services.table_start(table_id=table.pk, user=alice)


def card_table(alice, game: str) -> Table:
    table = services.table_create(host=alice, game=game, options={})
    Table.objects.filter(pk=table.pk).update(seed=221)
    return started(alice, table)


def page(client, table) -> str:
    response = client.get(url("table", table))
    assert response.status_code == 200
    return response.text


def private(table: Table) -> dict[int, set[str]]:
    table.refresh_from_db()
    game = GAMES[table.engine]
    return {
        seat: game.private_items(table.state, seat) for seat in range(len(table.summary["seats"]))
    }


def waiting(table: Table) -> list[int]:
    table.refresh_from_db()
    return list(get_rules(table.engine).waiting_for(table.state))


def confirm(client, table, number: int):
    return client.post(url("device-confirm", table), {"seat": number})


def act_first_legal(client, table, number: int, rng: random.Random | None = None):
    """Post one of the seat's legal moves: the first, or one `rng` picks."""
    table.refresh_from_db()
    legal = get_rules(table.engine).legal_actions(table.state, number)
    action = rng.choice(legal) if rng else legal[0]
    data = {"action": json.dumps(action), "expected_version": table.version}
    return client.post(url("table-act", table), data, HTTP_HX_REQUEST="true")


# --- The lobby -----------------------------------------------------------------------


def test_the_host_seats_a_player_on_their_device_and_may_remove_them(alice, lobby):
    client = client_for(alice)
    response = add_local(client, lobby, "  Mara  ")
    assert response.status_code == 200
    seat = Seat.objects.get(table=lobby, number=1)
    assert (seat.local_name, seat.held_by, seat.user, seat.is_bot) == ("Mara", alice, None, False)
    assert "on the host’s device" in response.text
    # Sherlock & Mycroft seats two: the lobby is full, and offers no third seat.
    assert 'id="add-local"' not in response.text
    assert "This table is full" in add_local(client, lobby, "Nell").text
    client.post(url("local-seat-remove", lobby, 1), HTTP_HX_REQUEST="true")
    assert not Seat.objects.filter(table=lobby, number=1).exists()


@pytest.mark.parametrize(
    ("name", "sentence"),
    [("", "Give the player"), ("alice", "already called Alice"), ("x" * 41, "at most 40")],
)
def test_a_local_player_needs_a_name_of_their_own(alice, lobby, name, sentence):
    response = add_local(client_for(alice), lobby, name)
    assert sentence in response.text
    assert Seat.objects.filter(table=lobby).count() == 1


@pytest.mark.parametrize(
    "name",
    ["Ma\x00ra", "Ma\nra", "Mara\u202e", "\u200b", "\u200d\ufeff", "Ma\u2028ra", "Ma\x7fra"],
    ids=["nul", "line break", "direction override", "zero-width space", "invisible only",
         "line separator", "delete"],
)  # fmt: skip
def test_it_refuses_a_local_name_that_breaks_the_display_name_rules(alice, lobby, name):
    response = add_local(client_for(alice), lobby, name)

    assert response.status_code == 200
    assert "no control characters, no invisible ones" in response.text
    assert Seat.objects.filter(table=lobby).count() == 1


def test_it_refuses_such_a_name_in_the_service_too(alice, lobby):
    with pytest.raises(services.TableError) as refusal:
        local_players.local_seat_add(table_id=lobby.pk, user=alice, name="Mara\x00")

    assert refusal.value.code == "name_characters"


def test_only_the_host_seats_local_players_and_only_in_the_lobby(alice, bob, lobby):
    services.table_join(invite_code=lobby.invite_code, user=bob)
    assert add_local(client_for(bob), lobby, "Mara").status_code == 403
    lobby = services.table_start(table_id=lobby.pk, user=alice)
    assert "in the lobby" in add_local(client_for(alice), lobby, "Mara").text


def test_a_local_player_counts_toward_the_players_and_moves_like_one(alice, lobby):
    table = started(alice, lobby)
    assert table.status == TableStatus.PLAYING
    names = [seat["name"] for seat in table.summary["seats"]]
    assert names == ["Alice", "Mara"]
    assert not any(seat["bot"] for seat in table.summary["seats"])
    assert table.wake_at is None  # nobody's computer plays Mara's seat


# --- The pass screen -----------------------------------------------------------------


def test_the_pass_screen_takes_no_move(alice, lobby):
    table = started(alice, lobby)
    client = client_for(alice)
    html = page(client, table)
    assert 'id="pass-screen"' in html and 'id="notebook' not in html
    first, before = waiting(table)[0], table.version
    assert f"Pass the device to {['Alice', 'Mara'][first]}" in html
    response = act_first_legal(client, table, first)
    assert escape(PASS_FIRST) in response.text and 'id="pass-screen"' in response.text
    table.refresh_from_db()
    assert table.version == before
    live = client.get(url("table-live", table)).text
    assert 'id="pass-screen"' in live


def assert_hides(html: str, secrets: dict[int, set[str]], *, but: int | None = None) -> int:
    """No seat's private items are in `html`, but `but`'s; how many were looked for."""
    looked_for = 0
    for seat, items in secrets.items():
        if seat != but:
            assert not any(item in html for item in items), seat
            looked_for += len(items)
    return looked_for


# How a seat's page shows a private item it holds: as itself, unless the game's note sheet
# lists every card of the deck by its id (so every page holds every id): there a card is
# looked for as it shows in a hand.
IN_A_HAND = 'id="hand-{}"'
SHOWN_AS = {"holmes_elementary": IN_A_HAND, "i_say_holmes": IN_A_HAND}
# Games whose first turns at this seed give a seat nothing private the others did not
# watch go in (Sherlock & Mycroft's own page test covers its later days).
QUIET_OPENINGS = {"sherlock_mycroft"}


def assert_seat_page_hides(html: str, game: str, secrets: dict[int, set[str]], seat: int) -> int:
    """`seat`'s page shows no other seat's private items; how many were looked for."""
    shown_as = SHOWN_AS.get(game, "{}")
    looked_for = 0
    for other, items in secrets.items():
        if other != seat:
            for item in items:
                assert shown_as.format(item.strip('"')) not in html, (other, item)
                looked_for += 1
    return looked_for


@pytest.mark.parametrize("game", CARD_GAMES)
def test_each_seat_sees_its_own_view_and_the_device_is_passed_between_turns(alice, game):
    """Every card game, the host and local players alone on one device: the pass screen
    and each seat's page searched for every seat's private items, turn after turn."""
    table = card_table(alice, game)
    client = client_for(alice)
    looked_for, hands_shown, rng = 0, 0, random.Random(221)
    for _turn in range(24):
        html = page(client, table)
        assert 'id="pass-screen"' in html
        looked_for += assert_hides(html, private(table))
        mover = waiting(table)[0]
        others = [n for n in range(len(table.summary["seats"])) if n not in waiting(table)]
        if others:  # only a seat the game waits for may take the device
            confirm(client, table, others[0])
            assert 'id="pass-screen"' in page(client, table)
        confirm(client, table, mover)
        html = page(client, table)
        assert 'id="pass-screen"' not in html and 'id="device-bar"' in html
        names = [seat["name"] for seat in table.summary["seats"]]
        assert f"This device shows <strong>{names[mover]}</strong>" in html
        looked_for += assert_seat_page_hides(html, game, private(table), mover)
        hands_shown += 'id="hand-' in html  # where the check above would find a card
        for _step in range(20):
            if mover not in waiting(table):
                break
            response = act_first_legal(client, table, mover, rng)
            assert 'class="refusal"' not in response.text
        table.refresh_from_db()
        if table.status != TableStatus.PLAYING:
            break
    assert looked_for > 0 or game in QUIET_OPENINGS
    assert hands_shown > 0 or SHOWN_AS.get(game) != IN_A_HAND


def test_hide_my_cards_returns_to_the_pass_screen(alice, lobby):
    table = started(alice, lobby)
    client = client_for(alice)
    confirm(client, table, waiting(table)[0])
    html = page(client, table)
    assert 'id="hide-seat"' in html
    # Leave the game would act on the account's own seat, whoever holds the device.
    assert 'id="leave-game"' not in html
    client.post(url("device-hide", table))
    assert 'id="pass-screen"' in page(client, table)


def test_nobody_else_confirms_a_seat_on_the_hosts_device(alice, bob, lobby):
    table = started(alice, lobby)
    assert client_for(bob).post(url("device-confirm", table), {"seat": 1}).status_code == 404
    client = client_for(alice)
    for junk in ("7", "x", ""):
        assert client.post(url("device-confirm", table), {"seat": junk}).status_code == 302
        assert 'id="pass-screen"' in page(client, table)


def test_notes_go_to_the_seat_the_device_shows(alice, lobby):
    table = started(alice, lobby)
    client = client_for(alice)
    notebook = url("table-notebook", table)
    accept = {"HTTP_ACCEPT": "application/json"}
    assert client.post(notebook, {"text": "nobody's"}, **accept).status_code == 409
    mover = waiting(table)[0]
    confirm(client, table, mover)
    assert client.post(notebook, {"text": "my own notes"}, **accept).json() == {"saved": True}
    texts = {s.number: s.notebook.text for s in Seat.objects.filter(table=table)}
    assert texts == {mover: "my own notes", 1 - mover: ""}


def test_a_person_joins_beside_a_local_player(alice, bob):
    table = services.table_create(host=alice, game="holmes_elementary", options={})
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Mara")
    seat = services.table_join(invite_code=table.invite_code, user=bob)
    assert seat.number == 2


def test_play_again_seats_the_players_on_the_device_again(alice, lobby):
    table = started(alice, lobby)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    rematch = services.table_rematch(table_id=table.pk, user=alice)
    seats = [(s.public_name, s.held_by_id) for s in rematch.seats.order_by("number")]
    assert seats == [("Alice", None), ("Mara", alice.pk)]


def test_a_finished_table_still_shows_one_seat_at_a_time(alice, lobby):
    table = started(alice, lobby)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    client = client_for(alice)
    html = page(client, table)
    # Nobody is waited for: whoever takes the device says who they are.
    assert 'id="confirm-seat-0"' in html and 'id="confirm-seat-1"' in html
    confirm(client, table, 1)
    assert "This device shows <strong>Mara</strong>" in page(client, table)


def test_a_local_seat_keeps_the_solution_while_its_holder_plays_the_case_elsewhere(
    alice, bob, tutorial
):
    from play import selectors

    done = services.table_create(host=alice, case_version=tutorial)
    local_players.local_seat_add(table_id=done.pk, user=alice, name="Mara")
    services.table_start(table_id=done.pk, user=alice)
    Table.objects.filter(pk=done.pk).update(status=TableStatus.FINISHED)
    mara = Seat.objects.select_related("table").get(table=done, held_by=alice)
    as_mara = selectors.Membership(table=mara.table, seat=mara, spectator=False)
    assert selectors._may_reveal_case(as_mara)
    # Alice sits down with Bob to play the case again: the device that holds Mara's seat
    # is hers, so Mara's seat no more shows the solution than Alice's own does.
    again = services.table_create(host=bob, case_version=tutorial)
    services.table_join(invite_code=again.invite_code, user=alice)
    services.table_start(table_id=again.pk, user=bob)

    assert not selectors._may_reveal_case(as_mara)


def test_a_device_whose_seat_still_plays_shows_no_solution_to_its_eliminated_local_seat(
    alice, bob, tutorial
):
    """Mara, on alice's device, is turned away at 221B while alice plays on at the same
    table: the device shows Mara neither the solution, nor her verdicts and their reasons,
    nor Bob's answer she would rule on; alice would read them all."""
    from games.base import SYSTEM
    from play.models import TableAttempt

    table = services.table_create(host=alice, case_version=tutorial)
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Mara")
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)

    def move(seat, action: dict) -> None:
        services.game_apply_action(table_id=table.pk, player=seat, action=action)
        table.refresh_from_db()

    places = {0: {"type": "visit", "location": 1, "carriages": 0}, 1: {"type": "baker_street"}}
    places[2] = {"type": "visit", "location": 2, "carriages": 0}
    while table.state["phase"] == "visiting":
        move(table.state["turn"], places[table.state["turn"]])
    # One answer right: the checker's reason for it starts "Correct:".
    answers = {"thief": "silas crane", "hiding_place": "Waterloo Bridge", "ticket": "771"}
    move(1, {"type": "answer", "answers": answers})
    move(0, {"type": "done_reading"})
    move(2, {"type": "done_reading"})
    for attempt in TableAttempt.objects.filter(table=table, attempt__judged_at__isnull=True):
        services.table_attempt_deliver_verdicts(table_attempt_id=attempt.pk)
    table.refresh_from_db()
    assert table.state["players"][1]["status"] == "eliminated"
    assert table.state["players"][0]["status"] == "playing"
    # Bob asks Sherlock to check an answer; the checker is unsure: Mara must rule.
    move(2, {"type": "holmes_check", "question": "thief", "answer": "BOB-CHECKS-crane"})
    check = table.state["requests"][-1]["id"]
    move(SYSTEM, {"type": "judged", "request": check, "verdicts": {"thief": "unsure"}})
    while table.state["turn"] == 0:  # the device may show Mara while it is Bob's turn
        move(0, {"type": "visit", "location": 3, "carriages": 0})

    client = client_for(alice)
    confirm(client, table, 1)
    for name in ("table", "table-live"):
        html = client.get(url(name, table)).text
        assert "This device shows <strong>Mara</strong>" in html
        assert "he was the thief" not in html, name  # the solution
        assert "<strong>Silas Crane</strong>" not in html
        assert "silas crane" not in html and "Correct:" not in html
        assert 'id="your-verdicts"' not in html
        assert "BOB-CHECKS-crane" not in html
        assert "stay closed on this device" in html  # the page says why
