"""The case map in Chromium (issue 38, point 2), at 1280 and 360 pixels: a click on a card
of the map opens that card in the editor and the keyboard goes on from it; from the review
page, the click opens it in the editor; axe finds nothing critical or serious in the map.
Screenshots of the map of The Measurer of Hollow Lane go to test-artifacts/."""

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from authoring import services as authoring
from cases.package.reader import read_package_path
from cases.services import case_import_package
from tests.e2e.test_axe import axe_violations
from tests.e2e.test_write_and_review_in_the_browser import PHONE, WIDE, admin_page

pytestmark = pytest.mark.django_db(transaction=True)

expect.set_options(timeout=15_000)

MEASURER = (
    Path(__file__).resolve().parents[2] / "fixtures" / "cases" / "the-measurer-of-hollow-lane"
)


@pytest.fixture
def measurer(alice):
    authoring.user_make_author(user=alice)
    return case_import_package(files=read_package_path(MEASURER), author=alice).version


@pytest.fixture
def measurer_in_review(measurer, alice, make_user):
    mina = make_user("mina", display_name="Mina")
    authoring.user_make_moderator(user=mina)
    authoring.case_submit(version=measurer, user=alice)
    authoring.case_claim(version=measurer, user=mina)
    return measurer


def serious(violations: list[dict]) -> list[str]:
    return [
        f"{v['id']}: {v['help']} ({', '.join(t['target'] for t in v['targets'])})"
        for v in violations
        if v["impact"] in ("critical", "serious")
    ]


def open_card_from_the_map(page: Page, number: int, row: int) -> None:
    page.locator(f"#case-map-card-{number}").click()
    expect(page.locator(f"#locations-{row} > details.holmes-card")).to_have_attribute("open", "")
    # The keyboard goes on from the card that opened, not from the top of the page.
    fold_line = page.locator(f"#locations-{row} > details > summary")
    expect(fold_line).to_be_focused()
    expect(fold_line).to_be_in_viewport()


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "360px"])
def test_a_card_of_the_map_opens_in_the_editor(
    viewport, measurer, live_server_url, chromium, artifacts
):
    page = admin_page(chromium, live_server_url, "alice", viewport)
    page.goto(f"/admin/cases/caseversion/{measurer.pk}/change/")
    case_map = page.locator("#case-map")
    # In the editor the map is one line until the writer opens it (the case stays short).
    expect(case_map.locator("summary").first).to_contain_text(re.compile(r"to check"))
    expect(case_map.get_by_role("link", name=re.compile(r"^7 Treadwell"))).to_be_hidden()
    case_map.locator("summary").first.click()
    expect(case_map.get_by_role("link", name=re.compile(r"^7 Treadwell"))).to_be_visible()
    width = viewport["width"]
    case_map.scroll_into_view_if_needed()
    case_map.screenshot(path=str(artifacts / f"case_map_{width}.png"))
    Path("/tmp").joinpath(f"case_map_{width}.png").write_bytes(
        (artifacts / f"case_map_{width}.png").read_bytes()
    )
    # The map is as wide as it needs; on a phone its own box scrolls, not the page.
    page_width = page.evaluate("() => document.documentElement.scrollWidth")
    assert page_width <= width + 1, f"the page is {page_width} px wide at {width} px"

    assert serious(axe_violations_in(page, "#case-map")) == []
    open_card_from_the_map(page, 7, 6)  # card 7, locked, is the seventh row
    expect(page.locator("#id_locations-6-text")).to_be_visible()


def axe_violations_in(page: Page, selector: str) -> list[dict]:
    axe_violations(page)  # loads axe-core into the page
    return page.evaluate(
        """async (selector) => {
          const results = await axe.run({ include: [selector] }, { resultTypes: ["violations"] });
          return results.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            targets: v.nodes.map((n) => ({ target: n.target.join(" ") })),
          }));
        }""",
        selector,
    )


def test_a_card_of_the_review_pages_map_opens_in_the_editor(
    measurer_in_review, live_server_url, chromium
):
    page = admin_page(chromium, live_server_url, "mina", WIDE)
    page.goto(f"/admin/authoring/review/{measurer_in_review.review.pk}/change/")
    case_map = page.locator("#case-map")
    # Blind: nothing of the solution or the evidence.
    expect(case_map.locator(".case-map-edge-evidence")).to_have_count(0)
    expect(case_map.locator("#case-map-solution")).to_have_count(0)
    assert serious(axe_violations_in(page, "#case-map")) == []

    page.locator("#case-map-card-11").click()

    expect(page).to_have_url(
        re.compile(rf"/caseversion/{measurer_in_review.pk}/change/#locations-10$")
    )
    expect(page.locator("#locations-10 > details.holmes-card")).to_have_attribute("open", "")
    fold_line = page.locator("#locations-10 > details > summary")
    expect(fold_line).to_be_focused()
    expect(fold_line).to_be_in_viewport()
