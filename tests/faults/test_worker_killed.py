"""A Celery worker is killed (SIGKILL) while judging a 221B attempt: the verdict still
arrives, exactly once.

The judging task is acks_late and reject_on_worker_lost, and idempotent (the attempt stores
its verdicts once; the `judged` action carries an idempotency key). To kill it mid-task
deterministically, the worker runs with HOLMES_TEST_PAUSE_JUDGING_WHILE naming a file:
while the file exists, judging waits before delivering (play/tasks.py).
"""

import os
import re
import signal

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

    restarted = start_worker(private_redis.url, shared_database_url)
    # What Celery beat does every few seconds: enqueue again what was not delivered.
    restarted_client_send(private_redis.url, "holmes_site.tasks.outbox_redeliver", 0)

    wait_until(lambda: finished(table), "the verdict", 90, restarted.log)
    wait_until(notified_solved, "the game_over notifications", 60, restarted.log)
    assert_judged_once(table, solver)


def restarted_client_send(redis_url: str, task: str, *args) -> None:
    """Send a task by name, as Celery beat would, without touching this process's app."""
    from celery import Celery

    client = Celery(broker=redis_url, set_as_current=False)
    try:
        client.send_task(task, args=list(args))
    finally:
        client.close()
