"""Nothing said is lost: two players race for one colour; the loser's sentence appears and
stays, whatever live update arrives, until they act again.

The race is made to go the bad way every time: charlie's request is held back in his
browser until bob's choice has been pushed to charlie's page and redrawn it (the update
used to replace the region the answer was meant for, and the sentence went nowhere).
"""

import time

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import PHONE, WIDE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(tutorial, alice, bob, charlie):
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_join(invite_code=table.invite_code, user=charlie)
    return table


HOLD_BACK = """
window.holdBackColours = %d;
(function () {
  var send = XMLHttpRequest.prototype.send, open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.isColourChoice = /\\/colour\\/$/.test(url);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, args = arguments;
    if (!request.isColourChoice || !window.holdBackColours) return send.apply(request, args);
    setTimeout(function () { send.apply(request, args); }, window.holdBackColours);
  };
})();
"""


def hold_back_colour_choices(page, milliseconds: int) -> None:
    """charlie's browser sends his choice late: meanwhile bob's lands, and is pushed to
    charlie's page, which redraws while charlie's request is on its way."""
    page.add_init_script(HOLD_BACK % milliseconds)


def pick(page, colour: str) -> None:
    page.locator(f"input[name=colour][value={colour}]").check()
    page.locator("#choose-colour").click()


def test_the_loser_of_a_race_for_a_colour_is_told_and_the_sentence_stays(
    table, live_server_url, chromium, artifacts
):
    bob = open_page(chromium, live_server_url, WIDE)
    charlie = open_page(chromium, live_server_url, PHONE)
    hold_back_colour_choices(charlie, 1500)
    for page, name in ((bob, "bob"), (charlie, "charlie")):
        log_in(page, name)
        page.goto(f"/tables/{table.pk}/")
        expect(page.locator("#connection")).to_have_text("Live")

    pick(charlie, "grey")  # sent, and held back
    pick(bob, "grey")
    expect(bob.locator(".seat-list .pawn--grey")).to_be_visible()
    # charlie's page is redrawn by the push for bob's choice before his answer comes.
    refusal = charlie.locator("#refusal")
    expect(refusal).to_have_text("Bob already plays grey.")
    charlie.screenshot(path=artifacts / "colour-race-refusal-360.png", full_page=True)

    # More live updates: bob changes colour twice; the sentence stays on charlie's page.
    charlie.evaluate("window.holdBackColours = 0")
    pick(bob, "orange")
    expect(charlie.locator(".seat-list .pawn--orange")).to_be_visible()
    pick(bob, "grey")
    expect(charlie.locator(".seat-list .pawn--grey")).to_have_count(1)
    time.sleep(1)  # a poll or two more
    expect(refusal).to_have_text("Bob already plays grey.")
    bob.screenshot(path=artifacts / "colour-race-winner-1280.png", full_page=True)

    # charlie acts again: his new choice is taken, and the old sentence goes.
    pick(charlie, "purple")
    expect(charlie.locator(".seat-list .pawn--purple")).to_be_visible()
    expect(refusal).to_have_count(0)
