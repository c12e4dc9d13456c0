"""Nothing runs on a clock (issue 42): a site where no one plays queues no task, and what
a lost task missed is still done, by the checks queued along with the work itself (a
wake-up's backstop, the outbox's check) and by what a worker queues as it connects.

Celery here is as when scaled, not eager: every task the site sends is recorded as it is
published (to the in-memory broker). A test runs a recorded task as a worker would, or
never runs it, as a worker killed while holding it would not.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import import_module

import pytest
from celery import current_app
from celery.signals import before_task_publish
from django.conf import settings

from accounts.models import Notification
from games import GAMES
from holmes_site import outbox
from holmes_site.models import OutboxMessage
from play import services, tasks
from play.models import Table
from play.services import side_effects
from tests.play import nim


@dataclass
class Sent:
    task: str
    args: list
    kwargs: dict
    eta: datetime | None

    def run(self):
        """As a worker runs it."""
        return task(self.task).apply(args=self.args, kwargs=self.kwargs).get()


def task(name: str):
    import_module(name.rsplit(".", 1)[0])
    return current_app.tasks[name]


class Broker(list):
    """What was published, in order."""

    def take(self, name: str) -> list[Sent]:
        """The messages of task `name` sent so far, taken off the list."""
        taken = [sent for sent in self if sent.task == name]
        self[:] = [sent for sent in self if sent.task != name]
        return taken


class Clock:
    """Time passing for the outbox's checks: the process's monotonic clock, and the rows'
    times in the database."""

    def __init__(self, monkeypatch):
        self.now = 1000.0
        monkeypatch.setattr(outbox.time, "monotonic", lambda: self.now)

    def later(self, seconds: float) -> None:
        self.now += seconds
        back = timedelta(seconds=seconds)
        for row in OutboxMessage.objects.all():
            row.created_at -= back
            if row.redelivered_at is not None:
                row.redelivered_at -= back
            row.save(update_fields=["created_at", "redelivered_at"])


@pytest.fixture
def broker(monkeypatch):
    sent = Broker()

    def record(sender=None, body=None, headers=None, **_):
        args, kwargs, _embed = body
        eta = headers.get("eta")
        sent.append(Sent(sender, list(args), dict(kwargs), eta and datetime.fromisoformat(eta)))

    before_task_publish.connect(record, weak=False)
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    monkeypatch.setattr(outbox._checks, "covered_until", 0.0)
    monkeypatch.setattr(side_effects, "_backstops", [])
    yield sent
    current_app.conf.task_always_eager = eager
    before_task_publish.disconnect(record)


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


@pytest.fixture
def nim_game(monkeypatch, settings):
    monkeypatch.setitem(GAMES, nim.NAME, nim.GAME)
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def table_against_a_bot(alice) -> Table:
    table = services.table_create(host=alice, game="nim", options={"heap": 20})
    services.seat_add_bot(table_id=table.pk, user=alice)
    return services.table_start(table_id=table.pk, user=alice)


def connect() -> None:
    """What a worker queues as it connects, run."""
    for entry in settings.HOLMES_WORKER_CONNECT_TASKS:
        task(entry["task"]).apply(kwargs=entry.get("kwargs", {})).get()


# --- Idle ---------------------------------------------------------------------------------


def test_there_is_no_beat_schedule():
    assert not getattr(settings, "CELERY_BEAT_SCHEDULE", None)
    assert not current_app.conf.beat_schedule


def test_an_idle_site_queues_nothing_when_a_worker_connects(db, broker):
    connect()
    assert broker == []


def test_a_finished_games_checks_queue_nothing_more(
    nim_game, alice, broker, clock, django_capture_on_commit_callbacks
):
    """Play a table out, running every task as a worker would: once the game is over
    and every row delivered, the last checks find nothing and queue nothing."""
    table = table_against_a_bot(alice)
    for _ in range(200):
        table.refresh_from_db()
        if table.state["winner"] is not None and not broker:
            break
        if broker:
            clock.later(60)  # every task comes to its time
            with django_capture_on_commit_callbacks(execute=True):
                broker.pop(0).run()
        else:
            with django_capture_on_commit_callbacks(execute=True):
                services.game_apply_action(
                    table_id=table.pk, player=0, action={"type": "take", "count": 1}
                )
    assert table.state["winner"] is not None
    assert broker == []
    assert not OutboxMessage.objects.filter(delivered_at__isnull=True).exists()


# --- The tables' wake-ups --------------------------------------------------------------------


def test_a_wake_up_whose_task_was_dropped_is_done_by_its_backstop(
    nim_game, alice, broker, django_capture_on_commit_callbacks
):
    tables = [table_against_a_bot(alice) for _ in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables:
            services.game_apply_action(
                table_id=table.pk, player=0, action={"type": "take", "count": 1}
            )
    wakes = broker.take("play.tasks.table_wake")
    assert len(wakes) == 2
    # One sweep backs both up, a little after their time.
    [backstop] = broker.take("play.tasks.tables_wake_due")
    first = min(Table.objects.get(pk=table.pk).wake_at for table in tables)
    assert first + timedelta(seconds=9) < backstop.eta <= first + timedelta(seconds=11)

    # The wake-ups are never run (a worker killed holding them): the backstop does them.
    with django_capture_on_commit_callbacks(execute=True):
        backstop.run()
    for table in tables:
        table.refresh_from_db()
        assert table.state["heap"] < 19 and table.state["turn"] == 0  # the bot took its turn


def test_a_worker_that_connects_queues_every_waiting_tables_wake_up_again(
    nim_game, alice, bob, broker
):
    table = services.table_create(
        host=alice, game="nim", options={"heap": 10}, turn_timer_seconds=60
    )
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)

    connect()
    # Its outbox row, never delivered here, is sent again too; and the wake-up itself:
    [wake] = [sent for sent in broker.take("play.tasks.table_wake") if sent.eta]
    assert wake.args == [table.pk, table.version]
    assert abs(wake.eta - table.wake_at) < timedelta(seconds=1)
    [backstop] = broker.take("play.tasks.tables_wake_due")
    assert backstop.eta > table.wake_at


def test_a_wake_up_that_comes_early_is_queued_again_for_its_time(nim_game, alice, bob, broker):
    table = services.table_create(
        host=alice, game="nim", options={"heap": 10}, turn_timer_seconds=60
    )
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)

    # As the outbox sends a row again: at once, without its countdown.
    tasks.table_wake.apply(args=[table.pk, table.version]).get()
    assert Table.objects.get(pk=table.pk).version == table.version  # too soon: nothing
    [wake] = broker.take("play.tasks.table_wake")
    assert abs(wake.eta - table.wake_at) < timedelta(seconds=1)
    assert broker.take("play.tasks.tables_wake_due")


# --- The outbox -----------------------------------------------------------------------------


def test_an_outbox_row_whose_task_fails_is_sent_again_until_delivered(
    started, broker, clock, monkeypatch, django_capture_on_commit_callbacks
):
    real_send = tasks.notifications_send
    failures = []

    def fails_twice(**kwargs):
        if len(failures) < 2:
            failures.append(kwargs["dedupe_key"])
            raise RuntimeError("the mail server is down")
        return real_send(**kwargs)

    monkeypatch.setattr(tasks, "notifications_send", fails_twice)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=started.pk, player=started.state["turn"], action={"type": "carriage_stop"}
        )
    [row] = OutboxMessage.objects.filter(task="play.tasks.notify_table")
    [check] = broker.take("holmes_site.tasks.outbox_redeliver")

    for attempt in range(3):
        [notify] = broker.take("play.tasks.notify_table")
        if attempt < 2:
            with pytest.raises(RuntimeError):
                notify.run()
        else:
            notify.run()
        clock.later(45)  # the check's time
        check.run()
        checks = broker.take("holmes_site.tasks.outbox_redeliver")
        if attempt < 2:  # it sent the row again, and armed the next check
            [check] = checks
        else:
            assert checks == []  # all delivered: nothing more

    row.refresh_from_db()
    assert row.delivered_at is not None and row.redeliveries == 2
    assert Notification.objects.filter(dedupe_key=failures[0]).count() == 1
    assert broker == []


def test_a_row_the_broker_refused_goes_with_the_next_check(
    started, broker, clock, monkeypatch, django_capture_on_commit_callbacks
):
    import kombu.exceptions

    def refused(*args, **kwargs):
        raise kombu.exceptions.OperationalError("Redis is down")

    turn = started.state["turn"]
    with monkeypatch.context() as down:
        down.setattr(task("play.tasks.notify_table"), "apply_async", refused)
        with django_capture_on_commit_callbacks(execute=True):
            services.game_apply_action(
                table_id=started.pk, player=turn, action={"type": "carriage_stop"}
            )
    assert broker == []  # neither the row nor a check reached the broker
    refused_row = OutboxMessage.objects.get(task="play.tasks.notify_table")

    # The next row this process sends arms a check, which sends the refused one too.
    clock.later(5)
    turn = Table.objects.get(pk=started.pk).state["turn"]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=started.pk, player=turn, action={"type": "carriage_stop"}
        )
    [check] = broker.take("holmes_site.tasks.outbox_redeliver")
    for notify in broker.take("play.tasks.notify_table"):
        notify.run()
    clock.later(45)
    check.run()
    [again] = broker.take("play.tasks.notify_table")
    assert again.kwargs["outbox_id"] == refused_row.pk
    again.run()
    refused_row.refresh_from_db()
    assert refused_row.delivered_at is not None
