"""/metrics's queue depth in the scaled set-up: the tasks waiting in the broker's queue on
a real Redis, as a node reads them at each scrape (holmes_site/metrics.py)."""

import re
import uuid

import pytest
import redis

from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, redis_problem


@pytest.mark.django_db
def test_it_reads_how_many_tasks_wait_in_the_queue(client, settings):
    require_service("Redis", redis_problem())
    queue = f"holmes-test-{uuid.uuid4().hex[:8]}"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = REDIS_URL
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    broker = redis.Redis.from_url(REDIS_URL)
    try:
        broker.rpush(queue, "a task", "another", "a third")

        body = client.get("/metrics").content.decode()
    finally:
        broker.delete(queue)

    assert re.search(r"^holmes_tasks_queued 3\.0$", body, re.MULTILINE), body
