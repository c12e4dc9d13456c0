"""Reading a table and making a move cost the same number of queries however long the
game's history and however many players sit at the table."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from play import services
from play.models import Seat, Table, TableStatus
from tests.play.helpers import ApiPlayer, table_url

SHORT, LONG = 0, 8


@pytest.fixture
def prepare(tutorial, seven, django_capture_on_commit_callbacks):
    """A table of `players` seats after `rounds` rounds in which everyone rested at the
    Carriage Stop and wrote a note, all side effects (notifications, e-mail) run."""

    def prepare(players: int, rounds: int):
        users = seven[:players]
        # One running table of a case per person (play/services/seats.py): the tables prepared
        # before, measured already, are put out of the way.
        Table.objects.filter(status=TableStatus.PLAYING).update(status=TableStatus.FINISHED)
        with django_capture_on_commit_callbacks(execute=True):
            table = services.table_create(host=users[0], case_version=tutorial)
            for user in users[1:]:
                services.table_join(invite_code=table.invite_code, user=user)
            table = services.table_start(table_id=table.pk, user=users[0])
        for _ in range(rounds):
            for _ in range(players):
                table.refresh_from_db()
                turn = table.state["turn"]
                with django_capture_on_commit_callbacks(execute=True):
                    services.game_apply_action(
                        table_id=table.pk, player=turn, action={"type": "carriage_stop"}
                    )
                services.notebook_write(table_id=table.pk, user=users[turn], text="t" * 500)
        table.refresh_from_db()
        assert table.state["phase"] == "visiting" and table.state["round"] == rounds + 1
        # A player away is told of their turn once (play/presence.py): forget who was, so
        # that the move counted below notifies the next player after any history.
        Seat.objects.filter(table=table).update(your_turn_told_at=None)
        on_turn = ApiPlayer(users[table.state["turn"]], table.state["turn"])
        # Warm up the session, so the counts below are those of every later request.
        assert on_turn.get(table_url(table.pk)).status_code == 200
        return table, on_turn

    return prepare


def count_queries(call) -> int:
    with CaptureQueriesContext(connection) as context:
        call()
    return len(context)


def view(table, player):
    response = player.get(table_url(table.pk))
    assert response.status_code == 200
    return response


def rest(table, player, after_commit):
    # Side effects run inside the count: without a broker, Celery is eager and the
    # after-commit work (notifying whose turn it is, e-mail, the push) is the request's.
    with after_commit(execute=True):
        response = player.act(table.pk, {"type": "carriage_stop"}, table.version, "k1")
    assert response.status_code == 200, response.content
    return response


def test_it_reads_a_table_in_a_constant_number_of_queries(prepare, django_assert_num_queries):
    baseline_table, baseline_player = prepare(2, SHORT)
    baseline = count_queries(lambda: view(baseline_table, baseline_player))
    # The session, its user, and the seat with its table and notebook: the case and the
    # seat names come from Table.summary.
    assert baseline <= 3
    for players, rounds in [(2, LONG), (7, SHORT), (7, LONG)]:
        table, player = prepare(players, rounds)
        assert table.event_count > 0
        with django_assert_num_queries(baseline):
            view(table, player)


# What a move costs, side effects included, by road (play/moves.py). The API's: the
# session and its user, the savepoint, one query for the seat, the table's lock, who is at
# the table and the key's first outcome, the table's row and the events (one statement on
# PostgreSQL, play/move_sql.py), the your-turn notice claimed, the release; then, after
# commit, the next player told of their turn (6: Celery runs eagerly here). The page's
# reads the member first (the seat, with the table, its case and host, and the notebook),
# then locks by that seat; the live region it answers with reads the game's log and, for
# the host, the seats held on their device and the seats whose players are away (Remove).
TOLD_QUERIES = 6
PAGE_QUERIES_MORE = 2
HOST_PAGE_QUERIES = 2


def api_move_queries() -> int:
    writes = 1 if connection.vendor == "postgresql" else 2
    return 6 + writes + TOLD_QUERIES


def page_rest(table, player, after_commit):
    """The same move as `rest`, from the table page's form, as htmx sends it."""
    form = {"action": '{"type": "carriage_stop"}', "expected_version": table.version, "key": "k1"}
    url = reverse("play:table-act", args=[table.pk])
    with after_commit(execute=True):
        response = player.client.post(url, form, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content
    assert 'role="alert"' not in response.text, response.text
    return response


def test_it_applies_a_move_in_a_constant_number_of_queries(
    prepare, django_assert_num_queries, django_capture_on_commit_callbacks
):
    for players, rounds in [(2, SHORT), (2, LONG), (7, SHORT), (7, LONG)]:
        table, player = prepare(players, rounds)
        with django_assert_num_queries(api_move_queries()):
            rest(table, player, django_capture_on_commit_callbacks)


def test_it_applies_a_page_move_in_a_constant_number_of_queries(
    prepare, django_assert_num_queries, django_capture_on_commit_callbacks
):
    for players, rounds in [(2, SHORT), (2, LONG), (7, SHORT), (7, LONG)]:
        table, player = prepare(players, rounds)
        host = table.host_id == player.user.pk
        page_move_queries = api_move_queries() + PAGE_QUERIES_MORE + host * HOST_PAGE_QUERIES
        with django_assert_num_queries(page_move_queries):
            page_rest(table, player, django_capture_on_commit_callbacks)


def test_it_reads_the_history_in_a_constant_number_of_queries(prepare, django_assert_num_queries):
    short_table, short_player = prepare(2, SHORT)
    baseline = count_queries(lambda: short_player.get(table_url(short_table.pk, "events/")))
    table, player = prepare(7, LONG)
    with django_assert_num_queries(baseline):
        response = player.get(table_url(table.pk, "events/"))
    assert len(response.json()) > 100


def test_it_lists_tables_in_one_query_without_reading_their_states(prepare):
    table, player = prepare(3, SHORT)
    for _ in range(3):  # more tables for the same player
        prepare(3, SHORT)
    with CaptureQueriesContext(connection) as context:
        response = player.get("/api/tables/")
    assert response.status_code == 200 and len(response.json()) == 4
    listing = [query["sql"] for query in context if "play_table" in query["sql"]]
    assert len(listing) == 1
    assert '"state"' not in listing[0] and "fixed_state" not in listing[0]
