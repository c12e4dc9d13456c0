"""A press that a live update crosses still makes its click.

A click is a press and a release on the same control. The page used to draw a live update
whenever one came back, so an update drawn while a player held a button down replaced the
button with a copy: the release landed on the copy, no click was made, and the move was
lost without a word. It happened in play (a full test run caught "I have finished reading"
unanswered after another player moved) and depends on timing there; here it is made to go
the bad way on purpose: alice presses her button and holds it, bob moves, alice's page
fetches the region his move changed, and only then does she release.

Pressed with the pointer on a phone, and with the space bar (which clicks on its release)
on a desktop.
"""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Locator, Page, expect

from tests.e2e.pages import PHONE, WIDE, finish_reading, page_state
from tests.e2e.test_own_click_races_a_push import table_page
from tests.e2e.test_play_in_the_browser import visit

pytestmark = pytest.mark.django_db(transaction=True)

FINISHED = "I have finished reading"


def press_with_the_pointer(page: Page, control: Locator):
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return page.mouse.up


def press_with_the_space_bar(page: Page, control: Locator):
    control.focus()
    page.keyboard.down(" ")
    return lambda: page.keyboard.up(" ")


PRESSES = {
    "pointer": (press_with_the_pointer, PHONE),
    "space bar": (press_with_the_space_bar, WIDE),
}


@pytest.mark.parametrize("press", list(PRESSES))
def test_a_held_press_outlasts_another_players_move(
    press, table_of_three, live_server_url, chromium, artifacts
):
    press_on, viewport = PRESSES[press]
    a = table_page(chromium, live_server_url, viewport, "alice", table_of_three)
    b = table_page(chromium, live_server_url, WIDE, "bob", table_of_three)
    c = table_page(chromium, live_server_url, WIDE, "charlie", table_of_three)
    for page, card in ((a, 1), (b, 2), (c, 3)):
        visit(page, card)

    # Everyone reads. alice presses "I have finished reading" and holds it.
    finished = a.get_by_role("button", name=FINISHED)
    expect(finished).to_be_enabled()
    release = press_on(a, finished)

    # bob finishes first; alice's page hears of it and fetches the region it changed.
    fetches = a.evaluate("window.liveFetchesDone")
    finish_reading(b)
    a.wait_for_function("(done) => window.liveFetchesDone > done", arg=fetches)

    # Her release is a click: her reading is over, and bob's move is on her page too.
    release()
    try:
        expect(finished).to_have_count(0)
    except AssertionError as failure:
        raise AssertionError(f"alice's click was lost: {failure}\n{page_state(a)}") from None
    expect(a.locator("#refusal")).to_have_count(0)
    finish_reading(c)  # and the next round begins, with charlie
    expect(a.locator("#status-turn")).to_contain_text("Charlie's turn to place a pawn")
    a.screenshot(path=artifacts / f"press-across-a-push-{press.replace(' ', '-')}.png")
