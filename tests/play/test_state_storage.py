"""A table stores its engine state in two columns: the fixed part (the case) once, when the
game starts, and the rest with every move. Python sees one whole state all the same."""

from importlib import import_module

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from games import get_rules
from play import models, move_sql, services
from play.models import ActionRequest, Table, TableEvent, fixed_digest_for

SPLIT = ("play", "0004_table_fixed_state")
split_migration = import_module("play.migrations.0004_table_fixed_state")
NAMED = ("play", "0005_table_fixed_digest")
digest_migration = import_module("play.migrations.0005_table_fixed_digest")


def stored_columns(table_id: int) -> tuple[dict, dict]:
    return Table.objects.values_list("state", "fixed_state").get(pk=table_id)


def a_move(table: Table) -> tuple[int, dict]:
    player = table.state["turn"]
    return player, get_rules(table.engine).legal_actions(table.state, player)[0]


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
        seat, _, _, _ = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
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


def test_it_names_the_fixed_part_by_its_digest(started):
    row = Table.objects.get(pk=started.pk)
    assert row.fixed_digest == fixed_digest_for(row.fixed_state)
    assert len(row.fixed_digest) == 64
    assert fixed_digest_for(None) == "" and Table.objects.get(pk=started.pk).fixed_state


def reads(queries) -> list[str]:
    return [query["sql"] for query in queries if query["sql"].lstrip().startswith("SELECT")]


def test_it_moves_without_reading_the_fixed_part_it_has_read_before(started, bob):
    models._fixed_parts.clear()
    whole = Table.objects.get(pk=started.pk).state  # reads the column, keeps the part
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        seat, _, _, _ = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
    assert seat.table.state == whole
    assert len(reads(queries)) == 1 and "fixed_state" not in reads(queries)[0]

    models._fixed_parts.clear()  # another process, or a case it has not met
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        seat, _, _, _ = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
    assert seat.table.state == whole
    assert len(reads(queries)) == 2 and '"fixed_state"' in reads(queries)[1]


def test_it_keeps_one_copy_of_a_case_for_all_its_tables(started, tutorial, dave, erin):
    # Another group: one person plays a case at one running table at a time.
    other = services.table_create(host=dave, case_version=tutorial)
    services.table_join(invite_code=other.invite_code, user=erin)
    other = services.table_start(table_id=other.pk, user=dave)
    first, second = Table.objects.get(pk=started.pk), Table.objects.get(pk=other.pk)
    assert first.fixed_digest == second.fixed_digest
    assert first.state["case"] is second.state["case"]
    assert models._fixed_parts[first.fixed_digest] is first.fixed_state


def test_it_keeps_a_bounded_number_of_fixed_parts(monkeypatch):
    monkeypatch.setattr(models, "_fixed_parts", {})
    for number in range(models.FIXED_PARTS_KEPT + 5):
        models._remember_fixed_part(f"digest{number}", {"case": number})
    assert len(models._fixed_parts) == models.FIXED_PARTS_KEPT
    assert "digest0" not in models._fixed_parts  # the oldest went first
    assert models._fixed_parts[f"digest{models.FIXED_PARTS_KEPT + 4}"] == {
        "case": models.FIXED_PARTS_KEPT + 4
    }


def test_it_names_the_fixed_parts_of_tables_started_before_digests(started):
    Table.objects.filter(pk=started.pk).update(fixed_digest="")  # as before 0005
    apps = MigrationExecutor(connection).loader.project_state(NAMED).apps
    digest_migration.name_fixed_parts(apps, connection.schema_editor())
    row = Table.objects.get(pk=started.pk)
    assert row.fixed_digest == fixed_digest_for(row.fixed_state) != ""


def test_it_keeps_the_state_in_a_json_column_on_postgresql(started):
    if connection.vendor != "postgresql":
        pytest.skip("this run uses SQLite, which keeps JSON as text")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_name = 'play_table' AND column_name IN ('state', 'fixed_state') "
            "ORDER BY column_name"
        )
        assert cursor.fetchall() == [("jsonb",), ("json",)]  # fixed_state, state
    whole = Table.objects.get(pk=started.pk).state
    table = Table.objects.get(pk=started.pk)
    table.state = {**whole, "note": "Ünïcode ‘quotes’ and \u2028"}
    table.save(update_fields=["state"])
    assert Table.objects.get(pk=started.pk).state == table.state
