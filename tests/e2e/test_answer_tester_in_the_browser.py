"""The editor's answer tester in Chromium: the writer types an answer under a question,
with the keyboard only, and hears the judge's verdict; an unsaved accepted form already
counts; and a form players gave at a table is accepted in one click, into the saved
question and into the field on the page. axe finds nothing critical or serious, at
1280 and at 360 px."""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from cases.models import AnswerAttempt, Question
from cases.package.reader import read_package_path
from cases.services import case_import_package
from play.models import Seat, Table, TableAttempt, TableStatus
from tests.authoring.conftest import TUTORIAL
from tests.e2e.pages import PHONE, WIDE
from tests.e2e.test_axe import FAILING, axe_violations, described
from tests.e2e.test_write_and_review_in_the_browser import admin_page

pytestmark = pytest.mark.django_db(transaction=True)

expect.set_options(timeout=15_000)

GIVEN_AT_A_TABLE = "the belfry of St James's"


@pytest.fixture
def draft_played(alice, charlie):
    """alice's tutorial case, a draft, whose "hiding place" charlie answered at a table
    that is over."""
    from authoring import services as authoring

    authoring.user_make_author(user=alice)
    version = case_import_package(files=read_package_path(TUTORIAL), author=alice).version
    table = Table.objects.create(case_version=version, host=charlie, status=TableStatus.FINISHED)
    seat = Seat.objects.create(table=table, user=charlie, number=0, colour="red")
    attempt = AnswerAttempt.objects.create(
        version=version, user=charlie, answers={"hiding_place": GIVEN_AT_A_TABLE}
    )
    TableAttempt.objects.create(table=table, seat=seat, request=1, kind="solve", attempt=attempt)
    return version


def the_tester(page: Page, question: Question):
    return page.locator(f"#tester-{question.pk}")


def no_serious_violations(page: Page) -> None:
    failing = [v for v in axe_violations(page) if v["impact"] in FAILING]
    assert not failing, described(failing, details=True)


def open_with_the_keyboard(page: Page, row) -> None:
    """Unfold the question's row, when the editor folds its rows (its summary line)."""
    summary = row.locator("summary")
    if summary.count() and not row.locator("details").first.evaluate("(fold) => fold.open"):
        summary.first.focus()
        page.keyboard.press("Enter")


def hold_autosave(route) -> None:
    """Refuse the editor's background saves (they carry X-Holmes-Autosave); let the rest by."""
    if route.request.headers.get("x-holmes-autosave"):
        route.abort()
    else:
        route.continue_()


def focus_is_not_lost(page: Page) -> None:
    assert page.evaluate("() => document.activeElement && document.activeElement.tagName") not in (
        "BODY",
        None,
    )


