"""The move's statements written as SQL (play/move_sql.py) read and write exactly what the
ORM would: same values, same types, on SQLite and on PostgreSQL."""

import threading
import time

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from play import move_sql, presence, services
from play.models import ActionRequest, Notebook, Seat, Table, TableEvent, TableStatus


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_it_loads_the_seat_table_and_notebook_as_the_orm_does(started, bob):
    Notebook.objects.filter(seat__table=started, seat__user=bob).update(text="Ask the clerk.")
    with transaction.atomic():
        seat, _, _, _ = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
    expected = Seat.objects.select_related("table", "notebook").get(table=started, user=bob)
    assert fields_of(seat.table) == fields_of(expected.table)
    assert seat.table.started_at.tzinfo is not None and isinstance(seat.table.state, dict)
    assert (seat.pk, seat.table_id, seat.user_id, seat.number, seat.colour) == (
        expected.pk,
        expected.table_id,
        expected.user_id,
        expected.number,
        expected.colour,
    )
    assert seat.notebook.pk == expected.notebook.pk
    assert seat.notebook.text == "Ask the clerk."


def test_the_api_s_move_leaves_out_what_neither_the_move_nor_its_answer_reads(started, bob):
    with transaction.atomic():
        seat, _, _, _ = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
        table, _, _, _ = move_sql.table_locking_for_seat(
            table_id=started.pk, number=seat.number, user_id=bob.pk
        )
    left_out = {"options", "seed", "watching_allowed", "created_at", "started_at", "finished_at"}
    # (The state's fixed part comes from the process's copy, when it holds one.)
    assert seat.table.get_deferred_fields() - {"fixed_state"} == left_out
    # The page's move shows the table as its lock read it: every column but the fixed part.
    assert table.get_deferred_fields() - {"fixed_state"} == set()
    # A column left out is read when asked for, as a deferred field is.
    with CaptureQueriesContext(connection) as statements:
        assert seat.table.options == Table.objects.get(pk=started.pk).options
    assert len(statements) == 2


def test_it_finds_no_seat_for_a_stranger_or_at_another_table(started, bob, dave, tutorial):
    daves = services.table_create(host=dave, case_version=tutorial)
    with transaction.atomic():
        assert move_sql.seat_locking_table(table_id=started.pk, user_id=dave.pk) is None
        assert move_sql.seat_locking_table(table_id=daves.pk, user_id=bob.pk) is None
        assert move_sql.seat_locking_table(table_id=daves.pk + 999, user_id=dave.pk) is None


def test_it_locks_the_table_for_a_seat_its_user_holds_or_holds_for_another(
    started, alice, bob, dave
):
    Seat.objects.filter(table=started, user=bob).update(user=None, held_by=alice, local_name="Bo")
    with transaction.atomic():
        table, presence, _, _ = move_sql.table_locking_for_seat(
            table_id=started.pk, number=1, user_id=alice.pk
        )
        assert fields_of(table) == fields_of(Table.objects.get(pk=started.pk))
        assert presence.present == frozenset()
        assert move_sql.table_locking_for_seat(table_id=started.pk, number=0, user_id=alice.pk)
        # Nobody else's seat, nor a seat of another table, nor one that is not there.
        for number, user in ((1, bob), (0, dave), (2, alice), (9, alice)):
            found = move_sql.table_locking_for_seat(
                table_id=started.pk, number=number, user_id=user.pk
            )
            assert found is None, (number, user)


def test_it_leaves_the_notebook_unset_for_a_seat_without_one(lobby, charlie):
    # Notebooks are made when the game starts: a lobby's seats have none yet.
    with transaction.atomic():
        seat, _, _, _ = move_sql.seat_locking_table(table_id=lobby.pk, user_id=charlie.pk)
    assert seat.number == 2
    assert not Notebook.objects.filter(seat=seat).exists()


def test_it_updates_the_table_as_save_with_update_fields_would(started):
    table = Table.objects.get(pk=started.pk)
    table.state = {**table.state, "round": 7, "note": "Ünïcode ‘quotes’"}
    table.version += 1
    table.event_count += 2
    table.status = TableStatus.FINISHED
    table.finished_at = timezone.now()
    move_sql.table_update(table, ["state", "version", "event_count", "status", "finished_at"])
    stored = Table.objects.get(pk=started.pk)
    assert fields_of(stored) == fields_of(table)


