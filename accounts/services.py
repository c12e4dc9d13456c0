"""Writes for accounts, and the transactional outbox for tasks (notifications, judging)."""

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from importlib import import_module

from django.core.mail import send_mail
from django.db import models, transaction
from django.utils import timezone

from .models import (
    Notification,
    NotificationPreferences,
    OutboxMessage,
    User,
    default_email_kinds,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DemoAccount:
    username: str
    display_name: str
    role: str
    is_staff: bool = False

    @property
    def password(self) -> str:
        # Known passwords, on purpose: these accounts exist only in development.
        return f"holmes-{self.username}"


DEMO_ACCOUNTS = (
    DemoAccount("author", "Arthur the Author", "case writer", is_staff=True),
    DemoAccount("moderator", "Mina the Moderator", "moderator", is_staff=True),
    DemoAccount("alice", "Alice", "player"),
    DemoAccount("bob", "Bob", "player"),
    DemoAccount("charlie", "Charlie", "player"),
)


@transaction.atomic
def demo_accounts_ensure() -> list[DemoAccount]:
    """Create the demo accounts that are missing and reset their passwords."""
    for account in DEMO_ACCOUNTS:
        user, _ = User.objects.get_or_create(
            username=account.username,
            defaults={
                "display_name": account.display_name,
                "email": f"{account.username}@example.com",
            },
        )
        user.is_staff = account.is_staff
        user.set_password(account.password)
        user.save(update_fields=["is_staff", "password"])
    return list(DEMO_ACCOUNTS)


@transaction.atomic
def notifications_send(
    *, users: Iterable[User], kind: str, message: str, url: str = "", dedupe_key: str
) -> None:
    """Store a notification for each of `users`, once per dedupe key, and e-mail it to those
    who want that kind.

    Safe to run twice, even at once: one INSERT for every recipient leaves a row a first
    run stored as it is, and each e-mail is claimed (`emailed_at` set where it is still
    empty) before it goes, so it goes at most once. It goes after commit, so a rolled-back
    transaction sends nothing. Load the users with `notification_preferences` (a
    `select_related`) to spare a query for each.
    """
    users, key = list(users), dedupe_key[:120]
    Notification.objects.bulk_create(
        [
            Notification(user=user, kind=kind, message=message[:300], url=url[:300], dedupe_key=key)
            for user in users
        ],
        ignore_conflicts=True,
    )
    subject, body = f"Holmes: {one_line(message)}"[:150], f"{message}\n\n{url}".strip()
    for user in users:
        if not user.email or kind not in email_kinds_for(user):
            continue
        unsent = Notification.objects.filter(user=user, dedupe_key=key, emailed_at__isnull=True)
        if unsent.update(emailed_at=timezone.now()):
            transaction.on_commit(partial(send_mail, subject, body, None, [user.email]))


# Control characters, line and paragraph separators, and text direction controls.
_NOT_IN_A_HEADER = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+"
)


def one_line(text: str) -> str:
    """`text` fit for an e-mail header: what could break the line, or turn the text round,
    becomes a space. Messages carry authors' and players' words (a case title), which the
    linter checks, but a header is never built on that alone."""
    return " ".join(_NOT_IN_A_HEADER.sub(" ", text).split())


def notification_send(*, user: User, kind: str, message: str, url: str = "", dedupe_key: str):
    """`notifications_send` for one user."""
    notifications_send(users=[user], kind=kind, message=message, url=url, dedupe_key=dedupe_key)


def email_kinds_for(user: User) -> list[str]:
    """The notification kinds `user` also gets by e-mail: their choice, or the default."""
    try:
        return user.notification_preferences.email_kinds
    except NotificationPreferences.DoesNotExist:
        return default_email_kinds()


def notifications_mark_read(*, user: User, ids: list[int] | None = None) -> int:
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read_at=timezone.now())


# --- The transactional outbox ---------------------------------------------------------
# A side effect that must not be lost (a notification, judging a 221B attempt) is written
# as a row in the transaction of the write that causes it, and enqueued once that commits.
# If the broker is down then, the write still succeeds (it is committed) and the row waits:
# `outbox_redeliver`, run every few seconds by Celery beat, enqueues it again.

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
