"""GET /api/tables/ says whose turn it is and the round, as the My tables page does (one
selector serves both), the tables waiting on you first; it tells only public facts."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from play import selectors, services
from play.models import Table

LISTED_FIELDS = {
    "id",
    "game",
    "case",
    "title",
    "status",
    "version",
    "host",
    "created_at",
    "your_seat",
    "your_turn",
    "waiting_for",
    "waiting_names",
    "round",
}


def my_tables(user) -> list[dict]:
    api = APIClient()
    api.force_authenticate(user)
    response = api.get("/api/tables/")
    assert response.status_code == 200
    return response.json()


def test_your_turn_comes_first_with_the_round(started, alice, bob, charlie):
    users = [alice, bob, charlie]
    turn = started.state["turn"]
    mover = users[turn]
    newer_lobby = services.table_create(host=mover, game="sherlock_mycroft")

    listed = my_tables(mover)

    assert [line["id"] for line in listed] == [started.pk, newer_lobby.pk]
    assert set(listed[0]) == LISTED_FIELDS
    assert listed[0]["your_seat"] == turn
    assert listed[0]["your_turn"] is True
    assert listed[0]["waiting_for"] == [turn]
    assert listed[0]["waiting_names"] == []
    assert listed[0]["round"] == 1
    assert listed[0]["status"] == "playing" and listed[0]["case"] == started.case_version.case.slug
    # The lobby waits for nobody's move and counts no round.
    lobby = listed[1]
    assert lobby["your_turn"] is False and lobby["waiting_for"] == [] and lobby["round"] is None


def test_their_turn_names_who_the_game_waits_for(started, alice, bob, charlie):
    users = [alice, bob, charlie]
    turn = started.state["turn"]
    other = users[(turn + 1) % 3]

    [line] = my_tables(other)

    assert line["your_seat"] == (turn + 1) % 3
    assert line["your_turn"] is False
    assert line["waiting_for"] == [turn]
    assert line["waiting_names"] == [users[turn].public_name]
    assert line["round"] == 1


def test_the_api_and_the_page_read_the_same_lines(started, alice):
    page = selectors.my_tables(user=alice)
    api = my_tables(alice)
    assert [line.table.pk for line in page] == [line["id"] for line in api]
    assert [line.your_turn for line in page] == [line["your_turn"] for line in api]
    assert [line.waiting_names for line in page] == [line["waiting_names"] for line in api]


def test_a_card_game_in_play_shows_no_hand_or_hidden_card(alice, bob):
    table = services.table_create(host=alice, game="holmes_elementary")
    Table.objects.filter(pk=table.pk).update(seed=1887)
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)
    private = {card for player in table.state["players"] for card in player["hand"]}
    assert private  # the hands were dealt

    for user in (alice, bob):
        [line] = my_tables(user)
        assert set(line) == LISTED_FIELDS
        text = json.dumps(line)
        assert not any(card in text for card in private), text
        assert line["round"] == 1


def test_the_list_costs_the_same_queries_whatever_the_number_of_tables(started, alice):
    api = APIClient()
    api.force_authenticate(alice)
    with CaptureQueriesContext(connection) as one:
        assert api.get("/api/tables/").status_code == 200
    for _ in range(3):
        services.table_create(host=alice, game="sherlock_mycroft")
    with CaptureQueriesContext(connection) as four:
        assert len(api.get("/api/tables/").json()) == 4
    assert len(four) == len(one)
    assert not any('"state"' in query["sql"] for query in four.captured_queries)


@pytest.mark.django_db
def test_the_schema_documents_the_new_fields():
    response = APIClient().get("/api/schema/", {"format": "json"})
    listed = json.loads(response.content)["components"]["schemas"]["TableSummaryOutput"]
    assert set(listed["properties"]) == LISTED_FIELDS
    assert listed["properties"]["round"]["nullable"] is True
