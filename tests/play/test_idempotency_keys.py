"""Idempotency keys: whose they are, and how long they may be.

A person's key is stored under their seat and a computer player's under its own, so no
key a person sends can take the one a computer player will move with (a refused move
stored there would leave the computer unable ever to move). And a key is at most
MAX_IDEMPOTENCY_KEY_CHARACTERS long, in the body, the Idempotency-Key header, the page's
form and a socket's move alike: a longer one is refused, never cut short (two long keys
cut to the same start would answer a new move with an old one's replay).
"""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import get_rules
from play import leaving, services
from play.models import Table, TableEvent
from play.services import MAX_IDEMPOTENCY_KEY_CHARACTERS
from tests.play.test_api import on_turn, table_players  # noqa: F401
from tests.play.test_websocket import run, socket_for, socket_move

TOO_LONG = "k" * (MAX_IDEMPOTENCY_KEY_CHARACTERS + 1)
SAID = f"The idempotency key is too long: at most {MAX_IDEMPOTENCY_KEY_CHARACTERS} characters."


# --- A computer player's keys are its own ------------------------------------------------


@pytest.fixture
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def test_it_moves_the_computer_player_whatever_keys_the_one_who_left_stored(
    no_bot_pause, alice, bob
):
    table = services.table_create(host=alice, game="sherlock_mycroft")
    Table.objects.filter(pk=table.pk).update(seed=1887)
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)
    rules = get_rules(table.engine)
    while 1 not in rules.waiting_for(table.state):  # alice moves until bob's seat owes one
        action = rules.legal_actions(table.state, 0)[0]
        services.game_apply_action(table_id=table.pk, player=0, action=action)
        table.refresh_from_db()
    # Bob stores refused moves under the keys a computer in his seat would use next (his
    # leaving makes one version more), then leaves.
    api = APIClient()
    api.force_authenticate(bob)
    for version in range(table.version + 1, table.version + 4):
        for key in (f"bot-v{version}", f"v{version}"):
            body = {"action": {"type": "x"}, "expected_version": table.version}
            refused = api.post(
                f"/api/tables/{table.pk}/actions/", {**body, "idempotency_key": key}, format="json"
            )
            assert refused.status_code == 400, refused.content
    leaving.seat_leave(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert 1 in rules.waiting_for(table.state) and table.wake_at is not None

    # The sweep (as the task) wakes the table: the computer moves.
    assert services.tables_wake_due() == 1

    moved = Table.objects.get(pk=table.pk)
    assert moved.version == table.version + 1
    made = TableEvent.objects.filter(table=table, table_version=moved.version)
    assert made.exclude(request_key=None).get().request_key == f"bot1:v{table.version}"


# --- One length limit for every way a key comes in ---------------------------------------


def test_it_refuses_a_too_long_key_in_the_header_and_applies_nothing(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)
    url = f"/api/tables/{started.pk}/actions/"
    body = {"action": {"type": "carriage_stop"}, "expected_version": view["version"]}

    refused = player.post(url, body, **{"Idempotency-Key": TOO_LONG})

    assert refused.status_code == 400, refused.content
    assert refused.json()["error"] == {
        "code": "idempotency_key_too_long",
        "message": SAID,
        "details": {},
    }
    started.refresh_from_db()
    assert started.version == view["version"]


def test_it_takes_a_header_key_of_the_limit_and_keeps_it_whole(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)
    url = f"/api/tables/{started.pk}/actions/"
    key = "h" * MAX_IDEMPOTENCY_KEY_CHARACTERS
    body = {"action": {"type": "carriage_stop"}, "expected_version": view["version"]}

    moved = player.post(url, body, **{"Idempotency-Key": key})

    assert moved.status_code == 200, moved.content
    stored = TableEvent.objects.exclude(request_key=None).get(table=started)
    assert stored.request_key == f"seat{player.seat}:{key}"


def test_it_refuses_a_too_long_key_in_the_body(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)

    refused = player.act(started.pk, {"type": "carriage_stop"}, view["version"], key=TOO_LONG)

    assert refused.status_code == 400, refused.content
    assert refused.json()["error"]["message"] == f"idempotency_key: {SAID}"
    started.refresh_from_db()
    assert started.version == view["version"]


def test_it_refuses_a_too_long_key_from_the_page_with_a_sentence(
    started, alice, bob, charlie, client
):
    players = [alice, bob, charlie]
    mover = started.state["turn"]
    client.force_login(players[mover])
    data = {
        "action": json.dumps({"type": "carriage_stop"}),
        "expected_version": started.version,
        "key": TOO_LONG,
    }

    response = client.post(
        reverse("play:table-act", args=[started.pk]), data, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert f'<p class="refusal" role="alert" id="refusal">{SAID}</p>' in response.text
    assert Table.objects.get(pk=started.pk).version == started.version


@pytest.mark.django_db(transaction=True)
def test_it_refuses_a_too_long_key_over_the_socket(started, alice, bob, charlie):
    players = [alice, bob, charlie]
    mover = started.state["turn"]
    socket = socket_for(started.pk, players[mover])

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from()
        reply = await socket_move(
            socket,
            request="long",
            action={"type": "carriage_stop"},
            expected_version=started.version,
            idempotency_key=TOO_LONG,
        )
        await socket.disconnect()
        return reply

    reply = run(scenario)
    assert reply["type"] == "refused" and reply["request"] == "long"
    assert reply["error"]["message"] == f"idempotency_key: {SAID}"
    assert Table.objects.get(pk=started.pk).version == started.version
