"""A move's push builds the views of the players whose sockets asked for them from the
seats its locking read found (play/move_sql.py): no statement after commit, and each view
the one its own seat's player would fetch."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from play import live, presence, services
from play.models import Seat, Table
from play.pushed_views import present_players_views


def captured_push(monkeypatch) -> dict:
    """What the move hands to `push_table_version` once it commits."""
    pushed = {}
    monkeypatch.setattr(live, "push_table_version", lambda **push: pushed.update(push))
    return pushed


def views_sockets(table, numbers) -> None:
    for seat in Seat.objects.filter(table=table, number__in=numbers):
        presence.socket_open(table_id=table.pk, seat_id=seat.pk, wants_views=True)


def test_a_socket_move_s_push_needs_no_statement(
    started, alice, bob, charlie, monkeypatch, django_capture_on_commit_callbacks
):
    table = Table.objects.get(pk=started.pk)
    mover = table.state["turn"]
    players = {seat.number: seat.user for seat in Seat.objects.filter(table=table)}
    views_sockets(table, range(3))
    pushed = captured_push(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_player_action(
            table_id=table.pk,
            user=players[mover],
            action={"type": "carriage_stop"},
            expected_version=table.version,
        )
    with CaptureQueriesContext(connection) as queries:
        views = pushed["views"]()

    assert len(queries) == 0
    others = [number for number in range(3) if number != mover]
    assert set(views) == {players[number].pk for number in others}
    # Each the view its own player would be sent with the seats read after the move.
    moved = Table.objects.get(pk=table.pk)
    assert views == present_players_views(moved, frozenset(others), mover)
    for number in others:
        assert views[players[number].pk]["you"]["seat"] == number


def test_a_seat_move_s_push_needs_no_statement(
    started, alice, bob, charlie, monkeypatch, django_capture_on_commit_callbacks
):
    table = Table.objects.get(pk=started.pk)
    mover = table.state["turn"]
    user = Seat.objects.get(table=table, number=mover).user
    views_sockets(table, range(3))
    pushed = captured_push(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_seat_action(
            table_id=table.pk,
            user=user,
            number=mover,
            action={"type": "carriage_stop"},
            expected_version=table.version,
        )
    with CaptureQueriesContext(connection) as queries:
        views = pushed["views"]()

    assert len(queries) == 0
    assert len(views) == 2 and all(view["you"]["seat"] != mover for view in views.values())
