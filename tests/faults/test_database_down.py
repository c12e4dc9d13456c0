"""The database cannot be reached: pages answer a clear 503 page, the API a 503 in its one
error shape, never a 500; and a write that fails half-way leaves nothing half-written."""

import pytest
from django.db import OperationalError, connection

from holmes_site.middleware import DATABASE_DOWN_MESSAGE
from holmes_site.models import OutboxMessage
from play import services
from play.models import ActionRequest, Table, TableEvent
from tests.ports import free_port


@pytest.fixture
def server_without_database(start_server):
    # PostgreSQL on a port where nothing listens: every query fails to connect.
    return start_server(DATABASE_URL=f"postgres://postgres@127.0.0.1:{free_port()}/holmes")


def test_it_answers_pages_with_a_503_page_when_the_database_is_down(server_without_database):
    # The catalogue reads the cases; a player's page reads their session first.
    for path, cookie in [("/", ""), ("/tables/", "sessionid=a-session-of-alice")]:
        status, headers, page = server_without_database.request("GET", path, Cookie=cookie)
        assert status == 503, (path, page)
        assert headers["Content-Type"].startswith("text/html")
        assert "The casebook is closed for a moment" in page
        assert headers["Retry-After"]
    assert "Traceback" not in page


def test_it_answers_the_api_with_a_503_error_when_the_database_is_down(server_without_database):
    requests = [
        ("GET", "/api/cases/", None),
        ("GET", "/api/tables/1/", None),
        ("POST", "/api/tables/1/actions/", {"action": {"type": "rest"}, "expected_version": 1}),
        ("POST", "/api/auth/token/", {"username": "alice", "password": "alice-password"}),
    ]  # fmt: skip
    for method, path, body in requests:
        status, headers, answer = server_without_database.request(
            method, path, body, token="0123456789abcdef"
        )
        assert status == 503, (path, answer)
        assert answer == {
            "error": {
                "code": "database_unavailable",
                "message": DATABASE_DOWN_MESSAGE,
                "details": {},
            }
        }
        assert headers["X-Request-ID"]
    assert "database cannot be reached" in server_without_database.log()


@pytest.fixture
def celery_with_a_broker():
    """Celery as when scaled, not eager: a move's side effects are written to the outbox
    in its transaction. Nothing reaches a broker: the moves here either fail or run in the
    test's transaction, which never commits."""
    from celery import current_app

    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    yield
    current_app.conf.task_always_eager = eager


def test_it_writes_nothing_of_a_move_whose_write_fails_half_way(started, celery_with_a_broker):
    """The move's state, version, events, idempotency record and outbox rows are one
    transaction: the database failing at the events (as a dropped connection would) leaves
    the table as it was."""
    before = Table.objects.get(pk=started.pk)
    turn = before.state["turn"]
    outbox_before = OutboxMessage.objects.count()

    def fail_at_the_events(execute, sql, params, many, context):
        # On SQLite after the table's UPDATE; on PostgreSQL the one statement of all three
        # writes (play/move_sql.py, move_store).
        if "INSERT INTO play_tableevent" in " ".join(sql.split()):
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    def rest():
        return services.game_apply_action(
            table_id=started.pk,
            player=turn,
            action={"type": "carriage_stop"},
            expected_version=before.version,
            idempotency_key="half-way",
        )

    with connection.execute_wrapper(fail_at_the_events), pytest.raises(OperationalError):
        rest()

    after = Table.objects.get(pk=started.pk)
    assert (after.version, after.state, after.event_count) == (
        before.version,
        before.state,
        before.event_count,
    )
    assert TableEvent.objects.filter(table=started).count() == before.event_count
    assert not ActionRequest.objects.filter(table=started).exists()
    assert OutboxMessage.objects.count() == outbox_before

    # The same move, not failing, does write an outbox row (the next player's "your
    # turn"): the count above stayed put because the row was rolled back.
    rest()
    assert OutboxMessage.objects.count() == outbox_before + 1
