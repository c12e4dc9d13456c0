"""Celery tasks of the case domain. Each takes ids, reloads, calls a service, and is safe
to run twice."""

from celery import shared_task

from holmes_site.outbox import outbox_mark_delivered

from . import services


@shared_task(acks_late=True)
def judge_answer_attempt(attempt_id: int, outbox_id: int | None = None) -> dict:
    attempt = services.answer_attempt_judge(attempt_id=attempt_id)
    outbox_mark_delivered(message_id=outbox_id)
    return {"attempt": attempt.pk, "correct": attempt.correct_count}
