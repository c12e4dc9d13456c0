"""Settings come from the environment; production refuses unsafe defaults loudly."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

PROJECT = Path(__file__).resolve().parents[2]
REAL_KEY = "k" * 20 + "-a-long-random-production-secret-for-tests-only-0123456789"


def run_check(**env) -> subprocess.CompletedProcess:
    clean_env = {k: v for k, v in os.environ.items() if not k.startswith(("HOLMES_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=PROJECT,
        env={**clean_env, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_refuses_production_without_a_secret_key():
    result = run_check(HOLMES_DEBUG="0", HOLMES_ALLOWED_HOSTS="holmes.example")
    assert result.returncode != 0
    assert "HOLMES_SECRET_KEY must be set" in result.stderr


def test_it_refuses_the_development_key_in_production():
    result = run_check(
        HOLMES_DEBUG="0",
        HOLMES_ALLOWED_HOSTS="holmes.example",
        HOLMES_SECRET_KEY="django-insecure-holmes-development-key-never-use-in-production",
    )
    assert result.returncode != 0
    assert "HOLMES_SECRET_KEY" in result.stderr


def test_it_refuses_production_without_allowed_hosts():
    result = run_check(HOLMES_DEBUG="0", HOLMES_SECRET_KEY=REAL_KEY)
    assert result.returncode != 0
    assert "HOLMES_ALLOWED_HOSTS must list" in result.stderr


def test_it_refuses_any_host_in_production():
    result = run_check(
        HOLMES_DEBUG="0", HOLMES_SECRET_KEY=REAL_KEY, HOLMES_ALLOWED_HOSTS="holmes.example,*"
    )
    assert result.returncode != 0
    assert "HOLMES_ALLOWED_HOSTS must name the site's hosts, not *" in result.stderr


@pytest.mark.parametrize("key", ["k" * 60, "ab" * 30, "abcdefghij" * 6])
def test_it_refuses_a_key_of_few_distinct_characters_in_production(key):
    result = run_check(HOLMES_DEBUG="0", HOLMES_SECRET_KEY=key, HOLMES_ALLOWED_HOSTS="h.example")
    assert result.returncode != 0
    assert "HOLMES_SECRET_KEY must be set to a random value" in result.stderr


def test_it_refuses_a_trusted_proxy_that_is_not_an_address():
    result = run_check(HOLMES_TRUSTED_PROXIES="127.0.0.1,proxy.example")
    assert result.returncode != 0
    assert "HOLMES_TRUSTED_PROXIES: 'proxy.example' is not an address" in result.stderr


def test_it_starts_in_production_with_a_real_key_and_hosts():
    result = run_check(
        HOLMES_DEBUG="0",
        HOLMES_SECRET_KEY=REAL_KEY,
        HOLMES_ALLOWED_HOSTS="holmes.example",
        HOLMES_SITE_URL="https://holmes.example",
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("site_url", [None, "http://holmes.example", "holmes.example"])
def test_it_refuses_production_without_the_sites_https_address(site_url):
    address = {"HOLMES_SITE_URL": site_url} if site_url else {}
    result = run_check(
        HOLMES_DEBUG="0", HOLMES_SECRET_KEY=REAL_KEY, HOLMES_ALLOWED_HOSTS="h.example", **address
    )
    assert result.returncode != 0
    assert "HOLMES_SITE_URL must be the site's https address" in result.stderr


def test_it_says_which_variable_is_not_a_yes_no_value():
    result = run_check(HOLMES_DEBUG="perhaps")
    assert result.returncode != 0
    assert "HOLMES_DEBUG='perhaps' is not a yes/no value" in result.stderr


def test_it_uses_sqlite_in_wal_mode_with_immediate_transactions_by_default():
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("this run uses PostgreSQL; the SQLite run checks these options")
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    assert database["OPTIONS"]["timeout"] > 0


def test_it_runs_celery_eagerly_without_redis():
    if settings.REDIS_URL:
        assert not settings.CELERY_TASK_ALWAYS_EAGER
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis")
    else:
        assert settings.CELERY_TASK_ALWAYS_EAGER
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer")


def test_it_uses_postgresql_when_database_url_is_given():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='holmes_site.settings'; "
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env={**os.environ, "DATABASE_URL": "postgres://holmes@db.example:5432/holmes"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "django.db.backends.postgresql"


def database_options(**env) -> str:
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE']='holmes_site.settings'; "
        "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env={**os.environ, "DATABASE_URL": "postgres://holmes@db.example:5432/holmes", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result.stdout.strip()


def test_it_prepares_statements_on_postgresql_unless_told_not_to():
    assert "'server_side_binding': True" in database_options()
    assert "'prepare_threshold': 5" in database_options()
    assert "server_side_binding" not in database_options(HOLMES_DB_PREPARED="0")
    assert "prepare_threshold" not in database_options(HOLMES_DB_PREPARED="0")


@pytest.mark.django_db
def test_it_has_postgresql_prepare_a_statement_the_site_repeats():
    from django.db import connection

    from accounts.models import User

    if connection.vendor != "postgresql":
        pytest.skip("this run uses SQLite, which has no server to prepare statements on")
    for _ in range(6):
        User.objects.filter(username="nobody-at-all").exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any('"accounts_user"."username" = $2' in statement for statement in prepared), prepared


@pytest.mark.parametrize("command, with_daphne", [("runserver", True), ("check", False)])
def test_only_runserver_loads_daphne_and_with_it_twisted(command, with_daphne):
    # uvicorn's workers and Celery's never serve through daphne: its app would load
    # Twisted into each of them for nothing.
    script = (
        f"import sys; sys.argv = ['manage.py', {command!r}]; import django; django.setup(); "
        "from django.conf import settings; "
        "print('daphne' in settings.INSTALLED_APPS, 'twisted' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "holmes_site.settings"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == [str(with_daphne)] * 2
