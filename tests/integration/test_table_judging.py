"""A real Celery worker judges a 221B attempt made at a table: the move's commit queues the
task on Redis, the worker judges the answers against PostgreSQL and hands the verdicts to
the game through the one write path, which ends it. The worker stores the notifications
the moves queued, too."""

from accounts.models import Notification
from games import get_rules
from play import services
from play.models import Table, TableAttempt, TableStatus
from tests.integration.conftest import wait_for
from tests.play.conftest import TUTORIAL

RIGHT_ANSWERS = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}


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
        lambda: Notification.objects.filter(kind="table_started", user=bob).exists(),
        tasks_to_the_worker,
    )
    # alice pressed Start herself: nobody is told of what they just did.
    assert not Notification.objects.filter(kind="table_started", user=alice).exists()
    assert Notification.objects.filter(kind="table_news", user=[alice, bob][other]).exists()
