"""The Celery application.

In the embedded default (no REDIS_URL) tasks run eagerly, inline, so `make run` needs no
broker; with REDIS_URL they go to Redis and a `celery worker` runs them.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")

app = Celery("holmes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
