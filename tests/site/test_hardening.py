"""Production hardening: `check --deploy` is clean, every page works under a content
security policy that allows scripts and styles from the site's own files only, and each
request is logged once, as a JSON line in production, with its request and table ids."""

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from holmes_site.logging import JsonFormatter, RequestContextFilter
from tests.play.conftest import lobby, started, tutorial  # noqa: F401
from tests.site.test_settings import REAL_KEY

PROJECT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env) -> subprocess.CompletedProcess:
    clean_env = {k: v for k, v in os.environ.items() if not k.startswith(("HOLMES_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env={**clean_env, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "HOLMES_DEBUG": "0",
    "HOLMES_SECRET_KEY": REAL_KEY,
    "HOLMES_ALLOWED_HOSTS": "holmes.example",
    "HOLMES_SITE_URL": "https://holmes.example",
}


def test_it_passes_check_deploy_under_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_it_logs_json_in_production_and_text_in_development():
    code = "from django.conf import settings; print(settings.LOG_FORMAT)"
    command = ["shell", "--no-imports", "-c", code]
    assert run_manage(*command, **PRODUCTION).stdout.strip() == "json"
    assert run_manage(*command, HOLMES_DEBUG="1").stdout.strip() == "text"
    assert run_manage(*command, HOLMES_LOG_FORMAT="json").stdout.strip() == "json"


# --- Content security policy -----------------------------------------------------------

TAG = re.compile(r"<[a-zA-Z][^>]*>")
HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.IGNORECASE)


def csp_violations(html: str) -> list[str]:
    """What a policy of script-src 'self' and style-src 'self' would block in a page."""
    found = []
    for tag in TAG.findall(html):
        name = tag[1:].split(None, 1)[0].rstrip(">").lower()
        if name == "script" and "src=" not in tag and "application/json" not in tag:
            found.append(f"inline script: {tag}")
        if name == "style":
            found.append(f"inline style element: {tag}")
        if HANDLER.search(tag):
            found.append(f"event handler: {tag}")
        if STYLE_ATTRIBUTE.search(tag):
            found.append(f"style attribute: {tag}")
    if re.search(r"href\s*=\s*[\"']\s*javascript:", html, re.IGNORECASE):
        found.append("javascript: link")
    return found


@pytest.fixture
def moderator(make_user):
    return make_user("moderator", is_staff=True, is_superuser=True)


def pages(started, tutorial, alice, moderator):  # noqa: F811
    """Every kind of page: public, a player's, the lobby and game tables, the admin."""
    player = Client()
    player.force_login(alice)
    staff = Client()
    staff.force_login(moderator)
    anonymous = Client()
    yield anonymous, "/"
    yield anonymous, reverse("play:case", args=[tutorial.case.slug])
    yield anonymous, reverse("accounts:login")
    yield anonymous, reverse("accounts:signup")
    yield anonymous, reverse("api-docs")
    yield player, reverse("play:tables")
    yield player, reverse("play:table", args=[started.pk])
    yield player, reverse("accounts:profile")
    yield player, reverse("accounts:notifications")
    yield staff, reverse("admin:index")
    yield staff, reverse("admin:cases_caseversion_changelist")
    yield staff, reverse("admin:cases_caseversion_change", args=[tutorial.pk])
    yield staff, reverse("admin:cases_caseversion_statistics", args=[tutorial.pk])


def test_it_serves_every_page_under_a_self_only_policy(started, tutorial, alice, moderator):  # noqa: F811
    for client, path in pages(started, tutorial, alice, moderator):
        response = client.get(path)
        assert response.status_code == 200, path
        policy = response["Content-Security-Policy"]
        assert "script-src 'self';" in policy + ";", policy
        assert "style-src 'self';" in policy + ";", policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert csp_violations(response.content.decode()) == [], path


def test_it_switches_off_htmx_indicator_styles_on_the_table_page(started, alice):  # noqa: F811
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("play:table", args=[started.pk])).content.decode()
    match = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    config = json.loads(match.group(1)) if match else {}
    assert config["includeIndicatorStyles"] is False
    # Forms in a swapped region are wired at once: no moment where a click on a fresh
    # button submits the plain form instead.
    assert config["defaultSettleDelay"] == 0
    assert page.index('name="htmx-config"') < page.index("htmx.min.js")


def test_it_finds_what_the_policy_would_block():
    page = '<p style="color:red" onclick="x()">a</p><script>alert(1)</script><style></style>'
    assert len(csp_violations(page)) == 4
    assert csp_violations('<script src="/static/a.js" defer></script>') == []


# --- Logs ------------------------------------------------------------------------------


def request_lines(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "holmes.request"]


def test_it_logs_one_line_per_request_with_its_request_and_table_ids(
    started,  # noqa: F811
    alice,
    caplog,
):
    client = Client()
    client.force_login(alice)
    with caplog.at_level(logging.INFO, logger="holmes.request"):
        response = client.get(f"/api/tables/{started.pk}/", headers={"X-Request-ID": "req-42.a"})
    assert response.status_code == 200
    assert response["X-Request-ID"] == "req-42.a"
    [line] = request_lines(caplog)
    RequestContextFilter().filter(line)
    entry = json.loads(JsonFormatter().format(line))
    assert entry["request_id"] == "req-42.a"
    assert entry["table_id"] == started.pk
    assert entry["status"] == 200
    assert entry["method"] == "GET" and entry["path"] == f"/api/tables/{started.pk}/"
    assert entry["user_id"] == alice.pk
    assert entry["level"] == "INFO" and entry["logger"] == "holmes.request"


def test_it_makes_up_a_request_id_when_none_or_a_bad_one_is_given(db, caplog):
    with caplog.at_level(logging.INFO, logger="holmes.request"):
        first = Client().get("/")
        second = Client().get("/", headers={"X-Request-ID": "bad id\nforged log line"})
    ids = [first["X-Request-ID"], second["X-Request-ID"]]
    assert all(re.fullmatch(r"[0-9a-f]{32}", request_id) for request_id in ids)
    assert ids[0] != ids[1]
    assert [getattr(line, "table_id", None) for line in request_lines(caplog)] == [None, None]


def test_it_writes_log_lines_of_a_request_as_json_with_its_ids():
    from holmes_site.logging import request_id_var, table_id_var

    record = logging.LogRecord("play.tasks", logging.WARNING, __file__, 1, "moved %s", (3,), None)
    request_token, table_token = request_id_var.set("abc"), table_id_var.set(7)
    try:
        RequestContextFilter().filter(record)
    finally:
        request_id_var.reset(request_token)
        table_id_var.reset(table_token)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "moved 3"
    assert (entry["request_id"], entry["table_id"], entry["level"]) == ("abc", 7, "WARNING")
