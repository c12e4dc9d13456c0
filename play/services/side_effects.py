"""What a change of a table sets going once its transaction commits: the push to the
table's sockets, the players' notifications, and the table's next wake-up.

After every change of a table, `plan_wake` works out when the server must next act
there: a computer player owes a move (after a short pause, so that people can follow;
none at a table of computers alone), or the seats it waits for run out of time (the
table's turn timer, or a window the game itself sets). Celery is asked to come back then
(`play.tasks.table_wake`); `table_wake` (play/services/wake.py) does one thing and plans
the next, so a chain of computer moves is a chain of tasks, never a recursion, and no
request waits for it.

A wake-up whose task is lost (a worker killed while holding it, a task that failed) is
caught by a sweep (`tables_wake_due`) that each wake-up queues along with itself, a few
seconds after its time (`wake_backstop_arm`), and by a worker as it connects, which
queues every table's wake-up again (play.tasks.tables_wake_rearm). Nothing sweeps on a
clock: a site where no table waits queues nothing (issue 42). Where Celery has no worker
(`make run`), the embedded waker (play/waker.py) runs the sweep instead.
"""

import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.sites import get_site
from holmes_site.outbox import outbox_enqueue, send_later

from ..models import Table, TableStatus
from ..presence import TablePresence, table_presence, your_turn_claim

__all__ = [
    "plan_wake",
    "bot_seats",
    "bot_level",
    "bot_pause_seconds",
    "after_commit_wake",
    "wake_backstop_arm",
    "wake_queue_again",
    "after_commit_push",
    "after_commit_notify",
    "after_commit_tell_move",
]


def plan_wake(table: Table, rules) -> list[str]:
    """Set the table's deadline and next wake-up from its state; the fields to save."""
    table.deadline_at = table.wake_at = None
    if table.status != TableStatus.PLAYING:
        return ["deadline_at", "wake_at"]
    waiting = rules.waiting_for(table.state)
    now = timezone.now()
    seconds = rules.deadline_seconds(table.state) or table.turn_timer_seconds
    if waiting and seconds:
        table.deadline_at = now + timedelta(seconds=seconds)
    wake = [table.deadline_at] if table.deadline_at else []
    if set(waiting) & bot_seats(table):
        wake.append(now + timedelta(seconds=bot_pause_seconds(table)))
    table.wake_at = min(wake) if wake else None
    return ["deadline_at", "wake_at"]


def bot_pause_seconds(table: Table) -> float:
    """How long a computer player waits before its move: long enough for the people at
    the table to follow it, and not at all where no seat is a person's (every seat a
    computer's, or left): nobody is there to follow, so such a table finishes fast."""
    seats = (table.summary or {}).get("seats", [])
    if any(not seat.get("bot") and not seat.get("left") for seat in seats):
        return settings.HOLMES_BOT_PAUSE_SECONDS
    return 0.0


def bot_seats(table: Table) -> set[int]:
    # The seats are on the table's summary once it plays: no query on a move.
    return {seat["number"] for seat in (table.summary or {}).get("seats", []) if seat.get("bot")}


def bot_level(table: Table, seat: int) -> str | None:
    """The strength of the computer player at `seat`, from the summary (no query); None
    for a summary written before strengths existed: those played as the normal one."""
    entries = (table.summary or {}).get("seats", [])
    return next((entry.get("level") for entry in entries if entry["number"] == seat), None)


WAKE_TASK = "play.tasks.table_wake"


def seconds_until(moment: datetime) -> float:
    return max(0.0, (moment - timezone.now()).total_seconds())


def after_commit_wake(table: Table) -> None:
    if table.wake_at is None:
        return
    wake_at = table.wake_at
    args = [table.pk, table.version]
    outbox_enqueue(task=WAKE_TASK, args=args, countdown=seconds_until(wake_at))
    transaction.on_commit(lambda: wake_backstop_arm(wake_at))


def wake_queue_again(table_id: int, version: int, wake_at: datetime) -> bool:
    """Queue a table's wake-up again for its time, with its backstop, outside the outbox:
    for one whose task came early or was lost with a worker. Whether it was queued."""
    queued = send_later(WAKE_TASK, [table_id, version], countdown=seconds_until(wake_at))
    wake_backstop_arm(wake_at)
    return queued


