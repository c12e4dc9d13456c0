"""Fair limits (issues 22 and 27): one budget per limit for the web and the API, a sliding
window (no double rate across a window's edge), only failed log-ins count (per account and
per address, behind a trusted proxy too), the too-many-attempts page offers the password
reset, and log-in takes the username in any case."""

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from holmes_site import throttling
from holmes_site.throttling import SENTENCES
from tests.play.conftest import fast_passwords, lobby, started, tutorial  # noqa: F401

LOGIN, JOIN, ANSWERS = 10, 30, 20  # per minute (settings' DEFAULT_THROTTLE_RATES)
PASSWORD = "a-long-enough-password"


class Clock:
    """The throttles' clock, moved by hand."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    cache.clear()
    # On a minute's edge of the fixed windows the throttles used to count in.
    clock = Clock(1_800_000_000.0 - 0.5)
    monkeypatch.setattr(throttling, "time", clock)
    yield clock
    cache.clear()


@pytest.fixture
def alice_with_password(alice):
    alice.set_password(PASSWORD)
    alice.save()
    return alice


def web_log_in(username: str, password: str = "wrong", address: str = "127.0.0.1", **extra):
    client = Client(REMOTE_ADDR=address, **extra)
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def api_log_in(username: str, password: str = "wrong", address: str = "127.0.0.1"):
    client = APIClient(REMOTE_ADDR=address)
    body = {"username": username, "password": password}
    return client.post("/api/auth/token/", body, format="json")


# --- One budget for the web and the API ------------------------------------------------


def test_joining_on_the_web_and_in_the_api_share_one_budget(alice):
    web = Client()
    web.force_login(alice)
    api = APIClient()
    api.force_authenticate(alice)
    for attempt in range(JOIN // 2):
        # A code that opens no table: 404, with a sentence (counted all the same).
        assert web.post(reverse("play:join", args=[f"web-{attempt}"])).status_code == 404
        guess = {"invite_code": f"api-{attempt}"}
        assert api.post("/api/tables/join/", guess, format="json").status_code == 400

    assert api.post("/api/tables/join/", {"invite_code": "x"}, format="json").status_code == 429
    assert web.post(reverse("play:join", args=["y"])).status_code == 429


def test_answers_on_the_web_and_in_the_api_share_one_budget(started, alice):  # noqa: F811
    web = Client()
    web.force_login(alice)
    api = APIClient()
    api.force_authenticate(alice)
    web_url = reverse("play:table-act", args=[started.pk])
    api_url = f"/api/tables/{started.pk}/actions/"
    form = {"action": json.dumps({"type": "answer"}), "answers-thief": "Finch"}
    body = {"action": {"type": "answer", "answers": {"thief": "x"}}, "expected_version": 0}
    for _ in range(ANSWERS // 2):
        assert web.post(web_url, form).status_code == 302
        assert api.post(api_url, body, format="json").status_code in (400, 409)

    response = api.post(api_url, body, format="json")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert web.post(web_url, form).status_code == 429


# --- A sliding window ------------------------------------------------------------------


def test_a_windows_edge_lets_no_more_than_the_rate_through(db, clock):
    for attempt in range(LOGIN):
        assert web_log_in(f"guess{attempt}").status_code == 200
    clock.now += 1  # a new minute by the clock: fixed windows started counting again here

    assert web_log_in("guess-after-the-edge").status_code == 429


def test_the_budget_comes_back_once_a_period_has_passed(db, clock):
    for attempt in range(LOGIN):
        assert web_log_in(f"guess{attempt}").status_code == 200
    clock.now += 30
    refused = web_log_in("too-soon")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60 + 6
    clock.now += int(refused["Retry-After"])

    assert web_log_in("at-last").status_code == 200


def test_refused_attempts_do_not_lengthen_the_wait(db, clock):
    for attempt in range(LOGIN):
        assert web_log_in(f"guess{attempt}").status_code == 200
    for _ in range(20):  # knocking every few seconds while refused
        clock.now += 3
        assert web_log_in("knock").status_code == 429
    clock.now += 10  # 70 seconds after the first attempts

    assert web_log_in("after-the-wait").status_code == 200


# --- Log-in: failures count, successes do not ----------------------------------------


def test_successful_log_ins_from_one_address_count_for_nothing(alice_with_password):
    for _ in range(LOGIN * 2):
        assert web_log_in("alice", PASSWORD).status_code == 302
        assert api_log_in("alice", PASSWORD).status_code == 200
    # The failures still have their whole budget.
    for _ in range(LOGIN):
        assert web_log_in("bob").status_code == 200
    assert web_log_in("bob").status_code == 429


def test_failed_log_ins_limit_the_account_and_the_address(alice_with_password):
    for attempt in range(LOGIN):
        assert web_log_in("alice", address=f"198.51.100.{attempt}").status_code == 200
    # The account is held, even with the right password, from anywhere...
    assert web_log_in("alice", PASSWORD, address="203.0.113.9").status_code == 429
    assert api_log_in("ALICE", PASSWORD, address="203.0.113.9").status_code == 429
    # ...and so is an address that failed too often, whoever it tries.
    for attempt in range(LOGIN):
        assert web_log_in(f"nobody{attempt}", address="192.0.2.1").status_code == 200
    assert web_log_in("carol", address="192.0.2.1").status_code == 429
    assert web_log_in("carol", address="192.0.2.2").status_code == 200


def test_web_log_in_counts_the_client_behind_a_trusted_proxy(db, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    proxy = "10.0.0.1"
    for attempt in range(LOGIN):
        forwarded = {"HTTP_X_FORWARDED_FOR": f"198.51.100.{attempt}"}
        assert web_log_in(f"guess{attempt}", address=proxy, **forwarded).status_code == 200
    # Each client behind the proxy has a budget of its own, not the proxy's one.
    one_client = {"HTTP_X_FORWARDED_FOR": "198.51.100.50"}
    for attempt in range(LOGIN):
        assert web_log_in(f"other{attempt}", address=proxy, **one_client).status_code == 200
    assert web_log_in("other", address=proxy, **one_client).status_code == 429
    another = {"HTTP_X_FORWARDED_FOR": "198.51.100.51"}
    assert web_log_in("other", address=proxy, **another).status_code == 200


def test_the_too_many_attempts_page_offers_the_password_reset(db):
    for attempt in range(LOGIN):
        web_log_in(f"guess{attempt}")
    response = web_log_in("one-more")

    assert response.status_code == 429
    page = response.content.decode()
    assert SENTENCES["login"] in page
    assert f'href="{reverse("accounts:password_reset")}"' in page
    # The reset itself is not held up by the log-in limit.
    reset = Client(REMOTE_ADDR="127.0.0.1").get(reverse("accounts:password_reset"))
    assert reset.status_code == 200


# --- The username in any case --------------------------------------------------------


def test_log_in_takes_the_username_in_any_case(alice_with_password):
    assert web_log_in("ALICE", PASSWORD).status_code == 302
    assert web_log_in("Alice", PASSWORD).status_code == 302
    assert api_log_in("aLiCe", PASSWORD).status_code == 200
    assert web_log_in("ALICE", "not-it").status_code == 200  # still needs the password


def test_the_exact_spelling_wins_between_accounts_that_differ_only_in_case(db, django_user_model):
    # Sign-up refuses such pairs now; accounts from before may still have them.
    django_user_model.objects.create_user("Watson", "upper@example.com", PASSWORD)
    django_user_model.objects.create_user("watson", "lower@example.com", "another-password-1")

    assert api_log_in("Watson", PASSWORD).status_code == 200
    assert api_log_in("watson", PASSWORD).status_code == 400
    assert api_log_in("WATSON", PASSWORD).status_code == 400  # which one? neither
