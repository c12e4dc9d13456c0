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
from tests.play.conftest import fast_passwords, lobby, started, tutorial  # noqa: F401

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
        # A code that opens no table: 404, with a sentence (counted all the same).
        assert client.post(reverse("play:join", args=[f"guess-{attempt}"])).status_code == 404
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


# --- Log-in: per account and per address, on every door (issue 22) ----------------------


def web_log_in(username: str, address: str = "127.0.0.1", path: str = "/accounts/login/"):
    credentials = {"username": username, "password": "not-the-password"}
    return Client(REMOTE_ADDR=address).post(path, credentials)


def api_log_in(username: str, address: str = "127.0.0.1", **headers):
    credentials = {"username": username, "password": "not-the-password"}
    client = APIClient(REMOTE_ADDR=address)
    return client.post("/api/auth/token/", credentials, format="json", headers=headers)


def test_it_throttles_admin_log_in_attempts(make_user):
    make_user("watson", is_staff=True)
    for _ in range(LOGIN):
        assert web_log_in("watson", path="/admin/login/").status_code == 200
    response = web_log_in("watson", path="/admin/login/")
    assert response.status_code == 429
    assert SENTENCES["login"] in response.content.decode()
    assert Client().get("/admin/login/").status_code == 200  # reading it is no attempt


def test_it_counts_log_in_attempts_per_account_from_any_address_and_door(alice):
    # Guessing one account's password from many addresses, through the site, the admin
    # and the API alike, shares one budget.
    doors = [
        lambda n: web_log_in("alice", f"198.51.100.{n}"),
        lambda n: web_log_in("Alice", f"198.51.100.{n}", path="/admin/login/"),
        lambda n: api_log_in("alice", f"198.51.100.{n}"),
    ]
    for attempt in range(LOGIN):
        assert doors[attempt % 3](attempt).status_code in (200, 400)
    assert web_log_in("alice", "203.0.113.1").status_code == 429
    assert api_log_in("alice", "203.0.113.2").status_code == 429
    assert web_log_in("bob", "203.0.113.3").status_code == 200  # another account


def test_it_counts_log_in_attempts_per_address_whatever_the_account(db):
    for attempt in range(LOGIN):
        assert web_log_in(f"guess{attempt}", "198.51.100.7").status_code == 200
    assert web_log_in("someone-else", "198.51.100.7").status_code == 429
    assert api_log_in("yet-another", "198.51.100.7").status_code == 429
    assert web_log_in("someone-else", "198.51.100.8").status_code == 200


def test_a_new_x_forwarded_for_on_each_request_does_not_reset_the_count(db):
    # Nothing is a trusted proxy by default: the header is the client's own word.
    for attempt in range(LOGIN):
        forged = {"X-Forwarded-For": f"10.0.0.{attempt}"}
        assert api_log_in(f"guess{attempt}", **forged).status_code == 400
    assert api_log_in("guess", **{"X-Forwarded-For": "10.9.9.9"}).status_code == 429
    forged_web = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.8.8.8")
    response = forged_web.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 429


def test_it_takes_the_client_address_from_a_trusted_proxy_only(db, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    # Through the proxies: each client has its own count.
    for attempt in range(LOGIN + 2):
        through = {"X-Forwarded-For": f"198.51.100.{attempt}, 10.1.2.3"}
        assert api_log_in(f"guess{attempt}", **through).status_code == 400
    # A client's own X-Forwarded-For, passed on by the proxy, is not believed either.
    for attempt in range(LOGIN):
        forged = {"X-Forwarded-For": f"192.0.2.{attempt}, 198.51.100.99"}
        assert api_log_in(f"other{attempt}", **forged).status_code == 400
    forged = {"X-Forwarded-For": "192.0.2.200, 198.51.100.99"}
    assert api_log_in("other", **forged).status_code == 429


def test_it_reads_the_client_address_as_the_first_untrusted_hop(rf, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8", "2001:db8::/32"]

    def address(remote: str, forwarded: str | None = None) -> str:
        headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
        return throttling.client_address(rf.get("/", REMOTE_ADDR=remote, **headers))

    assert address("198.51.100.1", "10.0.0.1") == "198.51.100.1"  # not from a proxy
    assert address("127.0.0.1", "198.51.100.2") == "198.51.100.2"
    assert address("127.0.0.1", "6.6.6.6, 198.51.100.3, 10.0.0.9") == "198.51.100.3"
    assert address("2001:db8::1", "2001:db8::2, 198.51.100.4") == "198.51.100.4"
    assert address("127.0.0.1", "not-an-address, 198.51.100.5") == "198.51.100.5"
    assert address("127.0.0.1", "junk") == "127.0.0.1"
    assert address("127.0.0.1") == "127.0.0.1"
    settings.TRUSTED_PROXIES = []
    assert address("127.0.0.1", "198.51.100.6") == "127.0.0.1"


# --- Sign-up and password reset ---------------------------------------------------------

SIGNUP, PASSWORD_RESET = 10, 5  # per hour


def sign_up(client: Client, n: int):
    return client.post(
        reverse("accounts:signup"),
        {"username": f"new{n}", "email": f"new{n}@example.com", "password1": "x", "password2": "y"},
    )


def test_it_throttles_sign_up_per_address(db):
    client = Client(REMOTE_ADDR="198.51.100.20")
    for attempt in range(SIGNUP):
        assert sign_up(client, attempt).status_code == 200  # the passwords differ
    response = sign_up(client, 99)
    assert response.status_code == 429
    assert SENTENCES["signup"] in response.content.decode()
    assert sign_up(Client(REMOTE_ADDR="198.51.100.21"), 100).status_code == 200


def test_it_throttles_password_reset_per_address_and_per_e_mail(alice, mailoutbox):
    url = reverse("accounts:password_reset")
    for attempt in range(PASSWORD_RESET):
        client = Client(REMOTE_ADDR=f"198.51.100.{30 + attempt}")
        assert client.post(url, {"email": "ALICE@example.com"}).status_code == 302
    response = Client(REMOTE_ADDR="198.51.100.99").post(url, {"email": "alice@example.com"})
    assert response.status_code == 429
    assert SENTENCES["password_reset"] in response.content.decode()
    assert len(mailoutbox) == PASSWORD_RESET
    same_address = Client(REMOTE_ADDR="198.51.100.40")
    for attempt in range(PASSWORD_RESET):
        same_address.post(url, {"email": f"nobody{attempt}@example.com"})
    assert same_address.post(url, {"email": "bob@example.com"}).status_code == 429
