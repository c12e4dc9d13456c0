"""Celery tasks for tables: each takes ids, reloads, calls services, and is safe to run
twice (verdicts and notifications are stored once)."""

import logging
import os
import time
from pathlib import Path

from celery import shared_task
from django.db.models import QuerySet
from django.urls import reverse

from accounts.services import notifications_send, outbox_mark_delivered

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


def _message(kind: str, summary: dict, details: dict) -> str:
    title = summary["case"]["title"]
    names = {seat["number"]: seat["name"] for seat in summary.get("seats", [])}
    if kind == "table_started":
        return f"Your table for {title} has started."
    if kind == "your_turn":
        return f"It is your turn at {title}."
    if kind == "went_to_221b":
        return (
            f"{names.get(details.get('player'), 'A player')} went to 221B Baker Street in {title}."
        )
    if kind == "case_solved":
        winners = [names[seat] for seat in details.get("winners", []) if seat in names]
        if winners:
            return f"{title} was solved by {' and '.join(winners)}."
        return f"{title} is over: the case went unsolved."
    raise ValueError(f"unknown table notification {kind!r}")


def _recipients(kind: str, seats: QuerySet[Seat], details: dict) -> QuerySet[Seat]:
    if kind == "your_turn":
        return seats.filter(number=details.get("player"))
    if kind == "went_to_221b":
        return seats.exclude(number=details.get("player"))
    return seats


@shared_task(acks_late=True, reject_on_worker_lost=True)
def notify_table(
    table_id: int, kind: str, version: int, details: dict, outbox_id: int | None = None
) -> None:
    # The case's title and the players' names come from the table's public summary.
    summary = Table.objects.values_list("summary", flat=True).get(pk=table_id)
    seats = Seat.objects.filter(table_id=table_id).select_related("user__notification_preferences")
    notifications_send(
        users=[seat.user for seat in _recipients(kind, seats, details)],
        kind=kind,
        message=_message(kind, summary, details),
        url=reverse("play:table", args=[table_id]),
        dedupe_key=f"table{table_id}:v{version}:{kind}",
    )
    outbox_mark_delivered(message_id=outbox_id)


@shared_task
def sockets_sweep() -> int:
    """Run by Celery beat (settings.CELERY_BEAT_SCHEDULE): forget dead sockets."""
    return presence.sockets_sweep()