def test_a_writer_tries_answers_and_accepts_a_players_form(
    draft_played, live_server_url, chromium, artifacts
):
    question = draft_played.questions.get(key="hiding_place")
    page = admin_page(chromium, live_server_url, "alice", viewport=WIDE)
    editor = f"/admin/cases/caseversion/{draft_played.pk}/change/"
    page.goto(editor)

    tester = the_tester(page, question)
    row = page.locator(
        ".inline-related", has=page.locator(f"input[name$='-id'][value='{question.pk}']")
    )
    expect(row.locator(".holmes-tester")).to_have_count(1)  # beside its own question
    verdict = tester.locator(".holmes-tester-verdict")
    expect(verdict).to_have_attribute("aria-live", "polite")
    open_with_the_keyboard(page, row)

    # The keyboard only: into the box, type, Enter. The verdict is the judge's, and Enter
    # does not send the editor's form.
    box = tester.get_by_label("An answer, as a player would write it")
    box.focus()
    page.keyboard.type("the clock tower of St James's")
    page.keyboard.press("Enter")
    expect(verdict).to_contain_text("Right:")
    box.fill("the vestry")
    page.keyboard.press("Enter")
    expect(verdict).to_contain_text("Wrong:")
    assert page.url.endswith(editor)
    # Trying an answer changes nothing of the case: the editor does not call it unsaved.
    expect(page.locator("#autosave-status")).not_to_contain_text("Unsaved")

    # A form typed into "Accepted forms" and not saved is already judged right. The
    # editor's autosave (every second here) would store it meanwhile: held back from here
    # on, so that only the page's text can have made the verdict, and only the accept
    # below writes the question.
    page.route(f"**{editor}", hold_autosave)
    accepted = row.locator("textarea[name$='-accept']")
    accepted.fill(accepted.input_value() + "\nthe old bell loft")
    box.fill("the old bell loft")
    tester.get_by_role("button", name="Judge it").press("Enter")
    expect(verdict).to_contain_text("Right:")
    question.refresh_from_db()
    assert "the old bell loft" not in question.accept

    # The form charlie gave at a table, listed with its verdict, accepted in one click.
    given = tester.locator(".holmes-given", has_text=GIVEN_AT_A_TABLE)
    expect(given).to_contain_text("×1 (1 at table)")
    expect(given).not_to_contain_text("Right:")
    page.screenshot(path=artifacts / "answer-tester-1280.png", full_page=False)
    no_serious_violations(page)

    accept = given.get_by_role("button", name=f"Accept this form “{GIVEN_AT_A_TABLE}”")
    accept.focus()
    page.keyboard.press("Enter")
    decided = tester.locator(".holmes-tester-decided")
    expect(decided).to_contain_text(f"“{GIVEN_AT_A_TABLE}” is now an accepted form")
    expect(given).to_contain_text("Right:")
    focus_is_not_lost(page)
    expect(accepted).to_have_value(re.compile(re.escape(GIVEN_AT_A_TABLE)))
    assert "the old bell loft" in accepted.input_value()  # the unsaved line stays too
    question.refresh_from_db()
    assert GIVEN_AT_A_TABLE in question.accept


def test_the_tester_fits_a_phone(draft_played, live_server_url, chromium, artifacts):
    question = draft_played.questions.get(key="hiding_place")
    page = admin_page(chromium, live_server_url, "alice", viewport=PHONE)
    page.goto(f"/admin/cases/caseversion/{draft_played.pk}/change/")
    tester = the_tester(page, question)
    row = page.locator(
        ".inline-related", has=page.locator(f"input[name$='-id'][value='{question.pk}']")
    )
    open_with_the_keyboard(page, row)
    tester.get_by_label("An answer, as a player would write it").fill("St Peter's")
    tester.get_by_role("button", name="Judge it").click()
    expect(tester.locator(".holmes-tester-verdict")).to_contain_text("Wrong:")
    tester.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "answer-tester-360.png", full_page=False)
    overflowing = tester.evaluate(
        """(section) => Array.from(section.querySelectorAll('*')).filter(
             (element) => element.getBoundingClientRect().right > window.innerWidth + 1
           ).map((element) => element.outerHTML.slice(0, 80))"""
    )
    assert overflowing == []
    no_serious_violations(page)


def test_a_question_added_on_the_page_is_tried_before_it_is_saved(
    draft_played, live_server_url, chromium
):
    page = admin_page(chromium, live_server_url, "alice", viewport=WIDE)
    page.goto(f"/admin/cases/caseversion/{draft_played.pk}/change/")
    page.get_by_role("button", name="Add another Question").click()
    row = page.locator("#questions-3")
    row.locator("[name='questions-3-ask']").fill("Who was lured out of the shop?")
    row.locator("[name='questions-3-kind']").select_option("person")
    row.locator("[name='questions-3-answer']").fill("Tom Quill")

    tester = page.locator("#tester-questions-3")
    box = tester.get_by_label("An answer, as a player would write it")
    box.fill("Tom Quill")
    box.press("Enter")
    expect(tester.locator(".holmes-tester-verdict")).to_contain_text("Right:")
    box.fill("Silas Crane")
    box.press("Enter")
    expect(tester.locator(".holmes-tester-verdict")).to_contain_text("Wrong:")
    focus_is_not_lost(page)
    no_serious_violations(page)
