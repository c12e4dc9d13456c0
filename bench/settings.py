"""Settings for `python -m bench api`: the site's own settings, in production mode, with a
URLconf that adds the empty endpoint the benchmark compares the action endpoint with.

Production mode because that is what is measured: DEBUG off (no query log kept per
request), a real secret key and hosts. The benchmark speaks plain HTTP on the loopback, so
the HTTPS redirect is off; everything else comes from the environment exactly as for the
site (DATABASE_URL, HOLMES_SQLITE_PATH, REDIS_URL).
"""

import os

os.environ.setdefault("HOLMES_DEBUG", "0")
os.environ.setdefault("HOLMES_SECRET_KEY", "bench-" + "only-a-benchmark-never-a-site-" * 3)
os.environ.setdefault("HOLMES_ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("HOLMES_SSL_REDIRECT", "0")
# As `make up`: on PostgreSQL, a connection pool per process (see holmes_site.settings).
os.environ.setdefault("HOLMES_DB_POOL", "1")

from holmes_site.settings import *  # noqa: E402, F403

ROOT_URLCONF = "bench.site_urls"

# With REDIS_URL (the PostgreSQL run), the bench's own queue, so that its worker takes
# only its own tasks and what is left at the end can be thrown away.
CELERY_TASK_DEFAULT_QUEUE = "holmes-bench"

# Its own keys in Redis for the channel layer too: a run never hears another's groups.
if REDIS_URL:  # noqa: F405
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = "holmes-bench"  # noqa: F405
