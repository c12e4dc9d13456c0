"""The transactional outbox: every app's side effects that run in Celery, one way.

A task queued with `outbox_enqueue` inside a transaction is written as a row of that
transaction and sent to the broker after commit; the task marks its row delivered when it
is done (`outbox_mark_delivered`, given its `outbox_id`). If the broker was down at
commit, a worker died or the task failed, `outbox_redeliver` sends the row again: a
committed write always ends in its side effects, and tasks are idempotent, so a second
delivery is harmless. With Celery eager (the embedded default) a task just runs after
commit, in-process, and no row is written.

Nothing polls the outbox on a clock (issue 42: an idle site does no periodic work).
A redelivery runs only when there may be something to send:

- after rows were sent: a process that hands rows to the broker also queues one check,
  OUTBOX_CHECK_SECONDS later, for the rows of the next OUTBOX_CHECK_SLACK seconds
  (`_check_arm`): a row that a worker lost, or whose task failed, is sent again. A check
  that sends rows arms the next one the same way, so it goes on only while rows fail;
  one that finds them all delivered arms nothing.
- when a Celery worker connects to the broker (its start, Redis back after an outage:
  holmes_site/celery.py): every row still undelivered, the ones that could not be sent
  while Redis was down among them.
"""

import functools
import logging
import time
from datetime import timedelta
from importlib import import_module

from django.db import models, transaction
from django.utils import timezone

from .models import OutboxMessage

logger = logging.getLogger(__name__)

OUTBOX_REDELIVER_AFTER = timedelta(seconds=30)
# A check runs this long after it is queued, and covers the rows of the next
# OUTBOX_CHECK_SLACK seconds (older than OUTBOX_REDELIVER_AFTER by then): one check a
# process at most every OUTBOX_CHECK_SLACK seconds while it sends rows, none while idle.
OUTBOX_CHECK_SLACK = 15.0
OUTBOX_CHECK_SECONDS = OUTBOX_REDELIVER_AFTER.total_seconds() + OUTBOX_CHECK_SLACK
OUTBOX_CHECK_TASK = "holmes_site.tasks.outbox_redeliver"
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
    """Hand one outbox row to Celery, and see that a check will follow it. A broker error
    is logged, never raised: it runs after a commit, and must not turn a committed move
    into a server error."""
    try:
        _task(task).apply_async(args=args, kwargs={"outbox_id": message_id}, countdown=countdown)
    except broker_errors():
        logger.warning(
            "Could not enqueue %s (outbox message %s): it is sent again once a worker "
            "reconnects, or by this process's next check",
            task,
            message_id,
            exc_info=True,
        )
        _checks.covered_until = 0.0  # the next row sent arms a check at once
        return False
    _check_arm()
    return True


class _Checks:
    """This process's armed check: rows sent before `covered_until` (time.monotonic())
    are older than OUTBOX_REDELIVER_AFTER when it runs."""

    covered_until = 0.0


_checks = _Checks()


def _check_arm() -> None:
    now = time.monotonic()
    if now < _checks.covered_until:
        return
    if send_later(OUTBOX_CHECK_TASK, countdown=OUTBOX_CHECK_SECONDS):
        _checks.covered_until = now + OUTBOX_CHECK_SLACK


def send_later(task: str, args: list | None = None, *, countdown: float = 0.0) -> bool:
    """Queue `task(*args)` to run in `countdown` seconds, outside any outbox row: for the
    checks that find what a lost task missed, which a worker's connection also runs
    (holmes_site/celery.py). Nothing with Celery eager, which cannot wait; a broker error
    is logged and False."""
    if _celery().conf.task_always_eager:
        return False
    try:
        _task(task).apply_async(args=args or [], countdown=countdown)
    except broker_errors():
        logger.warning("Could not queue %s: a worker runs it as it connects", task, exc_info=True)
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
    rare. Also forgets delivered rows after a week. Sending arms the next check
    (`outbox_send`): a row whose task fails again is sent again, up to
    OUTBOX_MAX_REDELIVERIES times.
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
            break  # the broker is down again: a worker's reconnection sends them
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
