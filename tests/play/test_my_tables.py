"""My tables: whose turn it is and the round, the tables waiting on you first, read from
each table's summary in one query (never from the states)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from play import selectors, services
from play.models import Table


def my_tables_page(client, user) -> str:
    client.force_login(user)
    response = client.get("/tables/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def newer_lobbies(started, alice, bob, charlie):
    # Opened after the running game, one per player: newest first would list it above.
    return {
        user.pk: services.table_create(host=user, game="sherlock_mycroft")
        for user in (alice, bob, charlie)
    }


def test_the_table_waiting_on_you_comes_first_and_says_so(
    client, started, newer_lobbies, alice, bob, charlie
):
    users = [alice, bob, charlie]
    turn = started.state["turn"]
    mover = users[turn]
    newer_lobby = newer_lobbies[mover.pk]
    listed = selectors.my_tables(user=mover)
    assert [line.table.pk for line in listed] == [started.pk, newer_lobby.pk]
    assert listed[0].your_turn and listed[0].round == 1
    page = my_tables_page(client, mover)
    assert "Your turn" in page and "Round 1" in page
    assert page.index("Your turn") < page.index(reverse("play:table", args=[newer_lobby.pk]))

    other = users[(turn + 1) % 3]
    newer_lobby = newer_lobbies[other.pk]
    listed = selectors.my_tables(user=other)
    assert [line.table.pk for line in listed] == [newer_lobby.pk, started.pk]
    page = my_tables_page(client, other)
    assert "Your turn" not in page
    assert f"Waiting for {mover.public_name}" in page


def test_a_move_moves_the_turn_on_my_tables(client, started, alice, bob, charlie):
    users = [alice, bob, charlie]
    turn = started.state["turn"]
    services.game_apply_action(table_id=started.pk, player=turn, action={"type": "carriage_stop"})
    table = Table.objects.get(pk=started.pk)
    new_turn = table.state["turn"]
    assert table.summary["waiting_for"] == [new_turn] != [turn]
    assert not selectors.my_tables(user=users[turn])[0].your_turn
    assert selectors.my_tables(user=users[new_turn])[0].your_turn


def test_my_tables_is_one_query_of_tables_whatever_their_number(
    started, newer_lobbies, alice, bob, charlie
):
    for _ in range(3):
        services.table_create(host=alice, game="sherlock_mycroft")
    with CaptureQueriesContext(connection) as context:
        listed = selectors.my_tables(user=alice)
        [line.waiting_sentence for line in listed]
    assert len(listed) == 5
    assert len(context) == 1
    assert '"state"' not in context[0]["sql"] and "fixed_state" not in context[0]["sql"]
