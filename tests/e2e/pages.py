"""What a page shows when a browser test's expectation fails, for the failure's message:
a test that times out on a button should say whether the page was told something."""

from playwright.sync_api import Page

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
