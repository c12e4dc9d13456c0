"""Health for operators and load balancers.

- `/healthz`: the process answers. It touches nothing else, so a database outage does not
  make a balancer take every node out at once and restart them in a loop.
- `/readyz`: this node can serve: the database and (in the scaled set-up) Redis answer.
  503 with a sentence naming what is missing; a balancer sends no player to such a node.
- `/metrics`: Prometheus's text (holmes_site/metrics.py), only to the addresses in
  HOLMES_METRICS_ADDRESSES (loopback by default); anyone else gets a 404.

None of them needs a session or a user, and none is throttled: a balancer asks every
second or two from one address.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from . import metrics
from .cache import shared_client
from .throttling import address_in, client_address

__all__ = ["healthz", "metrics_page", "readyz"]

log = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request):
    return _text("ok\n")


@never_cache
@require_safe
def readyz(request):
    problems = [problem for check in (_database_problem, _redis_problem) if (problem := check())]
    if problems:
        return _text("Not ready: " + "; ".join(problems) + ".\n", status=503)
    return _text("ready\n")


@never_cache
@require_safe
def metrics_page(request):
    if not address_in(client_address(request), tuple(settings.METRICS_ADDRESSES)):
        raise Http404  # not a page the world needs to know of
    return HttpResponse(metrics.exposition(), content_type=metrics.CONTENT_TYPE)


def _database_problem() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any failure means "not ready"; the log has the details
        log.warning("readyz: the database cannot be reached: %s", error)
        connection.close_if_unusable_or_obsolete()
        return f"the database cannot be reached ({type(error).__name__})"
    return None


def _redis_problem() -> str | None:
    if not settings.REDIS_URL:
        return None  # the embedded set-up has no Redis to wait for
    try:
        shared_client(settings.REDIS_URL).ping()
    except Exception as error:
        log.warning("readyz: Redis cannot be reached: %s", error)
        return f"Redis cannot be reached ({type(error).__name__})"
    return None


def _text(body: str, status: int = 200) -> HttpResponse:
    return HttpResponse(body, status=status, content_type="text/plain; charset=utf-8")
