"""Settings for `python -m bench api`: the site's own settings, in production mode, with a
URLconf that adds the empty endpoint the benchmark compares the action endpoint with.

Production mode because that is what is measured: DEBUG off (no query log kept per
request), a real secret key and hosts. The benchmark speaks plain HTTP on the loopback, so
the HTTPS redirect is off; everything else comes from the environment exactly as for the
site (DATABASE_URL, HOLMES_SQLITE_PATH, REDIS_URL).
"""

import os
import uuid

os.environ.setdefault("HOLMES_DEBUG", "0")
# A fixed key for a throwaway set-up; varied enough for the production checks.
os.environ.setdefault(
    "HOLMES_SECRET_KEY",
    "bench-only-never-a-site-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ",
)
os.environ.setdefault("HOLMES_ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("HOLMES_SSL_REDIRECT", "0")
# Production wants the site's https address for links in e-mails (the bench's go to the
# console backend).
os.environ.setdefault("HOLMES_SITE_URL", "https://holmes.example")
# As `make up`: on PostgreSQL, a connection pool per process (see holmes_site.settings).
os.environ.setdefault("HOLMES_DB_POOL", "1")

from holmes_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.site_urls"

# With REDIS_URL (the PostgreSQL run), the bench's own queue, so that its worker takes
# only its own tasks and what is left at the end can be thrown away.
CELERY_TASK_DEFAULT_QUEUE = "holmes-bench"

# Each run its own keys in Redis, for the channel layer and the cache: a fresh database
# gives the next run's tables the same ids, and they must not meet the marks a run left
# (throttle counts) nor hear its groups. Set here, in the
# process that prepares the run, before it starts the server and the worker (they inherit
# it).
RUN_KEYS = os.environ.setdefault("HOLMES_BENCH_RUN", f"holmes-bench-{uuid.uuid4().hex[:12]}")
if REDIS_URL:  # noqa: F405
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = RUN_KEYS  # noqa: F405
    CACHES["default"]["KEY_PREFIX"] = RUN_KEYS  # noqa: F405
