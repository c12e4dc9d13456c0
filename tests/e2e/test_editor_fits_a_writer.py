"""The editor fits a writer, in Chromium: a 12-card case with its cards, questions and
texts folded to one line each, its case map too, fits in two screens at 1280×800, a
title never sits under a button at 1280 or 360 px, and a lint link or Save and continue
opens the fold it points into."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from authoring import services as authoring
from cases.package.reader import read_package_path
from cases.services import case_import_package
from tests.authoring.conftest import TUTORIAL
from tests.e2e.test_axe import FAILING, axe_violations, described
from tests.e2e.test_write_and_review_in_the_browser import PHONE, admin_page

pytestmark = pytest.mark.django_db(transaction=True)

expect.set_options(timeout=15_000)

SCREEN = {"width": 1280, "height": 800}
TWO_SCREENS = 2 * SCREEN["height"]


@pytest.fixture
def draft(alice):
    """The tutorial case: 12 cards and its questions, as a writer's draft."""
    authoring.user_make_author(user=alice)
    return case_import_package(files=read_package_path(TUTORIAL), author=alice).version


def editor(browser, base_url: str, version, viewport=SCREEN) -> Page:
    page = admin_page(browser, base_url, "alice", viewport)
    page.goto(f"/admin/cases/caseversion/{version.pk}/change/")
    return page


def document_height(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_a_12_card_case_folded_fits_in_two_screens(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    expect(page.locator(".inline-related:not(.empty-form) > details[open]")).to_have_count(0)
    expect(page.locator("fieldset.collapse > details[open]")).to_have_count(0)
    expect(page.locator("#case-map-fold")).not_to_have_attribute("open", "")

    height = document_height(page)

    assert draft.locations.count() == 12
    print(f"\nthe folded editor: {height} px")
    assert height <= TWO_SCREENS, f"the folded editor is {height} px tall"


# Every title of the rows' lists (a row's line, a list's heading) against every control
# shown beside it: none may cover another.
OVERLAPS = """() => {
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  // A title's words as drawn (one box a line), not its block, which may run under a button.
  const words = (title) => {
    const range = document.createRange();
    range.selectNodeContents(title);
    return Array.from(range.getClientRects()).filter((r) => r.width && r.height);
  };
  const titles = document.querySelectorAll(".holmes-fold-title, .holmes-cards h2.inline-heading");
  const controls = Array.from(document.querySelectorAll(
    ".holmes-cards button, .holmes-cards input:not([type=hidden]), .holmes-cards label," +
    ".holmes-cards .holmes-card-delete"
  )).filter((control) => control.checkVisibility());
  const found = [];
  titles.forEach((title) => {
    if (!title.checkVisibility()) return;
    controls.forEach((control) => {
      if (title.contains(control) || control.contains(title)) return;
      const box = control.getBoundingClientRect();
      if (words(title).some((line) => meet(line, box))) {
        const name = (control.textContent || control.name || "").trim();
        found.push(title.textContent.trim() + " / " + name);
      }
    });
  });
  return found;
}"""


@pytest.mark.parametrize("viewport", [SCREEN, PHONE], ids=["1280", "360"])
def test_no_title_sits_under_a_button(draft, live_server_url, chromium, viewport):
    page = editor(chromium, live_server_url, draft, viewport)
    expect(page.locator(".holmes-fold-line").first).to_be_visible()

    assert page.locator(".holmes-fold-title").count() >= 12
    assert page.evaluate(OVERLAPS) == []


def test_a_lint_link_opens_the_card_it_names(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    number = page.locator("#id_locations-4-number")  # card 5, which proves nothing
    expect(number).not_to_be_visible()

    page.locator("#lint-report").get_by_role("link", name="Card 5 · number").click()

    expect(number).to_be_visible()
    expect(number).to_be_focused()
    expect(page.locator("#locations-5 details.holmes-card")).not_to_have_attribute("open", "")


def test_save_and_continue_reopens_the_question_the_writer_was_in(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    page.locator("#questions-1 summary").click()
    page.locator("#id_questions-1-ask").fill("Who wound the clock, and why?")

    page.get_by_role("button", name="Save and continue editing").click()

    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    expect(page.locator("#id_questions-1-ask")).to_be_visible()
    expect(page.locator("#id_questions-1-ask")).to_be_focused()
    expect(page.locator("#questions-0 details.holmes-card")).not_to_have_attribute("open", "")


@pytest.mark.parametrize("viewport", [SCREEN, PHONE], ids=["1280", "360"])
def test_the_folded_editor_passes_axe(draft, live_server_url, chromium, viewport):
    page = editor(chromium, live_server_url, draft, viewport)
    page.wait_for_load_state("load")
    name = "/tmp/editor_1280.png" if viewport is SCREEN else "/tmp/editor_360.png"
    page.screenshot(path=name, full_page=True)

    failing = [v for v in axe_violations(page) if v["impact"] in FAILING]

    assert not failing, described(failing, details=True)
