"""The statistics page fits a phone: at 360 px nothing runs off the side (the page's
scrollWidth is at most its clientWidth), with a question's near misses and their "Accept
this form" buttons shown; at 1280 px too; and axe finds nothing critical or serious."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from authoring import services as authoring
from cases.models import NearMiss
from tests.authoring.test_editor import finished_table
from tests.e2e.test_axe import FAILING, axe_violations, described
from tests.e2e.test_write_and_review_in_the_browser import (  # noqa: F401 (fixtures)
    PHONE,
    WIDE,
    admin_page,
    published,
    writer,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(published, alice):  # noqa: F811
    """alice's published case, played once, with a long near miss on a question."""
    authoring.user_make_author(user=alice)
    finished_table(
        published,
        alice,
        verdicts={"thief": "correct", "hiding_place": "wrong"},
        visits=(6, 2, 6),
    )
    NearMiss.objects.create(
        question=published.questions.get(key="hiding_place"),
        normalised="in the belfry of st james church clerkenwell green",
        example="In the belfry of St James's Church, Clerkenwell Green",
        verdict="wrong",
        reason="The answer names the church, not its belfry",
        count=3,
    )
    return published


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "360px"])
def test_the_statistics_page_fits_the_screen(played, live_server_url, chromium, viewport):
    page = admin_page(chromium, live_server_url, "alice", viewport=viewport)
    page.goto(f"/admin/cases/caseversion/{played.pk}/statistics/")
    expect(page.get_by_role("button", name="Accept this form")).to_be_visible()

    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide in {widths[1]} px"
    failing = [v for v in axe_violations(page) if v["impact"] in FAILING]
    assert failing == [], described(failing, details=True)
