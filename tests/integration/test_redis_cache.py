"""The scaled set-up's cache (holmes_site/cache.py) on a real Redis: Django's Redis cache,
sharing one client per connection pool instead of building one per operation."""

import os
import uuid

from django.core.cache import caches
from django.test import override_settings

from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, redis_problem

CACHES = {
    "default": {
        "BACKEND": "holmes_site.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"cache-test-{uuid.uuid4().hex}",
    }
}


def test_it_answers_every_operation_through_one_shared_client():
    require_service("Redis", redis_problem())
    with override_settings(CACHES=CACHES):
        cache = caches.create_connection("default")
        try:
            assert cache.add("counter", 1, 60) and not cache.add("counter", 5, 60)
            assert cache.incr("counter") == 2
            cache.set("mark", {"seat": 2}, 60)
            assert cache.get_many(["counter", "mark", "absent"]) == {
                "counter": 2,
                "mark": {"seat": 2},
            }
            cache.delete("mark")
            assert cache.get("mark") is None
            client = cache._cache.get_client
            assert client() is client(write=True) is client("counter")
        finally:
            cache.delete_many(["counter", "mark"])


def test_it_still_works_in_a_forked_process():
    # Gunicorn and Celery fork their workers after the parent may have used the cache.
    require_service("Redis", redis_problem())
    with override_settings(CACHES=CACHES):
        cache = caches.create_connection("default")
        try:
            cache.set("before-fork", 1, 60)
            child = os.fork()
            if child == 0:  # the child: its own connections through the shared client
                ok = cache.get("before-fork") == 1 and cache.add("from-child", 1, 60)
                os._exit(0 if ok else 1)
            _, status = os.waitpid(child, 0)
            assert os.waitstatus_to_exitcode(status) == 0
            assert cache.get("from-child") == 1
        finally:
            cache.delete_many(["before-fork", "from-child"])
