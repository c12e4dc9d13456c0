"""Throttling of log-in, sign-up, password reset, joining and 221B answers, one budget per
limit for the web views and the API alike (the DRF throttles below count in the web
views' keys), in the Django cache (Redis in the scaled set-up, so every web worker shares
the counts; the rates are REST_FRAMEWORK's DEFAULT_THROTTLE_RATES).

Counts are kept in a sliding window (`attempt`): no stretch of one period lets more than
the rate through, where fixed windows let twice the rate through across a window's edge.

Who is counted depends on the limit (`LOGGED_IN_COUNTS`): an anonymous visitor per client
address and per account named, a logged-in user per user, and, where a session of one's
own must buy no extra chances, per address and account too. Log-in is counted per client
address and per account (the username tried), whoever asks (a session is nobody's
password), with one budget for the site's log-in, the admin's and the API's token
endpoint: guessing one account's password from many addresses, or many accounts' from
one, both stop at the rate. Only failed log-ins count: an attempt whose posted username
and password logged that account in is taken back out (`login_succeeded`), so people
sharing one connection do not lock each other out by logging in. Password resets are
counted per e-mail address asked for and per address, logged in or not, and joining (the
invite code is a table's only key) per user and per address; every way of telling a
real code from a wrong one spends that budget (`budget_spent`). A client's
address is the connection's, unless that comes from a proxy listed in TRUSTED_PROXIES
(HOLMES_TRUSTED_PROXIES): only then is X-Forwarded-For read, from the right, and the first
address that is not a trusted proxy's is the client's. Otherwise a new X-Forwarded-For on
each request would be a new budget.

Both fail open: when the cache (Redis) cannot be reached, a request is let through and a
warning logged. A Redis outage must not lock every player out of logging in or moving;
the database and the rules still check every request.
"""

import contextlib
import functools
import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.dispatch import receiver
from django.shortcuts import render
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

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

# Whom a logged-in user's attempts count for, per scope: "user", "address" (the client's)
# and "account" (the one the request names). Anonymous attempts count per address and
# account. Guessing (a password, an invite code) and e-mailing someone must not get a
# fresh budget from a session or from many accounts; answers stay per user (players at
# one table often share a connection).
LOGGED_IN_COUNTS = {
    "login": ("address", "account"),  # whoever asks: only the account tried matters
    "password_reset": ("user", "address", "account"),
    "join": ("user", "address"),
}


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


def address_in(address: str, networks: tuple[str, ...]) -> bool:
    """Whether `address` lies in one of `networks` (addresses or networks, as settings
    name them: TRUSTED_PROXIES, METRICS_ADDRESSES)."""
    return _is_trusted(address, _trusted_networks(networks))


class ClientAddressMixin:
    """DRF throttles identify an anonymous client by `client_address` (DRF's own
    `get_ident` believes X-Forwarded-For from anyone unless NUM_PROXIES is set)."""

    def get_ident(self, request):
        return client_address(request)


class SharedLimitThrottle(ClientAddressMixin, BaseThrottle):
    """A DRF throttle that counts in the web views' budget for its `scope`
    (`limit_reached`): the API is no second budget for the same limit."""

    scope = ""

    def allow_request(self, request, view):
        self.tried = attempt(request, self.scope, account=self.account(request))
        return self.tried.allowed

    def account(self, request) -> str | None:
        return None

    def wait(self):
        tried = getattr(self, "tried", None)
        return tried.wait if tried is not None else _rate(self.scope)[1]


class JoinThrottle(SharedLimitThrottle):
    """Joining by invite code: the code is a table's only key, it must not be guessed."""

    scope = "join"


# Which moves the answer budget counts is each game's to say (its site's
# `throttled_actions`). The plumbing imports no game: play, which reads them, tells it when
# it starts (`answers_are`, in PlayConfig.ready).
_answer_types: list[Callable[[], Iterable[str]]] = []


def answers_are(types: Callable[[], Iterable[str]]) -> None:
    """`types()` gives the move types the answer budget counts. Given again, it replaces
    the first (apps' `ready()` may run more than once in tests)."""
    _answer_types[:] = [types]
    throttled_action_types.cache_clear()


@functools.cache
def throttled_action_types() -> frozenset[str]:
    return frozenset().union(*(types() for types in _answer_types))


def is_throttled_action(action) -> bool:
    """Whether a client's move is one the answer budget counts. Its type is checked to be
    text first: a list or an object there (unhashable) made the look-up in the set of
    types raise TypeError, a 500 from the API and a socket dropped without a close code."""
    kind = action.get("type") if isinstance(action, dict) else None
    return isinstance(kind, str) and kind in throttled_action_types()


