"""Celery tasks for tables: each takes ids, reloads, calls services, and is safe to run
twice (verdicts and notifications are stored once)."""

import logging
import os
import time
from pathlib import Path

from celery import shared_task
from django.urls import reverse
from django.utils import timezone

from accounts.services import notifications_send
from games.sites import get_site
from holmes_site.outbox import outbox_mark_delivered

from . import presence, services
from .models import Seat, Table

logger = logging.getLogger(__name__)

# Test-only: while the file this names exists, judging waits before delivering (at most
# two minutes), so that tests/faults can kill the worker mid-task deterministically.
PAUSE_JUDGING_ENV = "HOLMES_TEST_PAUSE_JUDGING_WHILE"


@shared_task(acks_late=True, reject_on_worker_lost=True)
def judge_table_attempt(table_attempt_id: int, outbox_id: int | None = None) -> None:
    logger.info("Judging table attempt %s in process %s", table_attempt_id, os.getpid())
    _test_pause(os.environ.get(PAUSE_JUDGING_ENV))
    services.table_attempt_deliver_verdicts(table_attempt_id=table_attempt_id)
    outbox_mark_delivered(message_id=outbox_id)


def _test_pause(path: str | None) -> None:
    deadline = time.monotonic() + 120
    while path and Path(path).exists() and time.monotonic() < deadline:
        time.sleep(0.05)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def notify_table(
    table_id: int, kind: str, version: int, details: dict, outbox_id: int | None = None
) -> None:
    # The title and the players' names come from the table's public summary; what is
    # said, and to whom, is the game's (games.sites.GameSite.notice_text).
    engine, summary, host_id = Table.objects.values_list("engine", "summary", "host_id").get(
        pk=table_id
    )
    site = get_site(engine)
    names = {seat["number"]: seat["name"] for seat in summary.get("seats", [])}
    seats = Seat.objects.filter(table_id=table_id, user__isnull=False).select_related(
        "user__notification_preferences"
    )
    # Nobody is told what they have just done themselves: the host who pressed Start, the
    # player whose move ended the game (their page says so at once). `actor_seat` is
    # absent when nobody at the table acted (a verdict, a timer): then everyone is told.
    if "actor_seat" in details:
        seats = seats.exclude(number=details["actor_seat"])
    elif kind == "table_started":  # queued before the actor was named
        seats = seats.exclude(user_id=host_id)
    recipients = set(site.notice_recipients(kind, details, [seat.number for seat in seats]))
    notifications_send(
        users=[seat.user for seat in seats if seat.number in recipients],
        kind=kind,
        message=site.notice_text(kind, summary.get("title", ""), names, details),
        url=reverse("play:table", args=[table_id]),
        dedupe_key=f"table{table_id}:v{version}:{kind}",
    )
    outbox_mark_delivered(message_id=outbox_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def table_wake(table_id: int, version: int, outbox_id: int | None = None) -> None:
    """A computer player's move, or a timer run out (play.services.table_wake)."""
    # A wake-up lost from here on is its backstop's to find (play/services/side_effects.py).
    outbox_mark_delivered(message_id=outbox_id)
    try:
        done = services.table_wake(table_id=table_id, version=version)
    except services.TableError:
        logger.info("Table %s moved on before its wake-up (version %s)", table_id, version)
        return
    if done is None:
        _again_if_early(table_id, version)


def _again_if_early(table_id: int, version: int) -> None:
    """A wake-up that came before its time (the outbox sent its row again, without the
    countdown) is queued again for its time, with its backstop."""
    wake_at = (
        Table.objects.filter(pk=table_id, version=version, wake_at__gt=timezone.now())
        .values_list("wake_at", flat=True)
        .first()
    )
    if wake_at is not None:
        services.wake_queue_again(table_id, version, wake_at)


@shared_task
def tables_wake_due() -> int:
    """The backstop of the tables' wake-ups, queued a little after their time along with
    them (play.services.wake_backstop_arm): the ones whose task was lost, or never sent."""
    return services.tables_wake_due()


@shared_task
def tables_wake_rearm() -> int:
    """Queued by a worker as it connects (settings.HOLMES_WORKER_CONNECT_TASKS): every
    waiting table's wake-up queued again for its time, with its backstop. A worker that
    was killed took the wake-ups it held with it (and Redis, restarted, may have lost its
    queue). One queued twice is harmless: a wake-up acts once for its table's version.
    How many were queued."""
    waiting = Table.objects.filter(wake_at__isnull=False).values_list("pk", "version", "wake_at")
    return sum(services.wake_queue_again(*wake_up) for wake_up in waiting.iterator())


@shared_task
def sockets_sweep() -> int:
    """Forget dead sockets: queued by a worker as it connects
    (settings.HOLMES_WORKER_CONNECT_TASKS)."""
    return presence.sockets_sweep()
