"""Browser tests: Debian's Chromium (never a downloaded browser) driven by Playwright,
against a real ASGI server (daphne, so websockets work) in a subprocess that uses the
test database. Screenshots go to test-artifacts/ (gitignored)."""

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import require_service
from tests.ports import free_port

PROJECT = Path(__file__).resolve().parents[2]
ARTIFACTS = PROJECT / "test-artifacts"
CHROMIUM = os.environ.get("HOLMES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_problem() -> str | None:
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


def database_env() -> dict:
    """Point the server at the database this test uses (committed: transactional_db)."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return {"HOLMES_SQLITE_PATH": str(settings["NAME"])}
    from tests.integration.conftest import database_url_for_test_database

    return {"DATABASE_URL": database_url_for_test_database()}


@pytest.fixture
def live_server_url(transactional_db, tmp_path):
    require_service("Chromium", chromium_problem())
    with serving(tmp_path / "server.log") as url:
        yield url


@contextlib.contextmanager
def serving(log_path: Path):
    """The site on a free port of its own, on this test's database, until the block ends
    (a module's tests may share one: tests/e2e/test_axe.py)."""
    port = free_port()
    env = {
        **os.environ,
        **database_env(),
        "HOLMES_DEBUG": "1",
        "HOLMES_EDITOR_AUTOSAVE_SECONDS": "1",  # the editor's autosave, seen within a test
        "HOLMES_DB_CONN_MAX_AGE": "0",
        # Computer players and turn timers, run by the server's own wake-up loop.
        "HOLMES_EMBEDDED_WAKER_SECONDS": "0.3",
        "HOLMES_BOT_PAUSE_SECONDS": "0.3",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REDIS_URL", None)  # eager Celery and the in-memory channel layer, in-process
    command = [
        sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
        "holmes_site.asgi:application",
    ]  # fmt: skip
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=PROJECT, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=2)
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = log_path.read_text()
                    raise AssertionError(f"the server did not start:\n{log}") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        # Keep the server's log beside the screenshots: it is where a failure shows.
        ARTIFACTS.mkdir(exist_ok=True)
        shutil.copy(log_path, ARTIFACTS / "server.log")
        report_server_trouble(log_path)


def report_server_trouble(log_path: Path) -> None:
    """Print the server's errors and its answers of 500 and over. Teardown's output is
    part of a failed test's report, and CI keeps only that report, not the artifacts."""
    lines = log_path.read_text(errors="replace").splitlines()
    trouble = [
        number
        for number, line in enumerate(lines)
        if "Traceback" in line or "ERROR" in line or re.search(r'" 5\d\d ', line)
    ]
    if not trouble:
        return
    shown = sorted({n for first in trouble for n in range(first, min(first + 30, len(lines)))})
    print("The test server's log, where it shows trouble:", file=sys.stderr)
    for number in shown[:300]:
        print(f"  {number + 1}: {lines[number]}", file=sys.stderr)


@pytest.fixture
def chromium(monkeypatch):
    require_service("Chromium", chromium_problem())
    # Playwright's sync API runs an event loop in this thread, so Django would refuse ORM
    # calls. Tests create their data in fixtures listed before this one (the ORM would
    # otherwise open a connection in Playwright's context that outlives the test), and
    # this lets teardown flush the database.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


from tests.play.conftest import tutorial  # noqa: E402, F401  (the tutorial case, published)


@pytest.fixture
def table_of_three(tutorial, alice, bob, charlie) -> int:  # noqa: F811 (imported above)
    """The tutorial case started for alice, bob and charlie, in that order, on a fixed deal."""
    from play import services
    from play.models import Table

    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1889)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_join(invite_code=table.invite_code, user=charlie)
    services.table_start(table_id=table.pk, user=alice)
    return table.pk
