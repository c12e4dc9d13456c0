"""What the browser tests share: the two screen sizes, a page in a fresh browser context,
logging in, a player's turn and their finished reading; and, for a failure's message,
what a page shows (a test that times out on a button should say whether the page was
told something)."""

import re

from playwright.sync_api import Page, expect

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}

expect.set_options(timeout=15_000)


def open_page(browser, base_url: str, viewport: dict, *, websockets: bool = True) -> Page:
    """A logged-out page in a context of its own (its own cookies: its own player)."""
    context = browser.new_context(viewport=viewport, base_url=base_url)
    if not websockets:
        # As behind a proxy that blocks websockets: the page must fall back to polling.
        context.add_init_script("delete window.WebSocket;")
    return context.new_page()


def log_in(page: Page, username: str) -> None:
    """Log in as one of the test users, whose password is `<username>-password`."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"{username}-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My tables")).to_be_visible()


def status(page: Page):
    return page.locator("#status-turn")


def button(page: Page, name: str, *, within: str | None = None):
    """A button whose name matches the regular expression `name`."""
    scope = page.locator(within) if within else page
    return scope.get_by_role("button", name=re.compile(name))


def wait_for_turn(page: Page) -> None:
    expect(status(page)).to_contain_text("It is your turn")


def finish_reading(page: Page) -> None:
    finished = page.get_by_role("button", name="I have finished reading")
    finished.click()
    try:
        expect(finished).to_have_count(0)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{page_state(page)}") from None


STATE = """() => {
  const text = (id) => {
    const element = document.getElementById(id);
    return element ? element.textContent.trim() : null;
  };
  const live = document.getElementById("live");
  return {
    url: location.href,
    version: live ? live.dataset.version : null,
    refusal: text("refusal"),
    status: text("status-turn"),
    connection: text("connection"),
    disabled_buttons: Array.from(document.querySelectorAll("#live button:disabled"))
      .map((b) => b.textContent.trim()).slice(0, 5),
  };
}"""


def page_state(page: Page) -> str:
    """One line per fact the page shows about the table and the player's last move."""
    try:
        state = page.evaluate(STATE)
    except Exception as error:  # the page itself may be gone: say so, keep the failure
        return f"(the page could not be read: {error})"
    return "\n".join(f"page {key}: {value!r}" for key, value in state.items())
