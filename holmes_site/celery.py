"""The Celery application.

In the embedded default (no REDIS_URL) tasks run eagerly, inline, so `make run` needs no
broker; with REDIS_URL they go to Redis and a `celery worker` runs them.

There is no Celery beat: nothing runs on a clock (issue 42: an idle site does no periodic
work). What a lost task missed is found by checks queued along with the work itself (the
outbox's, holmes_site/outbox.py; the tables' wake-ups', play/services/side_effects.py),
and by what a worker asks for each time it connects to the broker (`OnConnect`).
"""

import logging
import os

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")

logger = logging.getLogger(__name__)


class OnConnect(bootsteps.StartStopStep):
    """Queue settings.HOLMES_WORKER_CONNECT_TASKS whenever the worker's consumer starts:
    at the worker's start, and again when Redis comes back after an outage (Celery
    restarts the consumer's steps on a new connection). What a dead worker held, or what
    could not be sent while Redis was down, is then sent again: tasks are idempotent."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, consumer) -> None:
        from django.conf import settings

        entries = settings.HOLMES_WORKER_CONNECT_TASKS
        for entry in entries:
            # A connection error here restarts the consumer, and this step with it.
            consumer.app.send_task(
                entry["task"], kwargs=entry.get("kwargs", {}), countdown=entry.get("countdown")
            )
        logger.info("Connected: queued %d checks of what a lost task missed", len(entries))


app = Celery("holmes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(OnConnect)
app.autodiscover_tasks()
