"""Limits that hold whoever asks (a security probe's three findings): a session of one's
own is no extra chance at someone else's password, every way of telling a real invite
code from a wrong one spends the join budget (per user and per address), and password
resets are counted per e-mail address asked for, logged in or not."""

import time
from types import SimpleNamespace
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from holmes_site import throttling
from holmes_site.throttling import SENTENCES
from tests.play.conftest import fast_passwords, lobby, started, tutorial  # noqa: F401

LOGIN, JOIN = 10, 30  # per minute (settings' DEFAULT_THROTTLE_RATES)
PASSWORD_RESET = 5  # per hour
HOST = "Alice"  # the lobby's host, named by the account pages for a real invite


@pytest.fixture(autouse=True)
def fresh_counts(monkeypatch):
    cache.clear()
    now = time.time()  # the throttles' clock stands still: no window passes mid-test
    monkeypatch.setattr(throttling, "time", SimpleNamespace(time=lambda: now))
    yield
    cache.clear()


def logged_in(user, address: str = "127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


# --- V1: log-in is counted per address and per account, logged in or not ---------------


@pytest.fixture
def watson(make_user):
    return make_user("watson", is_staff=True, is_superuser=True)


def test_it_stops_a_logged_in_user_guessing_a_staff_password_at_the_admin(bob, watson):
    client = logged_in(bob)
    for attempt in range(LOGIN):
        wrong = {"username": "watson", "password": f"guess-{attempt}"}
        assert client.post("/admin/login/", wrong).status_code == 200

    right = client.post("/admin/login/", {"username": "watson", "password": "watson-password"})

    assert right.status_code == 429
    assert SENTENCES["login"] in right.content.decode()
    assert client.get("/admin/").status_code == 302  # still not in: bob is no staff


def test_a_logged_in_user_spends_the_same_log_in_budget_as_anyone(alice, bob, charlie):
    # The account tried counts, from any address, whoever's session sends the guesses.
    for attempt in range(LOGIN):
        client = logged_in([bob, charlie][attempt % 2], f"198.51.100.{attempt}")
        path = ["/admin/login/", "/accounts/login/"][attempt % 2]
        client.post(path, {"username": "alice", "password": "wrong"})

    anonymous = Client(REMOTE_ADDR="203.0.113.9")
    refused = anonymous.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert refused.status_code == 429
    api = APIClient(REMOTE_ADDR="203.0.113.10")
    body = {"username": "alice", "password": "alice-password"}
    assert api.post("/api/auth/token/", body, format="json").status_code == 429


def test_only_a_log_in_of_the_account_tried_is_taken_back(bob):
    # Bob's session is logged in all along, but none of these posts logs anyone in (the
    # admin refuses bob, no staff, even with his right password): every one counts.
    client = logged_in(bob)
    for attempt in range(LOGIN - 1):
        client.post("/admin/login/", {"username": f"guess{attempt}", "password": "x"})
    own = {"username": "bob", "password": "bob-password"}
    assert client.post("/admin/login/", own).status_code == 200

    assert Client().post("/accounts/login/", own).status_code == 429  # the address is spent


def test_a_right_password_still_costs_nothing(alice, watson):
    for _ in range(LOGIN + 2):
        site = {"username": "alice", "password": "alice-password"}
        assert Client().post("/accounts/login/", site).status_code == 302
        admin = {"username": "watson", "password": "watson-password"}
        assert logged_in(alice).post("/admin/login/", admin).status_code == 302
    assert Client().post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 200


# --- V2: every way of telling a real invite code from a wrong one shares the join budget --


def watch(client: Client, code: str):
    return client.post(reverse("play:watch", args=[code]))


def test_guessing_codes_by_watching_is_stopped(started, bob):  # noqa: F811
    client = logged_in(bob)
    for attempt in range(JOIN):
        assert watch(client, f"ZZZZ{attempt:02d}").status_code == 404

    refused = watch(client, started.invite_code)

    assert refused.status_code == 429
    assert SENTENCES["join"] in refused.content.decode()


def test_watching_and_joining_share_one_budget_per_address(lobby, make_user):  # noqa: F811
    # Two accounts on one address: the guesses add up.
    dora, eve = make_user("dora"), make_user("eve")
    for attempt in range(JOIN // 2):
        assert watch(logged_in(dora), f"ZZZZ{attempt:02d}").status_code == 404
        guess = reverse("play:join", args=[f"YYYY{attempt:02d}"])
        assert logged_in(eve).get(guess).status_code == 404

    assert logged_in(make_user("fay")).get(reverse("play:join", args=["XXXX00"])).status_code == 429
    elsewhere = logged_in(make_user("gus"), "198.51.100.1")
    assert elsewhere.get(reverse("play:join", args=[lobby.invite_code])).status_code == 200


def test_a_real_code_is_refused_too_once_the_budget_is_spent(lobby, make_user):  # noqa: F811
    client = logged_in(make_user("dora"))
    for attempt in range(JOIN):
        assert client.get(reverse("play:join", args=[f"ZZZZ{attempt:02d}"])).status_code == 404

    # Answering 200 here would tell the real code from the wrong ones, beyond the budget.
    assert client.get(reverse("play:join", args=[lobby.invite_code])).status_code == 429


def test_opening_an_invite_costs_nothing_but_a_wrong_code_does(lobby, make_user):  # noqa: F811
    client = logged_in(make_user("dora"))
    for _ in range(JOIN + 5):
        assert client.get(reverse("play:join", args=[lobby.invite_code])).status_code == 200
    assert client.get(reverse("play:join", args=["ZZZZ00"])).status_code == 404


def account_page(name: str, code: str, address: str = "127.0.0.1") -> str:
    path = reverse("play:join", args=[code])
    return Client(REMOTE_ADDR=address).get(f"{reverse(name)}?{urlencode({'next': path})}").text


@pytest.mark.parametrize("page", ["accounts:login", "accounts:signup", "accounts:password_reset"])
def test_the_account_pages_stop_naming_the_host_once_the_budget_is_spent(lobby, page):  # noqa: F811
    assert HOST in account_page(page, lobby.invite_code)  # opening it costs nothing
    for attempt in range(JOIN):
        assert HOST not in account_page(page, f"ZZZZ{attempt:02d}")

    assert HOST not in account_page(page, lobby.invite_code)
    assert HOST in account_page(page, lobby.invite_code, address="198.51.100.2")


def test_guesses_on_the_account_pages_count_against_joining(lobby, make_user):  # noqa: F811
    for attempt in range(JOIN):
        account_page("accounts:login", f"ZZZZ{attempt:02d}")

    client = logged_in(make_user("dora"))
    assert client.get(reverse("play:join", args=[lobby.invite_code])).status_code == 429
    assert watch(client, lobby.invite_code).status_code == 429


# --- R1: password resets are counted per e-mail address asked for, logged in or not ------


def reset(client: Client, email: str):
    return client.post(reverse("accounts:password_reset"), {"email": email})


def test_accounts_asking_resets_for_one_address_share_its_limit(
    alice, bob, charlie, make_user, mailoutbox
):
    askers = [bob, charlie, make_user("dora")]
    for attempt in range(PASSWORD_RESET):
        client = logged_in(askers[attempt % 3], f"198.51.100.{attempt}")
        assert reset(client, "alice@example.com").status_code == 302

    refused = reset(logged_in(askers[0], "203.0.113.1"), "ALICE@example.com")

    assert refused.status_code == 429
    assert SENTENCES["password_reset"] in refused.content.decode()
    assert len(mailoutbox) == PASSWORD_RESET


def test_accounts_asking_resets_from_one_address_share_its_limit(bob, charlie, make_user):
    askers = [bob, charlie, make_user("dora")]
    for attempt in range(PASSWORD_RESET):
        assert reset(logged_in(askers[attempt % 3]), f"n{attempt}@example.com").status_code == 302

    assert reset(logged_in(make_user("eve")), "other@example.com").status_code == 429
