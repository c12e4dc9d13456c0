"""A move the server does not take is told in a sentence, never lost in silence.

htmx puts only 2xx answers into the page. A move lost to a server error, a closed session
or a dropped connection used to leave the page as it was, with nothing said. Here the
browser's request is answered with an error or cut off by Playwright's routing, which is
the one way to make a real server fail on cue; then the route goes and the same button
works.
"""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tests.e2e.pages import WIDE, log_in, open_page
from tests.play.conftest import lobby, started  # noqa: F401  (a dealt table, seed 1889)

pytestmark = pytest.mark.django_db(transaction=True)

ACT = re.compile(r"/tables/\d+/act/$")


def take_watson(page: Page):
    button = page.get_by_role("button", name=re.compile("Take the Watson card"))
    button.click()
    return button


@pytest.mark.parametrize(
    "failure, sentence",
    [
        ("500", "The server could not make this move. Here is the table as it stands"),
        ("403", "The server refused this move: your session may have ended."),
        ("429", "Too many moves in a short time: wait a moment, then try again."),
        ("cut", "Your move did not reach the server: check your connection"),
    ],
)
def test_a_failed_move_says_so_and_the_button_works_again(
    failure,
    sentence,
    started,  # noqa: F811  (the fixture imported above)
    alice,
    live_server_url,
    chromium,
    artifacts,
):
    page = open_page(chromium, live_server_url, WIDE)
    log_in(page, "alice")
    page.goto(f"/tables/{started.pk}/")
    expect(page.locator("#status-turn")).to_contain_text("It is your turn")

    if failure == "cut":
        page.route(ACT, lambda route: route.abort("connectionreset"))
    else:
        page.route(ACT, lambda route: route.fulfill(status=int(failure), body="no"))
    button = take_watson(page)
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text(sentence)
    expect(refusal).to_have_attribute("role", "alert")
    expect(button).to_be_enabled()  # htmx gave the button back
    expect(refusal).to_be_focused()  # not <body>: the disabled button dropped the focus
    if failure == "500":
        page.screenshot(path=artifacts / "failed-move-1280.png")

    page.unroute(ACT)
    take_watson(page)
    expect(page.locator("#watson-card")).to_contain_text("Held this round by")
    expect(refusal).to_have_count(0)  # acting again clears the sentence
