"""A Celery worker is killed (SIGKILL) while judging a 221B attempt: the verdict still
arrives, exactly once. And one killed while it holds a table's wake-up, waiting for its
time: the computer player still moves, once.

The judging task is acks_late and reject_on_worker_lost, and idempotent (the attempt stores
its verdicts once; the `judged` action carries an idempotency key). To kill it mid-task
deterministically, the worker runs with HOLMES_TEST_PAUSE_JUDGING_WHILE naming a file:
while the file exists, judging waits before delivering (play/tasks.py).
"""

import os
import re
import signal

import redis

from accounts.models import Notification
from holmes_site.models import OutboxMessage
from play.models import Table, TableEvent, TableStatus
from tests.faults.conftest import RIGHT_ANSWERS, play, turn_of, wait_until


def answer_at_221b(server, table, tokens) -> int:
    """The player on turn goes to 221B, the other rests, and the first answers: the
    commit queues the judging. Returns the solver's seat."""
    solver = turn_of(server, table.pk, tokens)
    other = 1 - solver
    assert play(server, table.pk, tokens, solver, {"type": "baker_street"})[0] == 200
    assert play(server, table.pk, tokens, other, {"type": "carriage_stop"})[0] == 200
    status, body = play(
        server, table.pk, tokens, solver, {"type": "answer", "answers": RIGHT_ANSWERS}
    )
    assert status == 200, body
    return solver


def judging_pid(worker) -> int:
    worker.wait_for_log("Judging table attempt")
    return int(re.search(r"Judging table attempt \d+ in process (\d+)", worker.log()).group(1))


def assert_judged_once(table, solver):
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert table.state["result"] == {"kind": "solved", "winners": [solver], "rounds": 1}
    judged = TableEvent.objects.filter(table=table, request_key__startswith="system:judged-")
    assert judged.count() == 1  # the first event of the one `judged` move carries its key
    assert TableEvent.objects.filter(table=table, type="solved").count() == 1
    # Both players are told once that the case was solved.
    assert Notification.objects.filter(kind="game_over").count() == 2
    judging = OutboxMessage.objects.get(task="play.tasks.judge_table_attempt")
    assert judging.delivered_at is not None


def finished(table) -> bool:
    return Table.objects.get(pk=table.pk).status == TableStatus.FINISHED


def notified_solved() -> bool:
    return Notification.objects.filter(kind="game_over").count() == 2


def test_it_judges_once_when_the_pool_process_is_killed_mid_task(
    shared_database_url, private_redis, start_worker, start_server, table_for_two, tmp_path
):
    table, tokens = table_for_two
    pause = tmp_path / "pause-judging"
    pause.touch()
    worker = start_worker(
        private_redis.url, shared_database_url, HOLMES_TEST_PAUSE_JUDGING_WHILE=str(pause)
    )
    server = start_server(REDIS_URL=private_redis.url, DATABASE_URL=shared_database_url)
    solver = answer_at_221b(server, table, tokens)

    # The pool process that runs the task dies; the worker's main process sees it lost
    # (reject_on_worker_lost), puts the message back, and a new pool process runs it.
    os.kill(judging_pid(worker), signal.SIGKILL)
    pause.unlink()

    wait_until(lambda: finished(table), "the verdict", 90, worker.log)
    wait_until(notified_solved, "the game_over notifications", 60, worker.log)
    assert "WorkerLostError" in worker.log() or "signal 9" in worker.log()
    assert worker.log().count("Judging table attempt") == 2
    assert_judged_once(table, solver)


def test_it_judges_once_when_the_whole_worker_is_killed_and_restarted(
    shared_database_url, private_redis, start_worker, start_server, table_for_two, tmp_path
):
    table, tokens = table_for_two
    pause = tmp_path / "pause-judging"
    pause.touch()
    worker = start_worker(
        private_redis.url, shared_database_url, HOLMES_TEST_PAUSE_JUDGING_WHILE=str(pause)
    )
    server = start_server(REDIS_URL=private_redis.url, DATABASE_URL=shared_database_url)
    solver = answer_at_221b(server, table, tokens)
    judging_pid(worker)

    # The whole worker (main and pool processes) dies mid-task: the message stays
    # unacknowledged in Redis, and the outbox row undelivered.
    worker.kill()
    pause.unlink()
    assert not finished(table)
    assert OutboxMessage.objects.get(task="play.tasks.judge_table_attempt").delivered_at is None

    # The new worker, as it connects, sends again what the outbox holds undelivered
    # (holmes_site/celery.py): nobody asks it to.
    restarted = start_worker(private_redis.url, shared_database_url)

    wait_until(lambda: finished(table), "the verdict", 90, restarted.log)
    wait_until(notified_solved, "the game_over notifications", 60, restarted.log)
    assert_judged_once(table, solver)


def test_a_wake_up_held_by_a_killed_worker_is_done_by_the_next_one(
    shared_database_url, private_redis, start_worker, start_server, alice
):
    """The worker holds a wake-up until its time (an ETA task): killed, it takes the
    message with it (Redis would give it back only after an hour). The next worker, as it
    connects, queues every waiting table's wake-up again (play.tasks.tables_wake_rearm)."""
    from accounts.services import api_token_create
    from games import get_rules
    from play import services

    table = services.table_create(host=alice, game="sherlock_mycroft")
    services.seat_add_bot(table_id=table.pk, user=alice)
    table = services.table_start(table_id=table.pk, user=alice)
    tokens = {0: api_token_create(user=alice)[1]}
    worker = start_worker(private_redis.url, shared_database_url)
    server = start_server(
        REDIS_URL=private_redis.url,
        DATABASE_URL=shared_database_url,
        HOLMES_BOT_PAUSE_SECONDS="8",  # long enough to kill the worker first
    )
    move = get_rules("sherlock_mycroft").legal_actions(table.state, 0)[0]
    status, body = play(server, table.pk, tokens, 0, move)
    assert status == 200, body
    # Reserved by the worker, not acknowledged, until its time.
    held = redis.Redis.from_url(private_redis.url)
    wait_until(lambda: held.hlen("unacked") > 0, "the worker to hold the wake-up", 30, worker.log)
    worker.kill()
    waiting = Table.objects.get(pk=table.pk)
    assert waiting.version == body["version"] and waiting.wake_at is not None

    restarted = start_worker(private_redis.url, shared_database_url)
    wait_until(
        lambda: Table.objects.get(pk=table.pk).version > waiting.version,
        "the computer player's move",
        60,
        restarted.log,
    )
    bot_moves = TableEvent.objects.filter(table=table, table_version=waiting.version + 1)
    assert bot_moves.exists()
    assert Table.objects.get(pk=table.pk).state["turn"] == 0  # one move, and alice's turn
