"""A real Celery worker judges 221B attempts from Redis, against PostgreSQL."""

from cases.models import AnswerAttempt, NearMiss
from tests.factories import QuestionFactory

TASK = "cases.tasks.judge_answer_attempt"


def test_it_judges_an_attempt_in_a_real_worker(celery_worker_process):
    question = QuestionFactory(key="culprit", answer="Walter Finch", accept=[], reject=[])
    attempt = AnswerAttempt.objects.create(
        version=question.version, answers={"culprit": "W. Finch"}
    )

    celery_worker_process.send(TASK, attempt.pk)
    celery_worker_process.wait_for_log("succeeded")

    attempt.refresh_from_db()
    assert attempt.judged_at is not None
    assert attempt.verdicts["culprit"]["verdict"] != "correct"


def test_it_stores_the_verdict_once_when_the_task_runs_twice(celery_worker_process):
    question = QuestionFactory(key="culprit", answer="Walter Finch", accept=[], reject=[])
    attempt = AnswerAttempt.objects.create(version=question.version, answers={"culprit": "Finch"})

    celery_worker_process.send(TASK, attempt.pk)
    celery_worker_process.send(TASK, attempt.pk)
    celery_worker_process.wait_for_log("succeeded", count=2)

    attempt.refresh_from_db()
    judged_at = attempt.judged_at
    assert judged_at is not None
    near_miss = NearMiss.objects.get(question=question)
    assert near_miss.count == 1