class AnswerThrottle(SharedLimitThrottle):
    """Throttles answering moves only (each game's site names them: a guess must cost
    time), per user, in the "answers" scope; every other move goes through unthrottled."""

    scope = "answers"

    def allow_request(self, request, view):
        data = request.data
        action = data.get("action") if isinstance(data, dict) else None
        if not is_throttled_action(action):
            return True
        if not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class LoginThrottle(SharedLimitThrottle):
    """The API's token endpoint counts in the web log-in's budget: per address and per
    account, so the API is no second chance at a password. Only failures count: the
    endpoint forgets the attempt once the password was right (`login_succeeded`)."""

    scope = "login"

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)
        _remember_login_attempt(request, self.tried)
        return allowed

    def account(self, request) -> str | None:
        data = request.data
        return data.get(ACCOUNT_FIELDS["login"]) if hasattr(data, "get") else None


# --- The web views --------------------------------------------------------------------


def _rate(scope: str) -> tuple[int, int]:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]
    return SimpleRateThrottle.parse_rate(None, rate)


def web_limit_reached(request, scope: str) -> bool:
    """Count one attempt in `scope` (see `attempt`; the account is the one the form
    names); True once over the rate."""
    account = None
    if scope in ACCOUNT_FIELDS:
        account = request.POST.get(ACCOUNT_FIELDS[scope])
    return limit_reached(request, scope, account=account)


def limit_reached(request, scope: str, *, account=None) -> bool:
    """Count one attempt in `scope` (see `attempt`); True when it is refused."""
    return not attempt(request, scope, account=account).allowed


# A sliding window: a rate's period is cut into slices, and an attempt is let through when
# the slices that cover the whole period before it (the current one, and as many before it
# as make up the period, plus the oldest, partly past one) hold fewer than the rate. Any
# stretch of one period then lets the rate through at most, where fixed windows let twice
# the rate through across a window's edge; a refused client waits at most a period and a
# slice. Only the cache's atomic add and incr are needed, so every worker shares the count.
SLICES = 10


@dataclass
class Attempt:
    """One counted attempt: whether it is let through, how long to wait if not, and the
    cache keys it was counted in (to forget it again, `forget`)."""

    allowed: bool
    wait: int = 0
    keys: tuple[str, ...] = ()

    def forget(self) -> None:
        """Take the attempt back out of the count (a log-in that succeeded)."""
        try:
            for key in self.keys:
                _uncount(key)
        except cache_errors():
            logger.warning("Throttle cache unreachable: attempt not forgotten", exc_info=True)
        self.keys = ()


def attempt(request, scope: str, *, account=None) -> Attempt:
    """Count one attempt in `scope` for whom it counts (`LOGGED_IN_COUNTS`): this user,
    this address, the account named (a username, an e-mail: compared without case), or
    several of them. Refused once any of them has had the rate's worth in the last period;
    a refused attempt is not counted (a client that waits gets through again after the
    period, however often it knocked meanwhile).
    """
    return _attempt_in(scope, _counted(request, scope, account))


def user_attempt(user, scope: str) -> Attempt:
    """`attempt` for a logged-in user in a scope counted per user alone (answers), where
    there is a user but no request to hand: a move's one front door (play/moves.py)."""
    if LOGGED_IN_COUNTS.get(scope, ("user",)) != ("user",):
        raise ValueError(f"{scope} is not counted per user alone: use attempt()")
    return _attempt_in(scope, [f"user{user.pk}"])


def _attempt_in(scope: str, prefixes: list[str]) -> Attempt:
    allowed, period = _rate(scope)
    now = time.time()
    try:
        # Every key counts it, even when another is over: each budget is checked.
        windows = [_window_count(prefix, period, now) for prefix in prefixes]
    except cache_errors():
        logger.warning("Throttle cache unreachable: request let through", exc_info=True)
        return Attempt(allowed=True)
    keys = tuple(window.key for window in windows)
    over = [window for window in windows if window.total > allowed]
    if not over:
        return Attempt(allowed=True, keys=keys)
    Attempt(allowed=False, keys=keys).forget()
    return Attempt(allowed=False, wait=max(window.wait(allowed, now) for window in over))


def budget_spent(request, scope: str, *, account=None) -> bool:
    """Whether `scope`'s next attempt would be refused, without counting one: for a look-up
    that only a miss should pay for (an invite code), checked before looking, so that a
    spent budget answers alike for a real code and a wrong one."""
    allowed, period = _rate(scope)
    now = time.time()
    try:
        prefixes = _counted(request, scope, account)
        windows = [_window_count(prefix, period, now, count=False) for prefix in prefixes]
    except cache_errors():
        logger.warning("Throttle cache unreachable: request let through", exc_info=True)
        return False
    return any(window.total >= allowed for window in windows)


