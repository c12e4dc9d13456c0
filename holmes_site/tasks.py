"""Celery tasks of the plumbing: the outbox's redelivery (holmes_site/outbox.py)."""

from celery import shared_task

from . import outbox


@shared_task(acks_late=True)
def outbox_redeliver(older_than_seconds: float | None = None) -> int:
    """Enqueue again what the broker missed: queued by the outbox after the rows it sends
    (their check), and by a worker as it connects (`older_than_seconds=0`: every row still
    undelivered; settings.HOLMES_WORKER_CONNECT_TASKS). An operator may send it too."""
    if older_than_seconds is None:
        return outbox.outbox_redeliver()
    from datetime import timedelta

    return outbox.outbox_redeliver(older_than=timedelta(seconds=older_than_seconds))
