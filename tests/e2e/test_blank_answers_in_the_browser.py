"""221B in Chromium: alice leaves an answer blank and presses "Give these answers".

An empty box the browser catches itself (the boxes are required); a box of spaces only
goes to the server, which refuses it: the sentence stands by that box, the box has the
focus, and her other answers are still there. She writes it, and her answers are taken.
"""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from play.models import Table
from tests.e2e.pages import WIDE, button, log_in, open_page, wait_for_turn
from tests.e2e.test_play_in_the_browser import RIGHT, visit

pytestmark = pytest.mark.django_db(transaction=True)

SENTENCE = (
    "Write an answer to question 2, “Where is the stolen watch hidden now?”, "
    "before you give your answers."
)


@pytest.fixture
def two_player_table(tutorial, alice, bob) -> int:
    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1889)  # a fixed deal of characters
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    return table.pk


def test_it_says_by_the_blank_box_what_is_missing_and_keeps_the_other_answers(
    two_player_table, live_server_url, chromium, artifacts
):
    a = open_page(chromium, live_server_url, WIDE)
    b = open_page(chromium, live_server_url, WIDE)
    for page, name in ((a, "alice"), (b, "bob")):
        log_in(page, name)
        page.goto(f"/tables/{two_player_table}/")
    wait_for_turn(a)
    button(a, "Go to 221B Baker Street").click()
    visit(b, 2)  # bob reads meanwhile: alice's paper stays open
    expect(a.locator("#answers-form")).to_be_visible()

    blank = a.locator("#answer-hiding_place")
    a.locator("#answer-thief").fill(RIGHT["thief"])
    a.locator("#answer-ticket").fill(RIGHT["ticket"])
    # Empty: the browser holds the form back itself.
    a.locator("#give-answers").click()
    assert blank.evaluate("box => box.validity.valueMissing")
    expect(a.locator("#refusal")).to_have_count(0)

    # Spaces only: the server refuses them, and says so by the box.
    blank.fill("   ")
    a.locator("#give-answers").click()
    error = a.locator("#answer-hiding_place-error")
    expect(error).to_have_text(SENTENCE)
    expect(a.locator("#refusal")).to_have_text(SENTENCE)
    expect(blank).to_have_attribute("aria-invalid", "true")
    expect(blank).to_have_attribute("aria-describedby", "answer-hiding_place-error")
    expect(blank).to_be_focused()
    expect(a.get_by_role("textbox", name="Where is the stolen watch hidden now?")).to_have_value("")
    expect(a.locator("#answer-thief")).to_have_value(RIGHT["thief"])
    expect(a.locator("#answer-ticket")).to_have_value(RIGHT["ticket"])
    a.locator("#answers-form").screenshot(path=artifacts / "blank-answer-1280.png")

    # Written: the box is no longer marked, and the answers are taken.
    blank.fill(RIGHT["hiding_place"])
    expect(blank).not_to_have_attribute("aria-invalid", "true")
    expect(error).to_be_hidden()
    a.locator("#give-answers").click()
    expect(a.locator("#give-answers")).to_have_text("Confirm these answers")
    expect(a.locator("#refusal")).to_have_count(0)
    expect(a.locator(".field-error")).to_have_count(0)
    for question, text in RIGHT.items():
        expect(a.locator(f"#answer-{question}")).to_have_value(text)
    table = Table.objects.get(pk=two_player_table)
    assert table.state["answers"][0] == RIGHT