def _counted(request, scope: str, account) -> list[str]:
    """The cache keys' prefixes an attempt in `scope` counts in (`LOGGED_IN_COUNTS`)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counts = LOGGED_IN_COUNTS.get(scope, ("user",))
    else:
        counts = ("address", "account")
    counted = []
    if "user" in counts:
        counted.append(f"user{user.pk}")
    if "address" in counts:
        counted.append(f"ip{client_address(request)}")
    if "account" in counts and isinstance(account, str) and account.strip():
        name = account.strip().casefold().encode("utf-8", "replace")
        counted.append(f"account{hashlib.sha256(name).hexdigest()[:32]}")
    return [f"holmes-throttle:{scope}:{who}" for who in counted]


@dataclass(frozen=True)
class _Window:
    key: str  # the current slice's, where this attempt was counted
    total: int  # attempts in the window, this one included
    slices: list[int]  # counts per slice, oldest first, the current one last
    first: int  # the oldest slice's number
    width: float  # seconds per slice

    def wait(self, allowed: int, now: float) -> int:
        """Seconds until the oldest slices have left the window and one more attempt
        fits (this refused one is not counted)."""
        left = self.total - 1
        for age, count in enumerate(self.slices):
            left -= count
            if left < allowed:
                leaves_at = (self.first + age + len(self.slices)) * self.width
                return max(1, math.ceil(leaves_at - now))
        return max(1, math.ceil(self.width * len(self.slices)))


def _window_count(prefix: str, period: int, now: float, *, count: bool = True) -> _Window:
    """The window ending now, with one more attempt counted in its current slice (or, with
    `count` false, as it stands)."""
    width = period / SLICES
    current = int(now // width)
    first = current - SLICES
    key = f"{prefix}:{current}"
    older = [f"{prefix}:{number}" for number in range(first, current)]
    if count:
        counted = _count(key, timeout=math.ceil(period + 2 * width))
        found = cache.get_many(older)
    else:
        found = cache.get_many([*older, key])
        counted = int(found.get(key, 0))
    slices = [int(found.get(name, 0)) for name in older] + [counted]
    return _Window(key=key, total=sum(slices), slices=slices, first=first, width=width)


def _count(key: str, *, timeout: int) -> int:
    try:
        cache.add(key, 0, timeout=timeout)
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr: its slice had gone anyway
        return 1


def _uncount(key: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing left to take back
        cache.decr(key)


# --- Log-in: only failures count ------------------------------------------------------

_LOGIN_ATTEMPT = "_holmes_login_attempt"
_LOGGED_IN = "_holmes_logged_in"


def _remember_login_attempt(request, tried: Attempt) -> None:
    # On Django's request, under DRF's: the view may get either.
    setattr(getattr(request, "_request", request), _LOGIN_ATTEMPT, tried)


def login_succeeded(request) -> None:
    """The password was right: the attempt this request counted costs nothing. People on
    one connection must not lock each other out by logging in (issue 27)."""
    tried = getattr(getattr(request, "_request", request), _LOGIN_ATTEMPT, None)
    if tried is not None:
        tried.forget()


@receiver(user_logged_in, dispatch_uid="holmes-throttling-logged-in")
def _note_logged_in(sender, request=None, user=None, **kwargs):
    # Django's log-in views call login() only for the user their form authenticated, with
    # the username and password posted: that, not a session the request already had, is
    # a log-in that succeeded.
    if request is not None:
        setattr(getattr(request, "_request", request), _LOGGED_IN, user)


def login_throttle(view):
    """Decorator for the log-in views (the site's and the admin's): POSTs over the rate,
    per address and per account tried (logged in or not), answer 429 with a way forward;
    a POST that logs the account it names in is taken back out of the count, so only
    failed ones add up. A session the request came with is no success: a logged-in
    visitor's wrong guesses at someone else's password count like anyone's."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        tried = attempt(request, "login", account=request.POST.get(ACCOUNT_FIELDS["login"]))
        if not tried.allowed:
            return too_many(request, "login", wait=tried.wait)
        _remember_login_attempt(request, tried)
        response = view(request, *args, **kwargs)
        if getattr(request, _LOGGED_IN, None) is not None:
            login_succeeded(request)
        return response

    return wrapped


def too_many(request, scope: str, *, wait: int | None = None):
    """The 429 page, with a sentence that says what to do (for log-in: the password reset,
    for someone who has forgotten theirs)."""
    context = {"message": SENTENCES[scope], "scope": scope}
    response = render(request, "429.html", context, status=429)
    if wait:
        response["Retry-After"] = str(wait)
    return response


def web_throttle(scope: str):
    """Decorator for web views: POSTs over the scope's rate answer 429. Each POST let
    through counts, for every key of its scope (see `attempt`), whether it succeeds or
    not (log-in has its own, `login_throttle`)."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST":
                field = ACCOUNT_FIELDS.get(scope)
                account = request.POST.get(field) if field else None
                tried = attempt(request, scope, account=account)
                if not tried.allowed:
                    return too_many(request, scope, wait=tried.wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
