"""Presence on the cache the scaled set-up uses: Redis, shared by every web process.

The other presence tests run on the in-memory cache; Redis stores the counter differently
(a raw integer that INCR and DECR change, with its own expiry), so it is checked on a real
Redis, in a database of its own."""

import uuid

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings

from play import presence
from tests.conftest import require_service
from tests.integration.conftest import REDIS_URL, redis_problem

REDIS_CACHE = {
    "default": {
        "BACKEND": "holmes_site.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"presence-test-{uuid.uuid4().hex}",
    }
}


@pytest.fixture
def redis_cache(monkeypatch):
    require_service("Redis", redis_problem())
    with override_settings(CACHES=REDIS_CACHE):
        cache = caches.create_connection("default")
        monkeypatch.setattr(presence, "cache", cache)
        yield cache
        cache.clear()


def test_it_counts_sockets_per_seat_in_redis(redis_cache):
    at_table = lambda: presence.is_at_table(table_id=7, seat=2)  # noqa: E731
    assert not at_table()
    presence.presence_arrive(table_id=7, seat=2)
    presence.presence_arrive(table_id=7, seat=2)
    assert at_table()
    assert not presence.is_at_table(table_id=7, seat=1)
    presence.presence_leave(table_id=7, seat=2)
    assert at_table()
    presence.presence_leave(table_id=7, seat=2)
    assert not at_table()


def expiry(cache, key: str) -> int:
    """Seconds until Redis drops `key` (-1: never, -2: no such key)."""
    return redis.Redis.from_url(REDIS_URL).ttl(cache.make_key(key))


def test_it_gives_every_mark_an_expiry_in_redis(redis_cache):
    key = presence.presence_key(7, 2)
    presence.presence_arrive(table_id=7, seat=2)
    presence.presence_arrive(table_id=7, seat=2)
    assert 0 < expiry(redis_cache, key) <= presence.PRESENCE_SECONDS
    redis_cache.delete(key)  # expired while the socket stayed open
    presence.presence_refresh(table_id=7, seat=2)
    assert presence.is_at_table(table_id=7, seat=2)
    assert 0 < expiry(redis_cache, key) <= presence.PRESENCE_SECONDS
    # A leave after its counter expired must not leave a counter that never expires.
    redis_cache.delete(key)
    presence.presence_leave(table_id=7, seat=2)
    presence.presence_arrive(table_id=7, seat=2)
    assert presence.is_at_table(table_id=7, seat=2)
    assert 0 < expiry(redis_cache, key) <= presence.PRESENCE_SECONDS


def test_it_claims_a_your_turn_notice_once_with_an_expiry_in_redis(redis_cache):
    def due() -> bool:
        marks = presence.move_marks(table_id=7, turn_seats=[2])
        return presence.your_turn_notice_due(marks=marks, table_id=7, seat=2)

    assert due()
    assert not due()
    told = presence.told_key(7, 2)
    assert 0 < expiry(redis_cache, told) <= presence.YOUR_TURN_QUIET_SECONDS
    presence.presence_arrive(table_id=7, seat=2)
    assert not due()
    presence.presence_leave(table_id=7, seat=2)  # their last socket: away again
    assert expiry(redis_cache, told) == -2
    assert due()


def test_it_counts_the_sockets_watching_a_table_in_redis(redis_cache):
    watched = lambda: presence.anyone_watching(table_id=7)  # noqa: E731
    assert not watched()
    presence.watching_start(table_id=7)
    presence.watching_start(table_id=7)
    assert 0 < expiry(redis_cache, presence.watchers_key(7)) <= presence.PRESENCE_SECONDS
    presence.watching_stop(table_id=7)
    assert watched()
    presence.watching_stop(table_id=7)
    assert not watched()
