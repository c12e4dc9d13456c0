"""A table stores its engine state in two columns: the fixed part (the case) once, when the
game starts, and the rest with every move. Python sees one whole state all the same."""

from importlib import import_module

from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from play import move_sql, services
from play.engines import get_engine
from play.models import ActionRequest, Table, TableEvent

SPLIT = ("play", "0004_table_fixed_state")
split_migration = import_module("play.migrations.0004_table_fixed_state")


def stored_columns(table_id: int) -> tuple[dict, dict]:
    return Table.objects.values_list("state", "fixed_state").get(pk=table_id)


def a_move(table: Table) -> tuple[int, dict]:
    player = table.state["turn"]
    return player, get_engine(table.engine).legal_actions(table.state, player)[0]


def test_it_stores_the_case_once_and_each_move_without_it(started):
    rest, fixed = stored_columns(started.pk)
    assert fixed == {"case": started.state["case"]} and fixed["case"]["locations"]
    assert "case" not in rest and rest["players"] == started.state["players"]

    player, action = a_move(started)
    services.game_apply_action(table_id=started.pk, player=player, action=action)

    rest_after, fixed_after = stored_columns(started.pk)
    assert fixed_after == fixed
    assert "case" not in rest_after and rest_after != rest


def test_it_loads_the_whole_state_however_the_table_is_read(started, bob):
    whole = started.state
    assert "case" in whole
    assert Table.objects.get(pk=started.pk).state == whole
    assert Table.objects.defer("state").get(pk=started.pk).state == whole
    assert Table.objects.defer("fixed_state").get(pk=started.pk).state == whole
    started.refresh_from_db(fields=["state"])
    assert started.state == whole
    with transaction.atomic():  # the move's own read
        seat = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
    assert seat.table.state == whole


def test_it_keeps_a_lobby_state_less(lobby):
    assert stored_columns(lobby.pk) == (None, None)
    assert Table.objects.get(pk=lobby.pk).state is None


def test_it_splits_the_states_of_existing_tables_and_joins_them_back(started):
    whole = started.state
    Table.objects.filter(pk=started.pk).update(state=whole, fixed_state=None)  # as before 0004

    apps = MigrationExecutor(connection).loader.project_state(SPLIT).apps  # as 0004 sees them
    split_migration.split_states(apps, connection.schema_editor())
    assert stored_columns(started.pk) == (
        {key: value for key, value in whole.items() if key != "case"},
        {"case": whole["case"]},
    )
    split_migration.join_states(apps, connection.schema_editor())
    assert stored_columns(started.pk) == (whole, None)
    assert Table.objects.get(pk=started.pk).state == whole


def test_it_reads_back_through_orjson_what_it_stored_and_json_can_query_it(lobby):
    payload = {"said": "“Elementary”\u2028", "cards": [3, 7], 7: None, "nested": {"x": 1.25}}
    event = TableEvent.objects.create(
        table=lobby, sequence=1, table_version=0, audience="all", type="note", payload=payload
    )
    read_back = TableEvent.objects.get(pk=event.pk).payload
    assert read_back == {
        "said": "“Elementary”\u2028",
        "cards": [3, 7],
        "7": None,
        "nested": {"x": 1.25},
    }
    assert TableEvent.objects.filter(payload__cards__1=7, payload__said=payload["said"]).exists()
    # The moves' own SQL writes through the same encoder.
    move_sql.action_request_insert(table_id=lobby.pk, key="k", outcome=payload)
    assert ActionRequest.objects.get(table=lobby, key="k").outcome == read_back
