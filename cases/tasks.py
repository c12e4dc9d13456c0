"""Celery tasks of the case domain. Each takes ids, reloads, calls a service, and is safe
to run twice."""

from celery import shared_task

from . import services


@shared_task(acks_late=True)
def judge_answer_attempt(attempt_id: int) -> dict:
    attempt = services.answer_attempt_judge(attempt_id=attempt_id)
    return {"attempt": attempt.pk, "correct": attempt.correct_count}
