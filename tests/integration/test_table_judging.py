"""A real Celery worker judges a 221B attempt made at a table: the move's commit queues the
task on Redis, the worker judges the answers against PostgreSQL and hands the verdicts to
the game through the one write path, which ends it. The worker stores the notifications
the moves queued, too."""

import time

import pytest
import redis
from celery import Celery

from accounts.models import Notification
from games import get_rules
from holmes_site.celery import app as celery_app
from play import services
from play.models import Table, TableAttempt, TableStatus
from tests.integration.conftest import REDIS_URL
from tests.play.conftest import TUTORIAL

RIGHT_ANSWERS = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}


@pytest.fixture
def tasks_to_the_worker(celery_worker_process):
    """Send this process's tasks to the worker's queue on Redis instead of running them
    inline, as a deployed web process does.

    Shared tasks are looked up in the current Celery app: a fresh one, configured for
    Redis, stands in for the project's eager one during the test. (Changing the eager
    app's configuration would not do: it caches its broker pool and queues.)
    """
    web = Celery("holmes", set_as_current=False)
    web.conf.update(
        broker_url=REDIS_URL,
        task_default_queue=celery_worker_process.queue,
        task_ignore_result=True,
    )
    web.set_current()
    try:
        yield celery_worker_process
    finally:
        celery_app.set_current()
        web.close()
        # Tasks the worker queued itself went to the default queue, which no test worker
        # reads (each reads its own): drop them.
        redis.Redis.from_url(REDIS_URL).delete(celery_app.conf.task_default_queue)


def wait_for(condition, worker, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        if worker.process.poll() is not None:
            raise AssertionError(f"the worker exited:\n{worker.log()}")
        time.sleep(0.1)
    raise AssertionError(f"the worker did not get there:\n{worker.log()}")


def test_it_judges_a_table_attempt_in_a_real_worker(tasks_to_the_worker, alice, bob):
    from cases.package.reader import read_package_path
    from cases.services import case_import_package

    tutorial = case_import_package(files=read_package_path(TUTORIAL), publish=True).version
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)
    engine = get_rules(table.engine)
    solver = table.state["turn"]
    other = 1 - solver
    services.game_apply_action(table_id=table.pk, player=solver, action={"type": "baker_street"})
    services.game_apply_action(table_id=table.pk, player=other, action={"type": "carriage_stop"})
    table.refresh_from_db()
    assert any(a["type"] == "answer" for a in engine.legal_actions(table.state, solver))

    services.game_apply_action(
        table_id=table.pk, player=solver, action={"type": "answer", "answers": RIGHT_ANSWERS}
    )

    wait_for(
        lambda: Table.objects.get(pk=table.pk).status == TableStatus.FINISHED,
        tasks_to_the_worker,
    )
    table.refresh_from_db()
    assert table.state["result"] == {"kind": "solved", "winners": [solver], "rounds": 1}
    attempt = TableAttempt.objects.get(table=table).attempt
    assert attempt.judged_at is not None and attempt.correct_count == 3
    assert "play.tasks.judge_table_attempt" in tasks_to_the_worker.log()
    # The notifications this process queued were stored by the worker too.
    wait_for(
        lambda: Notification.objects.filter(kind="table_started").count() == 2,
        tasks_to_the_worker,
    )
    assert Notification.objects.filter(kind="table_news", user=[alice, bob][other]).exists()
