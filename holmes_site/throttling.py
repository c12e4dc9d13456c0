"""Throttling of log-in, joining and 221B answers: DRF throttles for the API, a small
limiter for the web views, both counting in the Django cache (Redis in the scaled set-up,
so every web worker shares the counts; the rates are REST_FRAMEWORK's
DEFAULT_THROTTLE_RATES).

Both fail open: when the cache (Redis) cannot be reached, a request is let through and a
warning logged. A Redis outage must not lock every player out of logging in or moving;
the database and the rules still check every request.
"""

import functools
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

logger = logging.getLogger(__name__)

SENTENCES = {
    "login": "Too many log-in attempts from here: wait a minute and try again.",
    "join": "Too many attempts to join a table: wait a minute and try again.",
    "answers": "Too many answers in a short time: Sherlock needs a minute to read them. "
    "Wait a moment and try again.",
}


def cache_errors() -> tuple[type[BaseException], ...]:
    import redis.exceptions

    return (redis.exceptions.RedisError, OSError)


class FailOpenScopedRateThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, letting requests through while the cache is unreachable."""

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except cache_errors():
            logger.warning("Throttle cache unreachable: request let through", exc_info=True)
            return True


class AnswerThrottle(SimpleRateThrottle):
    """Throttles `answer` moves only (221B attempts), per user, in the "answers" scope;
    every other move goes through unthrottled."""

    scope = "answers"

    def get_cache_key(self, request, view):
        data = request.data
        action = data.get("action") if isinstance(data, dict) else None
        if not isinstance(action, dict) or action.get("type") != "answer":
            return None
        if not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except cache_errors():
            logger.warning("Throttle cache unreachable: request let through", exc_info=True)
            return True


# --- The web views --------------------------------------------------------------------


def _rate(scope: str) -> tuple[int, int]:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]
    return SimpleRateThrottle.parse_rate(None, rate)


def web_limit_reached(request, scope: str) -> bool:
    """Count one attempt in `scope` for this user (or address); True once over the rate.

    A fixed window: simple, shared through the cache, and enough to stop guessing.
    """
    allowed, period = _rate(scope)
    user = getattr(request, "user", None)
    who = f"user{user.pk}" if user is not None and user.is_authenticated else None
    who = who or f"ip{request.META.get('REMOTE_ADDR', '')}"
    key = f"holmes-web-throttle:{scope}:{who}:{int(time.time() // period)}"
    try:
        cache.add(key, 0, timeout=period + 1)
        count = cache.incr(key)
    except ValueError:  # the key expired between add and incr: a new window begins
        count = 1
    except cache_errors():
        logger.warning("Throttle cache unreachable: request let through", exc_info=True)
        return False
    return count > allowed


def too_many(request, scope: str):
    """The 429 page, with a sentence that says what to do."""
    return render(request, "429.html", {"message": SENTENCES[scope]}, status=429)


def web_throttle(scope: str):
    """Decorator for web views: POSTs over the scope's rate answer 429."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST" and web_limit_reached(request, scope):
                return too_many(request, scope)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
