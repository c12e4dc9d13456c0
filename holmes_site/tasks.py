"""Celery tasks of the plumbing: the outbox's periodic redelivery (holmes_site/outbox.py)."""

from celery import shared_task

from . import outbox


@shared_task(acks_late=True)
def outbox_redeliver(older_than_seconds: float | None = None) -> int:
    """Run by Celery beat (settings.CELERY_BEAT_SCHEDULE): enqueue again what the broker
    missed. `older_than_seconds` lets an operator (or a test) flush the outbox now."""
    if older_than_seconds is None:
        return outbox.outbox_redeliver()
    from datetime import timedelta

    return outbox.outbox_redeliver(older_than=timedelta(seconds=older_than_seconds))