# The sweep that backs a wake-up up runs WAKE_BACKSTOP_SECONDS after the wake-up's time,
# and one sweep backs up every wake-up due from WAKE_BACKSTOP_SECONDS to
# WAKE_BACKSTOP_GRACE seconds before it runs: a wake-up's own task comes first (a second
# run is harmless), and a process queues one sweep for every few seconds of wake-ups.
WAKE_BACKSTOP_SECONDS = 10.0
WAKE_BACKSTOP_GRACE = 2.0
WAKE_BACKSTOP_TASK = "play.tasks.tables_wake_due"


# The times (time.time()) of the sweeps this process has queued, still to come.
_backstops: list[float] = []


def wake_backstop_arm(wake_at: datetime) -> None:
    """See that a sweep runs a little after `wake_at`, unless one this process queued
    already will: the wake-up is then done even if its own task is lost. Nothing with
    Celery eager (the embedded waker sweeps there)."""
    now, due = time.time(), wake_at.timestamp()
    _backstops[:] = [at for at in _backstops if at > now]
    if any(due + WAKE_BACKSTOP_GRACE <= at <= due + WAKE_BACKSTOP_SECONDS for at in _backstops):
        return
    at = due + WAKE_BACKSTOP_SECONDS
    if send_later(WAKE_BACKSTOP_TASK, countdown=max(0.0, at - now)):
        _backstops.append(at)


def after_commit_push(
    table: Table, presence: TablePresence | None = None, mover=None, viewer_seats=None
) -> None:
    """After commit, tell the table's sockets of its new version. For a move, `presence`
    is who was at the table as its lock read it: the players whose sockets asked for their
    views get them instead, and the others' sockets hear the version only if one is open
    (play/live.py). `mover`: the seat that moved, whose answer holds its view.
    `viewer_seats`: the seats of those players as the lock read them (play/move_sql.py),
    or None, to read them after commit."""
    from ..live import push_table_version
    from ..pushed_views import present_players_views

    table_id, version = table.pk, table.version
    if presence is None:
        transaction.on_commit(lambda: push_table_version(table_id=table_id, version=version))
        return

    # The mover's answer holds their view; another socket of theirs, if they hold one, is
    # told the version.
    viewers = presence.viewers
    if mover not in presence.viewers_twice:
        viewers = viewers - {mover}

    def views():
        return present_players_views(table, viewers, mover, viewer_seats) if viewers else {}

    transaction.on_commit(
        lambda: push_table_version(
            table_id=table_id,
            version=version,
            watched=presence.watched,
            views=views,
            hinted=presence.hinted,
            viewers_twice=presence.viewers_twice,
        )
    )


def after_commit_notify(table: Table, kind: str, details: dict | None = None) -> None:
    # Written in the move's transaction, sent after commit, sent again if the broker was
    # down (holmes_site/outbox.py): a committed move always ends in its notifications, once
    # each.
    if table.is_private:
        # A private table (a play-test) has its tester alone, at its page: nobody to tell.
        return
    outbox_enqueue(
        task="play.tasks.notify_table", args=[table.pk, kind, table.version, details or {}]
    )


def after_commit_tell_move(
    table: Table,
    before: dict,
    after: dict,
    events,
    presence: TablePresence | None,
    player=None,
    viewer_seats=None,
) -> None:
    """The move's push and notifications, by who was at the table when the move took its
    lock: a socket that opens after that misses this push, and finds the version by its
    first fetch. `player`, the seat that moved (or SYSTEM), is told nothing of its own move
    (play.tasks.notify_table)."""
    if presence is None:
        presence = table_presence(table_id=table.pk)
    after_commit_push(table, presence, mover=player, viewer_seats=viewer_seats)
    changes = get_site(table.engine).notices(before, after, events)
    bots = bot_seats(table)  # nobody to tell
    changes = [
        (kind, details)
        for kind, details in changes
        if not (kind == "your_turn" and details.get("player") in bots)
    ]
    # At the table, the page says so; away, they are told once (play/presence.py).
    told = [
        details["player"]
        for kind, details in changes
        if kind == "your_turn" and presence.your_turn_notice_due(details["player"])
    ]
    if told:
        your_turn_claim(table_id=table.pk, seats=told)
    actor = {"actor_seat": player} if isinstance(player, int) else {}
    for kind, details in changes:
        if kind != "your_turn" or details["player"] in told:
            after_commit_notify(table, kind, {**details, **actor})