def test_it_inserts_events_in_order_with_their_audience_and_payload(started):
    first = started.event_count + 1
    before = timezone.now()
    move_sql.events_insert(
        [
            TableEvent(
                table_id=started.pk,
                sequence=first,
                table_version=9,
                audience="all",
                type="visited",
                payload={"player": 1, "location": 12, "names": ["Ådne", "O'Hara"]},
            ),
            TableEvent(
                table_id=started.pk,
                sequence=first + 1,
                table_version=9,
                audience=",1,",
                type="card_read",
                payload={},
            ),
        ]
    )
    stored = list(TableEvent.objects.filter(table=started, sequence__gte=first))
    assert [(e.sequence, e.table_version, e.audience, e.type) for e in stored] == [
        (first, 9, "all", "visited"),
        (first + 1, 9, ",1,", "card_read"),
    ]
    assert stored[0].payload == {"player": 1, "location": 12, "names": ["Ådne", "O'Hara"]}
    assert stored[1].payload == {}
    assert all(before <= event.created_at <= timezone.now() for event in stored)


def test_it_keeps_the_first_outcome_of_an_idempotency_key(started):
    move_sql.action_request_insert(
        table_id=started.pk, key="seat0:k1", outcome={"applied": True, "version": 3}
    )
    move_sql.action_request_insert(
        table_id=started.pk, key="seat0:k1", outcome={"applied": False, "version": 4}
    )
    move_sql.action_request_insert(
        table_id=started.pk, key="seat1:k1", outcome={"applied": False, "version": 3}
    )
    stored = dict(ActionRequest.objects.filter(table=started).values_list("key", "outcome"))
    assert stored == {
        "seat0:k1": {"applied": True, "version": 3},
        "seat1:k1": {"applied": False, "version": 3},
    }


def test_it_stores_a_move_s_row_events_and_key_together(started):
    table = Table.objects.get(pk=started.pk)
    move_sql.action_request_insert(table_id=table.pk, key="seat0:taken", outcome={"first": 1})
    table.state = {**table.state, "round": 3}
    table.version += 1
    event = TableEvent(
        table_id=table.pk,
        sequence=table.event_count + 1,
        table_version=table.version,
        audience="all",
        type="visited",
        payload={"player": 0},
        request_key="seat0:k3",
    )
    table.event_count += 1
    fields = ["state", "version", "event_count"]

    with CaptureQueriesContext(connection) as statements:
        move_sql.move_store(table, fields, [event], ("seat0:k2", {"applied": True}))
    # One round trip on PostgreSQL; SQLite runs in this process.
    assert len(statements) == (1 if connection.vendor == "postgresql" else 3)
    move_sql.move_store(table, fields, [], ("seat0:taken", {"second": 2}))  # a key's first stays
    move_sql.move_store(table, fields, [], None)

    assert fields_of(Table.objects.get(pk=table.pk)) == fields_of(table)
    stored = TableEvent.objects.get(table=table, sequence=event.sequence)
    assert (stored.table_version, stored.type, stored.payload, stored.request_key) == (
        table.version,
        "visited",
        {"player": 0},
        "seat0:k3",
    )
    requests = dict(ActionRequest.objects.filter(table=table).values_list("key", "outcome"))
    assert requests == {"seat0:taken": {"first": 1}, "seat0:k2": {"applied": True}}


