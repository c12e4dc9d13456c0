"""A blind review in Chromium (issue 38, point 6): mina claims alice's case, play-tests it,
reveals it, approves it through the confirmation page, and follows her links afterwards.
Until the reveal, no page she is sent (HTML or PDF) names alice or holds the solution or
an answer; "Approve and publish" is not offered before the reveal."""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from accounts.models import Notification
from authoring import services as authoring
from cases.models import VersionStatus
from cases.package.reader import read_package_path
from cases.services import case_import_package
from tests.authoring.conftest import TUTORIAL

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
# What mina must not read before the reveal: the author's names, the solution's words,
# and the answers (only the answers: the cards name Silas Crane's lodging, as players see).
AUTHOR = ("Alice", "alice")
SECRETS = (
    "Only a man behind that counter could have torn it off",
    "St James&#x27;s Church tower",
    "clock chamber of St James",
)

expect.set_options(timeout=15_000)


@pytest.fixture
def submitted(alice, make_user, django_capture_on_commit_callbacks):
    authoring.user_make_author(user=alice)
    mina = make_user("mina", display_name="Mina")
    authoring.user_make_moderator(user=mina)
    version = case_import_package(files=read_package_path(TUTORIAL), author=alice).version
    with django_capture_on_commit_callbacks(execute=True):
        authoring.case_submit(version=version, user=alice)
    return version


class Seen:
    """Every response the moderator's browser receives from the site, as text."""

    def __init__(self, page: Page, base_url: str):
        self.texts: list[tuple[str, str]] = []
        self.base_url = base_url
        page.on("response", self._keep)

    def _keep(self, response) -> None:
        if not response.url.startswith(self.base_url) or response.status >= 300:
            return
        kind = response.headers.get("content-type", "")
        if "text/html" in kind or "json" in kind:
            self.texts.append((response.url, response.text()))
        elif "pdf" in kind:
            self.texts.append((response.url, response.body().decode("latin-1")))

    def leaks(self) -> list[str]:
        return [
            f"{word!r} in {url}"
            for url, text in self.texts
            for word in (*AUTHOR, *SECRETS)
            if word in text
        ]


def test_a_moderator_reviews_blind_then_approves_after_confirming(
    submitted, live_server_url, chromium, artifacts
):
    page = chromium.new_context(viewport=WIDE, base_url=live_server_url).new_page()
    page.goto("/admin/login/?next=/admin/")
    page.get_by_label("Username").fill("mina")
    page.get_by_label("Password").fill("mina-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    seen = Seen(page, live_server_url)

    # The queue and the review page: "the author", no solution, no approval yet.
    page.goto("/admin/authoring/review/")
    expect(page.locator("#result_list")).to_contain_text("the author")
    page.get_by_role("link", name=re.compile("The Clerkenwell Repeater")).click()
    expect(page.locator("#review-status")).to_contain_text("by the author")
    expect(page.locator("#solution-hidden")).to_be_visible()
    page.get_by_role("button", name="Claim").click()
    expect(page.locator(".messagelist")).to_contain_text("You claimed this case")
    expect(page.get_by_role("button", name="Approve and publish")).to_have_count(0)

    # The blind play-test, and her print of the case, without its solution.
    page.get_by_role("button", name="Play-test (solo table)").click()
    page.get_by_role("link", name=re.compile(r"^table \d+")).click()
    expect(page.locator("#private-table")).to_contain_text("nobody can join it")
    page.go_back()
    href = page.get_by_role("link", name=re.compile("Print and play")).get_attribute("href")
    pdf = page.context.request.get(live_server_url + href)
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF-")
    seen.texts.append((href, pdf.body().decode("latin-1")))
    # Her editor's view of the case and its export, before the reveal.
    page.goto(f"/admin/cases/caseversion/{submitted.pk}/change/")
    expect(page.locator("#blind-review")).to_be_visible()
    oracle = page.goto("/admin/cases/caseversion/?solution__icontains=torn")
    assert oracle is not None and oracle.status == 400  # no yes/no answer on the solution
    page.goto(f"/admin/authoring/review/{submitted.review.pk}/change/")

    assert seen.leaks() == []
    assert len(seen.texts) >= 6

    # The reveal, then the approval, asked twice.
    page.get_by_role("button", name="Show the solution and the report").click()
    expect(page.locator("#solution")).to_contain_text("Silas Crane")
    page.get_by_role("button", name="Approve and publish").click()
    expect(page.locator("#approve-confirm")).to_contain_text("makes it playable")
    submitted.refresh_from_db()
    assert submitted.status == VersionStatus.IN_REVIEW  # not yet: she is asked first
    page.screenshot(path=artifacts / "review-approve-confirm.png", full_page=False)
    page.get_by_role("button", name="Yes, approve and publish").click()

    expect(page.locator(".messagelist")).to_contain_text("Approved and published")
    submitted.refresh_from_db()
    assert submitted.status == VersionStatus.PUBLISHED
    expect(page.locator("#history")).to_contain_text("Approved and published by Mina")
    expect(page.locator("#review-status")).to_contain_text("by Alice")  # decided: named

    # Every link she was sent leads somewhere: her notification, and the published case.
    for note in Notification.objects.filter(user__username="mina"):
        response = page.goto(note.url)
        assert response is not None and response.status == 200, note.url
        expect(page.locator("#decided")).to_contain_text("Approved and published")
    page.get_by_role("link", name="Open the published case").click()
    expect(page).to_have_url(re.compile(rf"/cases/{submitted.case.slug}/$"))
    expect(page.get_by_role("heading", name="The Clerkenwell Repeater").first).to_be_visible()
    page.screenshot(path=artifacts / "review-published-case.png", full_page=False)
