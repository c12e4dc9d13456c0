"""Print-and-play as a writer reaches it, in Chromium: from the editor to the preview (a new
tab), then its "Print and play (PDF)" link, printed double-sided whole as the guide says.
Every card's text lands on that card's back, the answers print once, and a `[[n]]` reads
"card n". The PDF's pages are read back with poppler's pdftotext (tests/cases/test_printing.py
checks the layout's rules in detail; this follows a writer's clicks to the same file)."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from authoring import services as authoring
from tests.cases.test_printing import _poppler, lamplighter, pages_of  # noqa: F401  (fixture)
from tests.e2e.test_write_and_review_in_the_browser import PHONE, WIDE, admin_page

pytestmark = pytest.mark.django_db(transaction=True)


def is_a_page_of_backs(text: str) -> bool:
    """A page of card backs: the texts of the first card of each sheet."""
    return "Card 1 says" in text or "Card 10 says" in text


expect.set_options(timeout=15_000)


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "360px"])
def test_a_writer_prints_her_draft_from_the_editor(
    viewport,
    lamplighter,  # noqa: F811  (the printing tests' fixture)
    alice,
    live_server_url,
    chromium,
    tmp_path,
):
    _poppler()
    authoring.user_make_author(user=alice)
    card = lamplighter.locations.get(number=2)
    card.text = "Card 2 says: the trail leads on to [[7]]."
    card.save()
    lamplighter.solution = "SOLUTION-SECRET Walter Finch.\n\n## The answers\n- **Who?** Finch."
    lamplighter.save()

    page = admin_page(chromium, live_server_url, "alice", viewport)
    page.goto(f"/admin/cases/caseversion/{lamplighter.pk}/change/")
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Preview as players see it").click()
    preview = opened.value
    link = preview.get_by_role("link", name="Print and play (PDF)")
    expect(link).to_be_visible()
    response = preview.context.request.get(live_server_url + link.get_attribute("href"))
    assert response.status == 200 and response.body().startswith(b"%PDF-")

    pages = pages_of(response.body(), tmp_path)
    fronts = [n for n, text in enumerate(pages, 1) if "Lamp post" in text and "says" not in text]
    backs = [n for n, text in enumerate(pages, 1) if is_a_page_of_backs(text)]
    # Printed whole, double-sided: each sheet of card fronts is a recto, its texts the verso.
    assert len(fronts) == 2 and all(number % 2 == 1 for number in fronts)
    assert backs == [number + 1 for number in fronts]
    whole = "".join(pages)
    assert "the trail leads on to card 7." in whole
    # The solution gives the answers itself: they print once, no second answer key.
    assert whole.count("The answers") == 1 and "Answer key" not in whole
