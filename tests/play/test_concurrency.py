"""Racing moves: seven threads, each with its own database connection, send moves based on
the same table version at once. Exactly one applies; the others are told the table moved
on (409) or that the rules refuse them (400), never a server error or "database is
locked". Runs on SQLite (WAL, BEGIN IMMEDIATE) and again on PostgreSQL (row lock)."""

import threading
from collections import Counter
from functools import partial

import pytest
from django.db import connection

from games import get_rules
from play import services
from play.models import ActionRequest, Table, TableEvent
from tests.play.helpers import TOKEN_TOTALS, ApiPlayer, request_outcomes, token_totals

ROUNDS = 10
THREADS = 7

pytestmark = pytest.mark.django_db(transaction=True)


def race(calls) -> list:
    """Run every call in its own thread, released together; return results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = calls[index]()
        except BaseException as error:  # reported by the test
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def seven_player_table(tutorial, users) -> Table:
    table = services.table_create(host=users[0], case_version=tutorial)
    for user in users[1:]:
        services.table_join(invite_code=table.invite_code, user=user)
    table = services.table_start(table_id=table.pk, user=users[0])
    assert len(table.state["players"]) == THREADS
    return table


def back_to_visiting(table: Table) -> Table:
    """Between races: readers finish reading (and Watson reads) until seats place again."""
    engine = get_rules(table.engine)
    for _ in range(50):
        table.refresh_from_db()
        if table.state["phase"] == "visiting":
            return table
        moves = [
            (seat, action)
            for seat in range(len(table.state["players"]))
            for action in engine.legal_actions(table.state, seat)
            if action["type"] in ("done_reading", "watson_read")
        ]
        assert moves, "nobody can move the game on"
        services.game_apply_action(table_id=table.pk, player=moves[0][0], action=moves[0][1])
    raise AssertionError("the investigation never ended")


def test_it_applies_one_of_seven_racing_api_moves_per_version(tutorial, seven):
    table = seven_player_table(tutorial, seven)
    players = [ApiPlayer(user, seat) for seat, user in enumerate(seven)]
    outcomes: Counter = Counter()
    for round_number in range(ROUNDS):
        table = back_to_visiting(table)
        version, turn = table.version, table.state["turn"]
        mover = players[turn]
        view = mover.view(table.pk)
        visits = [
            action
            for action in view["game"]["legal_actions"]
            if action["type"] == "visit" and set(action) == {"type", "location", "carriages"}
        ]
        target = visits[round_number % len(visits)]
        held = view["game"]["players"][turn]["carriages"]
        calls = []
        for thread in range(THREADS):
            if thread < 4:
                # The player on turn, four times (a double click, two tabs), bidding the
                # least or one more, each request with its own idempotency key.
                extra = thread % 2 if held > target["carriages"] else 0
                action = {**target, "carriages": target["carriages"] + extra}
                player = mover
            else:
                # The others try the same card although it is not their turn.
                action, player = target, players[(turn + thread) % THREADS]
            key = f"race-{round_number}-{thread}"
            calls.append(partial(player.act, table.pk, action, version, key))

        results = race(calls)

        errors = [result for result in results if isinstance(result, BaseException)]
        assert not errors, errors
        statuses = Counter(result.status_code for result in results)
        assert statuses[200] == 1, statuses
        # The on-turn player's other three requests can only have come second.
        assert statuses[409] >= 3, statuses
        assert set(statuses) <= {200, 400, 409}, statuses
        winner = next(r for r in results if r.status_code == 200)
        assert winner.json()["version"] == version + 1
        for result in results:
            error = result.json().get("error")
            if result.status_code == 409:
                assert error["code"] == "stale_version"
                assert error["details"] == {"version": version + 1}
            elif result.status_code == 400:
                assert error["code"] == "not_your_turn", error
        table.refresh_from_db()
        assert table.version == version + 1
        assert TableEvent.objects.filter(table=table, table_version=version + 1).exists()
        assert token_totals(table.state) == TOKEN_TOTALS
        outcomes.update(statuses)
    # Stale requests wrote nothing: only the applied moves and the refusals keep a key.
    stored = request_outcomes(table.pk).values()
    assert sum(1 for outcome in stored if outcome["applied"]) == ROUNDS
    assert len(stored) == ROUNDS + outcomes[400]


def test_it_applies_a_move_once_when_seven_threads_retry_it_with_one_key(tutorial, seven):
    table = seven_player_table(tutorial, seven)
    engine = get_rules(table.engine)
    for round_number in range(ROUNDS):
        table = back_to_visiting(table)
        version, turn = table.version, table.state["turn"]
        visits = [
            action
            for action in engine.legal_actions(table.state, turn)
            if action["type"] == "visit" and set(action) == {"type", "location", "carriages"}
        ]
        action = visits[round_number % len(visits)]
        key = f"same-click-{round_number}"

        same_click = partial(
            services.game_apply_action,
            table_id=table.pk,
            player=turn,
            action=action,
            expected_version=version,
            idempotency_key=key,
        )

        results = race([same_click] * THREADS)

        errors = [result for result in results if isinstance(result, BaseException)]
        assert not errors, errors
        assert all(result.applied for result in results)
        assert sum(1 for result in results if not result.replayed) == 1
        table.refresh_from_db()
        assert table.version == version + 1
        assert token_totals(table.state) == TOKEN_TOTALS
        assert TableEvent.objects.filter(table=table, request_key=f"seat{turn}:{key}").count() == 1
        assert not ActionRequest.objects.filter(table=table, key=f"seat{turn}:{key}").exists()


def test_it_lets_different_players_race_in_the_investigation(tutorial, seven):
    """Seven readers say they are done at once, each based on the same version: one
    applies per version, and the others, told it moved on, retry with the new version
    until all are done. No reader is lost and none counted twice."""
    table = seven_player_table(tutorial, seven)
    engine = get_rules(table.engine)
    # Everyone visits a card on foot, so that all seven read.
    while table.state["phase"] == "visiting":
        turn = table.state["turn"]
        visit = next(
            a
            for a in engine.legal_actions(table.state, turn)
            if a["type"] == "visit" and a.get("carriages") == 0 and len(a) == 3
        )
        table = services.game_apply_action(table_id=table.pk, player=turn, action=visit).table
    table = Table.objects.get(pk=table.pk)
    readers = [seat for seat in range(THREADS) if not table.state["done"][seat]]
    assert len(readers) == THREADS

    def done_reading(seat: int):
        for attempts in range(1, 50):
            current = Table.objects.get(pk=table.pk).version
            try:
                return services.game_apply_action(
                    table_id=table.pk,
                    player=seat,
                    action={"type": "done_reading"},
                    expected_version=current,
                    idempotency_key=f"done-{seat}",
                ), attempts
            except services.StaleVersion:
                continue
        raise AssertionError(f"seat {seat} was told the table moved on 49 times")

    version = table.version
    results = race([lambda seat=seat: done_reading(seat) for seat in readers])

    errors = [result for result in results if isinstance(result, BaseException)]
    assert not errors, errors
    assert all(result.applied for result, _ in results)
    table.refresh_from_db()
    assert table.version == version + THREADS
    done_events = TableEvent.objects.filter(table=table, type="done_reading")
    assert sorted(done_events.values_list("payload__player", flat=True)) == readers
    assert table.state["phase"] == "visiting" and table.state["round"] == 2
    assert token_totals(table.state) == TOKEN_TOTALS
