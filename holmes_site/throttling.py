"""Throttling of log-in, sign-up, password reset, joining and 221B answers: DRF throttles
for the API, a small limiter for the web views, both counting in the Django cache (Redis
in the scaled set-up, so every web worker shares the counts; the rates are
REST_FRAMEWORK's DEFAULT_THROTTLE_RATES).

Log-in is counted twice, per client address and per account (the username tried), with
one budget for the site's log-in, the admin's and the API's token endpoint: guessing one
account's password from many addresses, or many accounts' from one, both stop at the
rate. A client's address is the connection's, unless that comes from a proxy listed in
TRUSTED_PROXIES (HOLMES_TRUSTED_PROXIES): only then is X-Forwarded-For read, from the
right, and the first address that is not a trusted proxy's is the client's. Otherwise a
new X-Forwarded-For on each request would be a new budget.

Both fail open: when the cache (Redis) cannot be reached, a request is let through and a
warning logged. A Redis outage must not lock every player out of logging in or moving;
the database and the rules still check every request.
"""

import functools
import hashlib
import ipaddress
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle, SimpleRateThrottle

logger = logging.getLogger(__name__)

SENTENCES = {
    "login": "Too many log-in attempts from here or for this account: wait a minute and try again.",
    "signup": "Too many sign-ups from here: wait an hour and try again.",
    "password_reset": "Too many password resets asked for: wait an hour and try again.",
    "join": "Too many attempts to join a table: wait a minute and try again.",
    "answers": "Too many answers in a short time: Sherlock needs a minute to read them. "
    "Wait a moment and try again.",
}


# The form field that names the account a POST is about, in the scopes counted per account.
ACCOUNT_FIELDS = {"login": "username", "password_reset": "email"}


def cache_errors() -> tuple[type[BaseException], ...]:
    import redis.exceptions

    return (redis.exceptions.RedisError, OSError)


# --- The client's address --------------------------------------------------------------


def client_address(request) -> str:
    """The client's address: the connection's, or, when the connection comes from a
    trusted proxy, the last address of X-Forwarded-For that is not a trusted proxy's."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = _trusted_networks(tuple(settings.TRUSTED_PROXIES))
    if not proxies or not _is_trusted(remote, proxies):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed([part.strip() for part in forwarded.split(",")]):
        if _parsed(hop) is None:
            continue  # not an address: nothing a proxy of ours would write
        if not _is_trusted(hop, proxies):
            return hop
        remote = hop
    return remote


@functools.lru_cache(maxsize=8)
def _trusted_networks(proxies: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _parsed(address: str):
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _is_trusted(address: str, proxies: tuple) -> bool:
    parsed = _parsed(address)
    return parsed is not None and any(parsed in network for network in proxies)


class ClientAddressMixin:
    """DRF throttles identify an anonymous client by `client_address` (DRF's own
    `get_ident` believes X-Forwarded-For from anyone unless NUM_PROXIES is set)."""

    def get_ident(self, request):
        return client_address(request)


class FailOpenScopedRateThrottle(ClientAddressMixin, ScopedRateThrottle):
    """DRF's scoped throttle, letting requests through while the cache is unreachable."""

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except cache_errors():
            logger.warning("Throttle cache unreachable: request let through", exc_info=True)
            return True


@functools.cache
def _throttled_action_types() -> frozenset[str]:
    from games import GAMES
    from games.sites import get_site

    return frozenset().union(*(get_site(name).throttled_actions for name in GAMES))


class AnswerThrottle(SimpleRateThrottle):
    """Throttles answering moves only (each game's site names them: a guess must cost
    time), per user, in the "answers" scope; every other move goes through unthrottled."""

    scope = "answers"

    def get_cache_key(self, request, view):
        data = request.data
        action = data.get("action") if isinstance(data, dict) else None
        if not isinstance(action, dict) or action.get("type") not in _throttled_action_types():
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


class LoginThrottle(BaseThrottle):
    """The API's token endpoint counts in the web log-in's budget: per address and per
    account (`web_limit_reached`), so the API is no second chance at a password."""

    def allow_request(self, request, view):
        data = request.data
        account = data.get(ACCOUNT_FIELDS["login"]) if hasattr(data, "get") else None
        return not limit_reached(request, "login", account=account)

    def wait(self):
        return _rate("login")[1]


# --- The web views --------------------------------------------------------------------


def _rate(scope: str) -> tuple[int, int]:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]
    return SimpleRateThrottle.parse_rate(None, rate)


def web_limit_reached(request, scope: str) -> bool:
    """Count one attempt in `scope` for this user (or address, and the account the form
    names); True once over the rate."""
    account = None
    if scope in ACCOUNT_FIELDS:
        account = request.POST.get(ACCOUNT_FIELDS[scope])
    return limit_reached(request, scope, account=account)


def limit_reached(request, scope: str, *, account=None) -> bool:
    """Count one attempt in `scope` for this user, or for this address and the account
    named (a username, an e-mail: compared without case); True once any is over the rate.

    A fixed window: simple, shared through the cache, and enough to stop guessing.
    """
    allowed, period = _rate(scope)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counted = [f"user{user.pk}"]
    else:
        counted = [f"ip{client_address(request)}"]
        if isinstance(account, str) and account.strip():
            name = account.strip().casefold().encode("utf-8", "replace")
            counted.append(f"account{hashlib.sha256(name).hexdigest()[:32]}")
    window = int(time.time() // period)
    try:
        # Every key counts the attempt, even once one is over: no short cut around a count.
        counts = [_count(f"holmes-web-throttle:{scope}:{who}:{window}", period) for who in counted]
    except cache_errors():
        logger.warning("Throttle cache unreachable: request let through", exc_info=True)
        return False
    return max(counts) > allowed


def _count(key: str, period: int) -> int:
    try:
        cache.add(key, 0, timeout=period + 1)
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr: a new window begins
        return 1


def too_many(request, scope: str):
    """The 429 page, with a sentence that says what to do."""
    return render(request, "429.html", {"message": SENTENCES[scope]}, status=429)


def web_throttle(scope: str):
    """Decorator for web views: POSTs over the scope's rate answer 429. Each POST counts,
    for every key of its scope (see `limit_reached`), whether it succeeds or not."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST" and web_limit_reached(request, scope):
                return too_many(request, scope)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
