"""The transactional outbox: every app's side effects that run in Celery, one way.

A task queued with `outbox_enqueue` inside a transaction is written as a row of that
transaction and sent to the broker after commit; the task marks its row delivered when it
is done (`outbox_mark_delivered`, given its `outbox_id`). If the broker was down at
commit, or a worker died, Celery beat's `outbox_redeliver` sends the row again: a
committed write always ends in its side effects, and tasks are idempotent, so a second
delivery is harmless. With Celery eager (the embedded default) a task just runs after
commit, in-process, and no row is written.
"""

import functools
import logging
from datetime import timedelta
from importlib import import_module

from django.db import models, transaction
from django.utils import timezone

from .models import OutboxMessage

logger = logging.getLogger(__name__)

OUTBOX_REDELIVER_AFTER = timedelta(seconds=30)
OUTBOX_MAX_REDELIVERIES = 100
OUTBOX_KEEP_DELIVERED = timedelta(days=7)


def broker_errors() -> tuple[type[BaseException], ...]:
    """What a broker that cannot be reached raises: kombu's wrapper, or redis-py and
    socket errors from under it."""
    import kombu.exceptions
    import redis.exceptions

    return (kombu.exceptions.OperationalError, redis.exceptions.RedisError, OSError)


def outbox_enqueue(
    *, task: str, args: list, countdown: float | None = None
) -> OutboxMessage | None:
    """Store `task(*args)` in the outbox and send it to the broker after commit.

    The task receives `outbox_id` as a keyword and calls `outbox_mark_delivered` when done.
    With Celery eager (the embedded default) there is no broker to be down: the task just
    runs in this process after commit, and no row is written only to be marked delivered.

    `countdown`: run it no sooner than that many seconds from now. Such a task must be
    one a sweep also finds when it is due (a table's wake-up): eager Celery cannot wait,
    so there the sweep alone runs it, and a redelivered row may come early (the task
    checks that its time has come).
    """
    if _celery().conf.task_always_eager:
        if countdown is None:
            transaction.on_commit(lambda: _task(task).apply_async(args=args))
        return None
    message = OutboxMessage.objects.create(task=task, args=args)
    message_id = message.pk
    transaction.on_commit(
        lambda: outbox_send(message_id=message_id, task=task, args=args, countdown=countdown)
    )
    return message


def outbox_send(*, message_id: int, task: str, args: list, countdown: float | None = None) -> bool:
    """Hand one outbox row to Celery. A broker error is logged, never raised: it runs after
    a commit, and must not turn a committed move into a server error."""
    try:
        _task(task).apply_async(args=args, kwargs={"outbox_id": message_id}, countdown=countdown)
    except broker_errors():
        logger.warning(
            "Could not enqueue %s (outbox message %s): the beat will retry",
            task,
            message_id,
            exc_info=True,
        )
        return False
    return True


def _celery():
    from celery import current_app

    return current_app


def _task(name: str):
    # Shared tasks are registered when their module is imported (a web process has not
    # necessarily imported it yet); their names are their module paths.
    import_module(name.rsplit(".", 1)[0])
    return _celery().tasks[name]


def outbox_mark_delivered(*, message_id: int | None) -> None:
    if message_id is None:
        return  # the task was called directly, not from the outbox
    OutboxMessage.objects.filter(pk=message_id, delivered_at__isnull=True).update(
        delivered_at=timezone.now()
    )


def outbox_redeliver(*, older_than: timedelta = OUTBOX_REDELIVER_AFTER, limit: int = 500) -> int:
    """Enqueue again the rows still undelivered after `older_than`; return how many.

    Their first send may have failed (broker down) or their worker died: tasks are
    idempotent, so sending one twice is harmless, and waiting `older_than` first keeps that
    rare. Also forgets delivered rows after a week.
    """
    now = timezone.now()
    cutoff = now - older_than
    OutboxMessage.objects.filter(delivered_at__lt=now - OUTBOX_KEEP_DELIVERED).delete()
    waiting = list(
        OutboxMessage.objects.filter(
            delivered_at__isnull=True,
            created_at__lte=cutoff,
            redeliveries__lt=OUTBOX_MAX_REDELIVERIES,
        )
        .exclude(redelivered_at__gt=cutoff)
        .order_by("created_at")[:limit]
    )
    sent = []
    for message in waiting:
        if not outbox_send(message_id=message.pk, task=message.task, args=message.args):
            break  # the broker is still down: the next beat tries again
        sent.append(message.pk)
    if sent:
        OutboxMessage.objects.filter(pk__in=sent).update(
            redelivered_at=now, redeliveries=models.F("redeliveries") + 1
        )
    return len(sent)


def marks_delivered(task_function):
    """For a task queued through the outbox: mark its row delivered once the task has
    done its work (a task that fails stays undelivered, and is sent again). The task
    takes `outbox_id=None` as a keyword."""

    @functools.wraps(task_function)
    def run(*args, **kwargs):
        result = task_function(*args, **kwargs)
        outbox_mark_delivered(message_id=kwargs.get("outbox_id"))
        return result

    return run
