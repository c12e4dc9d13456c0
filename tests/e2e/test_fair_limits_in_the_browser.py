"""Fair log-in limits in Chromium (issue 27, point 4): the username is taken in any case,
a log-in that succeeds costs nothing, and after too many wrong passwords the page says so
and offers the password reset, which is not held up."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from tests.e2e.pages import PHONE, WIDE, open_page

pytestmark = pytest.mark.django_db(transaction=True)

LOGIN_LIMIT = 10  # failed log-ins a minute (HOLMES_THROTTLE_LOGIN's default)


def try_log_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_a_mistyped_password_leads_to_the_reset_and_capitals_do_not_matter(
    alice, live_server_url, chromium, artifacts
):
    # Alice types her name with a capital, several times: each log-in succeeds, and none
    # counts against the limit.
    phone = open_page(chromium, live_server_url, PHONE)
    for _ in range(3):
        phone.context.clear_cookies()
        try_log_in(phone, "Alice", "alice-password")
        expect(phone.get_by_role("heading", name="My tables")).to_be_visible()

    # Someone in the same house forgets theirs: the wrong guesses add up, then stop.
    wide = open_page(chromium, live_server_url, WIDE)
    for attempt in range(LOGIN_LIMIT):
        try_log_in(wide, "alice", f"not-it-{attempt}")
        expect(wide.get_by_role("heading", level=1)).to_have_text("Log in")
    try_log_in(wide, "alice", "not-it-again")
    expect(wide.get_by_role("heading", level=1)).to_have_text("Too many attempts")
    expect(wide.locator("#throttled")).to_contain_text("wait a minute")
    wide.screenshot(path=artifacts / "too-many-log-ins-1280.png", full_page=True)
    wide.set_viewport_size(PHONE)
    wide.screenshot(path=artifacts / "too-many-log-ins-360.png", full_page=True)

    # The way forward: the password reset, reached by keyboard.
    reset = wide.get_by_role("link", name="Choose a new one by e-mail")
    reset.focus()
    wide.keyboard.press("Enter")
    expect(wide.get_by_label("Email")).to_be_visible()
    wide.get_by_label("Email").fill("alice@example.com")
    wide.get_by_label("Email").press("Enter")
    expect(wide.get_by_role("heading", level=1)).to_have_text("Check your e-mail")
