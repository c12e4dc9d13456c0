"""Settings for Holmes, read from environment variables.

Two set-ups share this file (see README, "Configuration"):
- the embedded default (`make run`, `make test`): SQLite, eager Celery, in-memory channel
  layer, console e-mail; nothing to install but Python;
- the scaled set-up, switched on by DATABASE_URL and REDIS_URL: PostgreSQL, a Redis broker
  for Celery workers, channels-redis and a Redis cache.
HOLMES_DEBUG=0 is production: it refuses to start without a real secret key and hosts.
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from games import GAMES

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Mode and secrets -----------------------------------------------------------------

DEBUG = env_bool("HOLMES_DEBUG", True)
DEVELOPMENT_SECRET_KEY = "django-insecure-holmes-development-key-never-use-in-production"
SECRET_KEY = env_str("HOLMES_SECRET_KEY", DEVELOPMENT_SECRET_KEY if DEBUG else "")
ALLOWED_HOSTS = env_list("HOLMES_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("HOLMES_CSRF_TRUSTED_ORIGINS")


def _networks(variable: str, entries: list[str]) -> list[str]:
    """Addresses or networks named in a HOLMES_* variable, each checked at start-up."""
    import ipaddress

    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{variable}: {entry!r} is not an address or a network (e.g. 127.0.0.1,10.0.0.0/8)."
            ) from None
    return entries


# The proxies whose X-Forwarded-For the throttles believe (holmes_site/throttling.py). None
# by default: then the header is the client's own word.
TRUSTED_PROXIES = _networks("HOLMES_TRUSTED_PROXIES", env_list("HOLMES_TRUSTED_PROXIES"))
# Who may read /metrics (holmes_site/health.py): the machine itself unless told otherwise.
METRICS_ADDRESSES = _networks(
    "HOLMES_METRICS_ADDRESSES", env_list("HOLMES_METRICS_ADDRESSES", ["127.0.0.0/8", "::1"])
)


# A random key of 50 characters or more holds far more distinct ones than this (a key of
# secrets.token_urlsafe(50) about 40); sixty times "k" is long but no secret.
MIN_SECRET_KEY_CHARACTERS = 20


def _refuse_unsafe_production() -> None:
    """Production must not start on development defaults: say exactly what is missing."""
    if (
        SECRET_KEY.startswith("django-insecure")
        or len(SECRET_KEY) < 50
        or len(set(SECRET_KEY)) < MIN_SECRET_KEY_CHARACTERS
    ):
        raise ImproperlyConfigured(
            "HOLMES_DEBUG is off, so HOLMES_SECRET_KEY must be set to a random value of at "
            f"least 50 characters, {MIN_SECRET_KEY_CHARACTERS} of them different "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "HOLMES_DEBUG is off, so HOLMES_ALLOWED_HOSTS must list the site's host names "
            "(comma-separated)."
        )
    if "*" in ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "HOLMES_DEBUG is off, so HOLMES_ALLOWED_HOSTS must name the site's hosts, not *: "
            "any Host header would be believed (in password reset links, among others)."
        )


if not DEBUG:
    _refuse_unsafe_production()

# --- Applications ---------------------------------------------------------------------

# daphne's app makes `runserver` serve ASGI (websockets too), and must come first. It
# imports Twisted, Autobahn and cryptography on the way: 33 MB and 0.2 s in every
# process that loads the settings, web workers and Celery workers included, which
# serve through uvicorn (holmes_site/serve.py) or not at all. So only runserver gets it.
RUNSERVER = sys.argv[1:2] == ["runserver"]

INSTALLED_APPS = [
    *(["daphne"] if RUNSERVER else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, not a CDN
    "channels",
    "django_htmx",
    "csp",
    # The plumbing below every app (the outbox's rows), then the apps, lowest first.
    "holmes_site",
    "accounts",
    "cases",
    "authoring",
    "play",
    # Each game's folder is an app too, for its templates and static files.
    "games",
    *(f"games.{name}" for name in GAMES),
]

MIDDLEWARE = [
    # First: the request id is known to every later middleware's log lines.
    "holmes_site.middleware.RequestLogMiddleware",
    "holmes_site.middleware.ApiJsonErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so that it sees the views' exceptions first: no database means 503, not 500.
    "holmes_site.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "holmes_site.urls"
WSGI_APPLICATION = "holmes_site.wsgi.application"
ASGI_APPLICATION = "holmes_site.asgi.application"
AUTH_USER_MODEL = "accounts.User"
# Log-in takes the username in any case, as sign-up compares names (accounts/backends.py).
AUTHENTICATION_BACKENDS = ["accounts.backends.UsernameAnyCaseBackend"]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "holmes_site" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.views.unread_notifications",
                "accounts.views.auth_links",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=env_int("HOLMES_DB_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
    if "postgresql" in DATABASES["default"]["ENGINE"] and env_bool("HOLMES_DB_PREPARED", True):
        # Values bound by the server, and a statement run 5 times on a connection is
        # prepared there: PostgreSQL then parses and plans it once per connection, not
        # once per request. That halved the database's CPU per move (`make bench`, api:
        # 2.3 to 1.1 ms). Off behind a pooler that hands a connection to another client
        # between transactions (PgBouncer's transaction mode), which prepared statements
        # would not survive.
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
    # ASGI (uvicorn, the scaled set-up) serves each request in a thread of its own, and a
    # kept connection per thread soon exhausts PostgreSQL's max_connections ("too many
    # clients"). A pool per process instead: connections return to it after each request.
    if env_bool("HOLMES_DB_POOL", False) and "postgresql" in DATABASES["default"]["ENGINE"]:
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
        # Not a health check (a round trip) each time a request takes a connection: the
        # pool drops broken connections itself when they are given back.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": env_int("HOLMES_DB_POOL_SIZE", 8),
            "timeout": 10,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("HOLMES_SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN, so two writers queue on the busy
                # timeout instead of failing with "database is locked" when one upgrades
                # its read lock mid-transaction. WAL lets readers go on during a write.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Kept between requests, as on PostgreSQL: opening one per request costs the
            # open, the pragmas, and, when it was the last, a checkpoint of the WAL.
            "CONN_MAX_AGE": env_int("HOLMES_DB_CONN_MAX_AGE", 60),
            # A file, not memory: concurrency tests need real locking between connections.
            # One per process, so that two test runs on one machine never share it.
            "TEST": {
                "NAME": env_str(
                    "HOLMES_SQLITE_TEST_PATH", str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")
                )
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery, channels, cache ---------------------------------------------------

REDIS_URL = env_str("REDIS_URL")

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# The queue tasks go to, and a worker reads by default (a deployment may share a broker).
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("HOLMES_CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is run again: tasks are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# With Redis down, a send fails fast: the task waits in the outbox (holmes_site.OutboxMessage)
# and is sent again later (holmes_site/outbox.py), so a move never hangs on the broker.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# How long the worker's BRPOP waits on an empty queue before asking again (kombu's
# default, 1 s). A task that arrives ends the wait at once, so a longer one only spares
# the idle worker and Redis a round trip a second with nothing in it. (A synchronous
# consumer sleeps this long between empty polls, but never past its own timeout: the
# control commands' replies wait no longer.)
CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 10}
# No Celery beat: nothing runs on a clock while no one plays (issue 42). What a lost task
# missed is found by checks queued along with the work (the outbox's, the tables'
# wake-ups'), and by these, which a worker queues each time it connects to the broker (its
# start, Redis back: holmes_site/celery.py): every row the outbox holds undelivered (the
# ones Redis refused among them), every table's wake-up queued again for its time (a
# killed worker held them), and the rows of sockets whose process died (in 95 s: past
# play.presence.PRESENCE_SECONDS, the ones of the processes that died with it lapse).
HOLMES_WORKER_CONNECT_TASKS = [
    {"task": "holmes_site.tasks.outbox_redeliver", "kwargs": {"older_than_seconds": 0}},
    {"task": "play.tasks.tables_wake_rearm"},
    {"task": "play.tasks.sockets_sweep", "countdown": 95},
]

# How long a computer player waits before its move, so that people can follow the game.
HOLMES_BOT_PAUSE_SECONDS = float(os.environ.get("HOLMES_BOT_PAUSE_SECONDS", "1.0"))
# How long a player must have been away from a started table before its host may
# remove them (a computer player takes the seat: play/leaving.py).
HOLMES_AWAY_SECONDS = int(os.environ.get("HOLMES_AWAY_SECONDS", "120"))
# The embedded set-up (`make run`: Celery eager, no worker, no beat) runs the tables'
# wake-ups from a thread of the web process, every this many seconds (0: no thread).
HOLMES_EMBEDDED_WAKER_SECONDS = float(os.environ.get("HOLMES_EMBEDDED_WAKER_SECONDS", "0"))

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Publish/subscribe: a push is one PUBLISH, and each process hands what it
            # hears to its own sockets. The list-based layer (channels_redis.core) took
            # four round trips and a Lua script per push, and as much again to receive:
            # a third of a move's CPU in the live benchmark (python -m bench peers, 20
            # tables: 34 ms a move against 22-25). Pushes are hints or views that a
            # client can always fetch again, so at-most-once delivery is all they need.
            # channels-redis's, with a reader that waits instead of polling Redis ten
            # times a second (holmes_site/channel_layer.py).
            "BACKEND": "holmes_site.channel_layer.RedisPubSubChannelLayer",
            # A bound on a stalled Redis (the subscriber's blocking read is not bounded).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "holmes_site.cache.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- E-mail ---------------------------------------------------------------------------

EMAIL_HOST = env_str("HOLMES_EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("HOLMES_EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("HOLMES_EMAIL_USER")
    EMAIL_HOST_PASSWORD = env_str("HOLMES_EMAIL_PASSWORD")
    EMAIL_USE_TLS = env_bool("HOLMES_EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("HOLMES_FROM_EMAIL", "Holmes <holmes@localhost>")
# The site's own address, scheme and host, no trailing slash: every link in an e-mail is
# built on it (a mail app cannot open "/tables/1/"). Production must say it.
SITE_URL = env_str("HOLMES_SITE_URL", "http://localhost:8000" if DEBUG else "").rstrip("/")
if not DEBUG and not SITE_URL.startswith("https://"):
    raise ImproperlyConfigured(
        "HOLMES_DEBUG is off, so HOLMES_SITE_URL must be the site's https address "
        "(e.g. https://holmes.example): links in e-mails are built on it."
    )

# --- Auth, i18n, static ---------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "play:tables"
LOGOUT_REDIRECT_URL = "play:home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env_str("HOLMES_TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

# The one upload is a case package's zip: cut short past the size a package may be, before
# it is stored (cases/uploads.py); the reader then refuses it, naming the limit.
FILE_UPLOAD_HANDLERS = [
    "cases.uploads.UploadSizeLimitHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The site's own stylesheet is holmes_site's static files: an installed app, so found with
# every app's (no STATICFILES_DIRS, or collectstatic would find each file twice).
# In development whitenoise serves straight from the apps' static folders (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- API ------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # `Authorization: Token <key>`, DRF's header, checked against accounts.ApiToken:
        # tokens that expire and end with a new password (accounts/authentication.py).
        "accounts.authentication.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's three parsers, JSON read by orjson and bounded in depth (holmes_site/fast_json.py).
    "DEFAULT_PARSER_CLASSES": [
        "holmes_site.fast_json.FastJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # DRF's two renderers, its JSON written by orjson (holmes_site/fast_json.py).
    "DEFAULT_RENDERER_CLASSES": [
        "holmes_site.fast_json.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "play.api_errors.holmes_exception_handler",
    # Shared through the cache (Redis when REDIS_URL is set) by the API's throttles and the
    # web views' limiter (holmes_site.throttling).
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("HOLMES_THROTTLE_LOGIN", "10/min"),
        "join": env_str("HOLMES_THROTTLE_JOIN", "30/min"),
        "answers": env_str("HOLMES_THROTTLE_ANSWERS", "20/min"),
        "signup": env_str("HOLMES_THROTTLE_SIGNUP", "10/hour"),
        "password_reset": env_str("HOLMES_THROTTLE_PASSWORD_RESET", "5/hour"),
    },
    # DRF believes X-Forwarded-For from anyone while this is None; our throttles read the
    # client's address themselves (TRUSTED_PROXIES), and any other sees the connection's.
    "NUM_PROXIES": 0,
}
# How long an API token lasts from its creation, in days. Read when a token is checked, so
# shortening it ends older tokens at once.
API_TOKEN_DAYS = env_int("HOLMES_API_TOKEN_DAYS", 30)
if API_TOKEN_DAYS < 1:
    raise ImproperlyConfigured(
        f"HOLMES_API_TOKEN_DAYS={API_TOKEN_DAYS} must be 1 or more: a token must last a day."
    )
# How often the case editor saves a writer's changes in the background (authoring/editor.js).
EDITOR_AUTOSAVE_SECONDS = env_int("HOLMES_EDITOR_AUTOSAVE_SECONDS", 20)

SPECTACULAR_SETTINGS = {
    # The docs page under the content security policy: Swagger UI from our static files,
    # its start-up script from a URL of ours (SpectacularSwaggerSplitView), nothing inline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "TITLE": "Holmes API",
    "DESCRIPTION": "Cases, tables and moves of the Holmes deduction games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,  # the schema endpoint does not document itself
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # Every operation's error responses, in the one error shape.
        "holmes_site.api_errors.document_error_responses",
        # Each game's view and actions as typed components.
        "play.api_schema.document_games",
    ],
}

# --- Production hardening (only where it cannot break development) -------------------

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("HOLMES_SSL_REDIRECT", True)
    # A load balancer checks nodes over plain HTTP on the inside: answer, do not redirect.
    SECURE_REDIRECT_EXEMPT = [r"^(healthz|readyz|metrics)$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("HOLMES_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# --- Content security policy (django-csp) ----------------------------------------------
# Scripts and styles come from this site's own files only: no inline script, no inline
# style, no event-handler attributes (htmx's injected indicator style is switched off by
# the table page's htmx-config). 'self' covers the table's same-origin websocket.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- Logs -----------------------------------------------------------------------------
# One line per request with its id (holmes_site.middleware); JSON lines in production or
# with HOLMES_LOG_FORMAT=json, a readable console in development.
LOG_LEVEL = env_str("HOLMES_LOG_LEVEL", "INFO")
LOG_FORMAT = env_str("HOLMES_LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"HOLMES_LOG_FORMAT={LOG_FORMAT!r} must be text or json.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_context": {"()": "holmes_site.logging.RequestContextFilter"}},
    "formatters": {
        "text": {"()": "holmes_site.logging.ConsoleFormatter"},
        "json": {"()": "holmes_site.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_context"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django configures its own console handlers first; send its loggers through ours
    # only, or every line is printed twice.
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}
