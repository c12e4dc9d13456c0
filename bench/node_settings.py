"""Settings for `python -m bench nodes`: the bench's settings (bench/settings.py), with the
run's own Celery queue, so that a nodes run and a load run on the same Redis never take
or throw away each other's tasks."""

import os

from bench.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ.get("HOLMES_BENCH_QUEUE", "holmes-bench-nodes")
