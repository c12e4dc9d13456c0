"""Log-in, joining and 221B answers are throttled, on the web and in the API: past the
rate the answer is 429 with a sentence that says what to do. Counts live in the Django
cache (Redis in the scaled set-up, shared by every web worker)."""

import json
import time
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from holmes_site import throttling
from holmes_site.throttling import SENTENCES
from tests.play.conftest import lobby, started, tutorial  # noqa: F401

# The rates of settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (per minute).
LOGIN, JOIN, ANSWERS = 10, 30, 20


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def one_web_window(monkeypatch):
    # The web views count attempts in fixed windows of the rate's period: a test whose
    # attempts straddled two windows would see the count start again half-way (it did,
    # once in CI). Their clock stands still here; the API's throttles keep their own.
    now = time.time()
    monkeypatch.setattr(throttling, "time", SimpleNamespace(time=lambda: now))


def api_client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_it_throttles_api_log_in_attempts(alice):
    client = api_client()
    credentials = {"username": "alice", "password": "not-her-password"}
    for _ in range(LOGIN):
        assert client.post("/api/auth/token/", credentials, format="json").status_code == 400
    response = client.post("/api/auth/token/", credentials, format="json")
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "throttled"
    assert error["message"].startswith("Too many tries in a short time: wait ")
    assert error["details"]["wait_seconds"] >= 1
    assert int(response["Retry-After"]) >= 1


def test_it_throttles_web_log_in_attempts(alice):
    client = Client()
    credentials = {"username": "alice", "password": "not-her-password"}
    for _ in range(LOGIN):
        assert client.post(reverse("accounts:login"), credentials).status_code == 200
    response = client.post(reverse("accounts:login"), credentials)
    assert response.status_code == 429
    assert SENTENCES["login"] in response.content.decode()
    # Reading the page is not an attempt.
    assert client.get(reverse("accounts:login")).status_code == 200


def test_it_throttles_joining_by_invite_code_in_the_api(alice):
    client = api_client(alice)
    for attempt in range(JOIN):
        guess = {"invite_code": f"guess-{attempt}"}
        assert client.post("/api/tables/join/", guess, format="json").status_code == 400
    response = client.post("/api/tables/join/", {"invite_code": "guess"}, format="json")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"


def test_it_throttles_joining_by_invite_code_on_the_web(alice):
    client = Client()
    client.force_login(alice)
    for attempt in range(JOIN):
        assert client.post(reverse("play:join", args=[f"guess-{attempt}"])).status_code == 200
    response = client.post(reverse("play:join", args=["guess"]))
    assert response.status_code == 429
    assert SENTENCES["join"] in response.content.decode()


def test_it_throttles_answers_but_not_other_moves_in_the_api(started, alice):  # noqa: F811
    client = api_client(alice)
    url = f"/api/tables/{started.pk}/actions/"
    answer = {"action": {"type": "answer", "answers": {"thief": "x"}}, "expected_version": 0}
    for _ in range(ANSWERS):
        # Not at 221B: refused by the rules (400), but counted.
        assert client.post(url, answer, format="json").status_code in (400, 409)
    response = client.post(url, answer, format="json")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    note = {"action": {"type": "note", "text": "Finch?"}, "expected_version": started.version}
    assert client.post(url, note, format="json").status_code != 429


def test_it_throttles_answers_on_the_web(started, alice):  # noqa: F811
    client = Client()
    client.force_login(alice)
    url = reverse("play:table-act", args=[started.pk])
    form = {"action": json.dumps({"type": "answer"}), "answers-thief": "Finch"}
    for _ in range(ANSWERS):
        assert client.post(url, form).status_code == 302  # refused: back to the table
    response = client.post(url, form)
    assert response.status_code == 429
    assert SENTENCES["answers"] in response.content.decode()
    # With htmx the sentence comes back in the live region, as a refusal does.
    swapped = client.post(url, form, headers={"HX-Request": "true"})
    assert swapped.status_code == 200
    assert SENTENCES["answers"].split(":")[0] in swapped.content.decode()