def test_a_move_s_statement_is_the_same_whatever_its_number_of_events(started):
    table = Table.objects.get(pk=started.pk)
    sent = []

    def spy(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    for count in (1, 7):
        table.version += 1
        first = table.event_count + 1
        events = [
            move_sql.EventRow(
                table.pk, first + n, table.version, ",1," if n % 2 else "all", "t", {"n": n}
            )
            for n in range(count)
        ]
        events[0].request_key, events[0].request_fingerprint = f"seat0:k{count}", "f"
        table.event_count += count
        with connection.execute_wrapper(spy):
            move_sql.move_store(table, ["version", "event_count"], events, None)
        stored = TableEvent.objects.filter(table=table, sequence__gte=first)
        assert [
            (e.sequence, e.table_version, e.audience, e.payload, e.request_key) for e in stored
        ] == [
            (first + n, table.version, e.audience, {"n": n}, e.request_key)
            for n, e in enumerate(events)
        ]
        assert stored[0].request_fingerprint == "f" and stored[0].created_at is not None
    if connection.vendor == "postgresql":  # one statement, prepared once, however many events
        assert len(sent) == 2 and sent[0] == sent[1]


def test_it_finds_a_key_s_first_outcome_on_its_event_or_in_its_stored_row(started):
    refusal = {"applied": False, "refusal": {"code": "no", "message": "No."}}
    move_sql.action_request_insert(
        table_id=started.pk, key="seat1:refused", outcome=refusal, fingerprint="f1"
    )
    TableEvent.objects.create(
        table=started,
        sequence=started.event_count + 1,
        table_version=started.version + 1,
        type="visited",
        payload={},
        request_key="seat0:applied",
        request_fingerprint="f0",
    )
    # Both kept for one key (a move that made no event, then one that did): the event wins.
    move_sql.action_request_insert(
        table_id=started.pk, key="seat0:applied", outcome=refusal, fingerprint="f9"
    )

    assert move_sql.stored_outcome(table_id=started.pk, key="seat0:applied") == (
        {"applied": True, "version": started.version + 1},
        "f0",
    )
    assert move_sql.stored_outcome(table_id=started.pk, key="seat1:refused") == (refusal, "f1")
    assert move_sql.stored_outcome(table_id=started.pk, key="seat2:new") is None
    assert move_sql.stored_outcome(table_id=started.pk + 1, key="seat1:refused") is None


def test_it_reads_a_key_s_first_outcome_with_the_lock_under_the_mover_s_seat(
    started, alice, bob, dave
):
    refusal = {"applied": False, "refusal": {"code": "no", "message": "No."}}
    move_sql.action_request_insert(
        table_id=started.pk, key="seat1:k", outcome=refusal, fingerprint="f1"
    )
    with transaction.atomic():
        # The key as bob sent it, found under his seat (1), and nobody else's.
        seat, _, stored, _ = move_sql.seat_locking_table(
            table_id=started.pk, user_id=bob.pk, key="k"
        )
        assert seat.number == 1
        assert (
            stored == (refusal, "f1") == move_sql.stored_outcome(table_id=started.pk, key="seat1:k")
        )
        assert (
            move_sql.seat_locking_table(table_id=started.pk, user_id=alice.pk, key="k")[2] is None
        )
        assert move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk, key="j")[2] is None
        assert move_sql.seat_locking_table(table_id=started.pk, user_id=dave.pk, key="k") is None
        # By the seat's number, the key as stored.
        _, _, stored, _ = move_sql.table_locking_for_seat(
            table_id=started.pk, number=1, user_id=bob.pk, key="seat1:k"
        )
        assert stored == (refusal, "f1")
        found = move_sql.table_locking_for_seat(
            table_id=started.pk, number=0, user_id=alice.pk, key="seat0:k"
        )
        assert found[2] is None
        assert (
            move_sql.table_locking_for_seat(
                table_id=started.pk, number=1, user_id=alice.pk, key="seat1:k"
            )
            is None
        )


def test_a_move_looks_for_its_key_again_when_the_table_moved_on_since_the_lock_read_it(
    started,
):
    # On PostgreSQL the locking read sees the keys as its statement began: a first try
    # that held the lock meanwhile is not among them. It moved the version on, so the
    # key is looked for again, and the retry is replayed.
    from play.services.moves import apply_locked

    version, turn = started.version, started.state["turn"]
    action = {"type": "carriage_stop"}
    first = services.game_apply_action(
        table_id=started.pk, player=turn, action=action, expected_version=version,
        idempotency_key="k",
    )  # fmt: skip
    assert first.applied
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=started.pk)
        again = apply_locked(locked, turn, action, version, "k", stored=None)
    assert again.applied and again.replayed
    assert Table.objects.get(pk=started.pk).version == version + 1


def test_it_reads_the_players_seats_and_notes_a_move_s_views_need(started, alice, bob):
    table = Table.objects.get(pk=started.pk)
    bob_seat = Seat.objects.get(table=table, user=bob)
    Notebook.objects.update_or_create(seat=bob_seat, defaults={"text": "The clerk lied."})
    alice_seat = Seat.objects.get(table=table, user=alice)
    Notebook.objects.filter(seat=alice_seat).delete()  # a seat may have none

    seats = move_sql.players_seats(table=table, numbers={alice_seat.number, bob_seat.number, 7})

    in_order = sorted([alice_seat, bob_seat], key=lambda seat: seat.number)
    assert [seat.pk for seat in seats] == [seat.pk for seat in in_order]
    by_user = {seat.user_id: seat for seat in seats}
    with CaptureQueriesContext(connection) as queries:
        assert by_user[bob.pk].notebook.text == "The clerk lied."
        assert getattr(by_user[alice.pk], "notebook", None) is None
        assert by_user[bob.pk].table is table
        assert by_user[bob.pk].number == bob_seat.number
        assert by_user[bob.pk].colour == bob_seat.colour
    assert len(queries) == 0  # all read with the seats
    assert move_sql.players_seats(table=table, numbers=set()) == []


