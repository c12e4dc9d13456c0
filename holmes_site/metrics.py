"""What an operator's Prometheus reads at /metrics: counts kept as things happen, and
readings taken when it asks.

Counts (moves applied and refused, how long a move took) are kept by the process that saw
them. Under `make up` several web processes serve the site, so the counts live in
prometheus-client's multiprocess files when PROMETHEUS_MULTIPROC_DIR is set (`make up`
sets it) and are summed at each scrape; without it (`make run`, tests) they live in the
process. Readings (open sockets, tasks queued, judgements waiting) are asked of the
database and Redis at scrape time, so every node reports the same figure and nothing runs
while nobody asks.

Apps register their readings in their `ready()` (holmes_site names no app above it):
`metrics.add_reading("holmes_open_sockets", "…", count_open_sockets)`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from .cache import shared_client

__all__ = [
    "CONTENT_TYPE",
    "MOVES_APPLIED",
    "MOVES_REFUSED",
    "MOVE_SECONDS",
    "add_reading",
    "exposition",
]

log = logging.getLogger(__name__)

MOVES_APPLIED = Counter("holmes_moves_applied", "Moves applied to a table, by game.", ["game"])
MOVES_REFUSED = Counter(
    "holmes_moves_refused",
    "Moves not applied, by game and why: refused by the rules, stale, throttled, not seated.",
    ["game", "outcome"],
)
MOVE_SECONDS = Histogram(
    "holmes_move_seconds",
    "Time from a move's arrival to its outcome, in the server, by game.",
    ["game"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CONTENT_TYPE = CONTENT_TYPE_LATEST


@dataclass(frozen=True)
class Reading:
    name: str
    documentation: str
    read: Callable[[], float]


_readings: dict[str, Reading] = {}


def add_reading(name: str, documentation: str, read: Callable[[], float]) -> None:
    """A gauge taken at each scrape by calling `read()`; registering a name again
    replaces it (apps' `ready()` may run more than once in tests)."""
    _readings[name] = Reading(name, documentation, read)


class _ReadingsCollector:
    def collect(self):
        for reading in list(_readings.values()):
            try:
                value = float(reading.read())
            except Exception:  # a reading that fails is left out, never the whole page
                log.warning("metrics: the reading %s failed", reading.name, exc_info=True)
                continue
            yield GaugeMetricFamily(reading.name, reading.documentation, value=value)


def tasks_queued() -> int:
    """Celery tasks waiting in the broker's default queue (a Redis list); none is queued
    in the embedded set-up, where tasks run at once."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return 0
    return shared_client(settings.CELERY_BROKER_URL).llen(settings.CELERY_TASK_DEFAULT_QUEUE)


add_reading("holmes_tasks_queued", "Celery tasks waiting for a worker.", tasks_queued)


def exposition() -> bytes:
    """The text Prometheus reads: the counts (summed over processes when they share a
    multiprocess directory) and this scrape's readings."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:  # this process's counts alone
        for collector in (MOVES_APPLIED, MOVES_REFUSED, MOVE_SECONDS):
            registry.register(collector)
    registry.register(_ReadingsCollector())
    return generate_latest(registry)
