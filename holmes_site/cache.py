"""The Redis cache of the scaled set-up: Django's, with one redis-py client per pool.

Django's RedisCacheClient makes a new `redis.Redis` for every operation, and building one
costs about 50 µs of CPU, as much as the command it sends. The scaled site asks the cache
on every move (is anyone watching the table, has this player been told it is their
turn), so it keeps one client per connection pool instead: a redis-py client holds no
connection of its own and is safe to share between threads, and its pool reconnects in a
forked process.
"""

import functools

import redis
from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._clients = {}  # by the id of the pool they use, which lives as long as self

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient


@functools.lru_cache(maxsize=4)
def shared_client(url: str) -> redis.Redis:
    """One redis-py client (and its small pool) per URL and process, for the few direct
    questions the site asks Redis outside the cache: is it up (/readyz), how long is the
    task queue (/metrics). Short timeouts: an operator's page must not hang on Redis."""
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