def read_for_views(seat: Seat) -> tuple:
    notebook = getattr(seat, "notebook", None)
    return (
        seat.pk,
        seat.table_id,
        seat.user_id,
        seat.number,
        seat.colour,
        notebook and notebook.text,
    )


def seats_by_number(table) -> dict[int, Seat]:
    return {seat.number: seat for seat in Seat.objects.filter(table=table)}


def test_the_lock_reads_the_seats_whose_sockets_asked_for_their_views(started, bob, charlie):
    seats = seats_by_number(started)
    note = 'The clerk said "never", twice —\nand lied.'  # quotes, a dash, a line: JSON's work
    Notebook.objects.filter(seat=seats[0]).update(text=note)
    Notebook.objects.filter(seat=seats[1]).delete()  # a seat may have none
    with transaction.atomic():
        assert move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)[3] == []
    for number in (0, 1):
        presence.socket_open(table_id=started.pk, seat_id=seats[number].pk, wants_views=True)
    presence.socket_open(table_id=started.pk, seat_id=seats[2].pk)  # hears versions only
    presence.socket_open(table_id=started.pk, seat_id=None, wants_views=True)  # a spectator
    expected = [
        read_for_views(seat) for seat in move_sql.players_seats(table=started, numbers={0, 1})
    ]

    with transaction.atomic():
        for locked in (
            move_sql.seat_locking_table(table_id=started.pk, user_id=charlie.pk),
            move_sql.seat_locking_table(table_id=started.pk, user_id=charlie.pk, key="k"),
            move_sql.table_locking_for_seat(table_id=started.pk, number=2, user_id=charlie.pk),
            move_sql.table_locking_for_seat(
                table_id=started.pk, number=2, user_id=charlie.pk, key="seat2:k"
            ),
        ):
            table, viewers = locked[0], locked[3]
            table = getattr(table, "table", table)  # the seat's, for seat_locking_table
            assert locked[1].viewers == {0, 1}
            assert [read_for_views(seat) for seat in viewers] == expected
            with CaptureQueriesContext(connection) as queries:
                assert viewers[0].notebook.text == note
                assert getattr(viewers[1], "notebook", None) is None
                assert all(seat.table is table for seat in viewers)
            assert len(queries) == 0  # all read with the lock


def test_the_lock_reads_no_seat_held_by_nobody_for_views(started, bob):
    seats = seats_by_number(started)
    presence.socket_open(table_id=started.pk, seat_id=seats[0].pk, wants_views=True)
    presence.socket_open(table_id=started.pk, seat_id=seats[2].pk, wants_views=True)
    # A computer took the seat meanwhile (play/leaving.py), its player's socket still open.
    Seat.objects.filter(pk=seats[2].pk).update(user=None, bot_name="Inspector Lestrade")
    with transaction.atomic():
        _, _, _, viewers = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
    assert [seat.number for seat in viewers] == [0]


@pytest.mark.django_db(transaction=True)
def test_the_lock_leaves_the_views_seats_to_the_push_after_a_change_it_waited_for(started, bob):
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite a move takes the write lock at its BEGIN: no statement waits")
    seats = seats_by_number(started)
    for number in (0, 2):
        presence.socket_open(table_id=started.pk, seat_id=seats[number].pk, wants_views=True)
    found = {}

    def move() -> None:
        try:
            with transaction.atomic():
                found["locked"] = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
        finally:
            connection.close()

    waiting = threading.Thread(target=move)
    with transaction.atomic():
        # A computer takes seat 2 (play/leaving.py) while the move waits for the lock.
        Table.objects.select_for_update().get(pk=started.pk)
        Seat.objects.filter(pk=seats[2].pk).update(user=None, bot_name="Inspector Lestrade")
        Table.objects.filter(pk=started.pk).update(version=F("version") + 1)
        waiting.start()
        wait_for_a_statement_blocked_on_a_lock()
    waiting.join()

    # Its seats were read before the change: the push reads them itself.
    assert found["locked"][3] is None
    with transaction.atomic():  # with nothing in between, as of the move
        _, _, _, viewers = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)
    assert [seat.number for seat in viewers] == [0]


def wait_for_a_statement_blocked_on_a_lock() -> None:
    with connection.cursor() as cursor:
        for _ in range(1000):
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # fresh within the transaction
            cursor.execute(
                "SELECT COUNT(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("the move never waited for the lock")
