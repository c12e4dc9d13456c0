"""A case from nothing to published, in Chromium, clicking what writers and moderators click.

The editor is the Django admin. Its workflow buttons are forms of their own: these tests
exist because the test client posts whatever a test gives it, while a browser posts only
what the page's forms really hold (a form nested in another submits nothing of its own).
"""

import io
import re
import zipfile

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from authoring import services as authoring
from cases.models import CaseVersion, VersionStatus
from cases.package.reader import read_package_path
from cases.services import case_import_package
from tests.authoring.conftest import TUTORIAL

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}

expect.set_options(timeout=15_000)


@pytest.fixture
def writer(alice):
    authoring.user_make_author(user=alice)
    return alice


@pytest.fixture
def mina(make_user):
    user = make_user("mina", display_name="Mina")
    authoring.user_make_moderator(user=user)
    return user


@pytest.fixture
def submitted(writer):
    """The writer's tutorial case, lint-clean and submitted for review."""
    version = case_import_package(files=read_package_path(TUTORIAL), author=writer).version
    authoring.case_submit(version=version, user=writer)
    return version


@pytest.fixture
def published(writer, make_user):
    version = case_import_package(
        files=read_package_path(TUTORIAL), author=writer, publish=True
    ).version
    return version


def admin_page(browser, base_url: str, username: str, viewport=WIDE) -> Page:
    page = browser.new_context(viewport=viewport, base_url=base_url).new_page()
    page.goto("/admin/login/?next=/admin/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"{username}-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    return page


def save_and_continue(page: Page) -> None:
    page.get_by_role("button", name="Save and continue editing").click()


def success(page: Page):
    return page.locator(".messagelist")


def lint_report(page: Page):
    return page.locator("#lint-report")


def test_it_writes_a_case_from_nothing_and_submits_it(writer, live_server_url, chromium, artifacts):
    page = admin_page(chromium, live_server_url, "alice")
    page.get_by_role("link", name="Case versions").first.click()
    page.get_by_role("link", name="Add case version").click()

    page.get_by_label("Slug").fill("the-brass-key")
    page.get_by_label("Title").fill("The Brass Key")
    page.get_by_label("Difficulty").fill("1")
    page.get_by_label("Min players").fill("1")
    page.get_by_label("Max players").fill("4")
    page.get_by_role("textbox", name="Introduction").fill(
        "A locksmith's brass key has gone. Start at [[1]]."
    )
    page.get_by_role("textbox", name="Solution").fill("Agnes Pell took it: see [[2]].")
    page.get_by_text("Add another Question").click()
    page.locator("#id_questions-0-key").fill("thief")
    page.locator("#id_questions-0-ask").fill("Who took the brass key?")
    page.locator("#id_questions-0-kind").select_option("person")
    page.locator("#id_questions-0-answer").fill("Agnes Pell")
    page.locator("#id_questions-0-evidence").fill("1, 3")  # there is no card 3
    for number, name, text in [
        (1, "The Locksmith's Shop", "The key hook is empty. The maid left at noon."),
        (2, "The Maid's Attic", "Agnes Pell hides a brass key under her pillow."),
    ]:
        page.get_by_text("Add another Location").click()
        row = number - 1
        page.locator(f"#id_locations-{row}-number").fill(str(number))
        page.locator(f"#id_locations-{row}-name").fill(name)
        page.locator(f"#id_locations-{row}-text").fill(text)
    save_and_continue(page)

    expect(success(page)).to_contain_text("was added successfully")
    expect(lint_report(page)).to_contain_text("1 error")
    # The error comes first; the linter also notes that the solution does not cite card 1.
    problem = lint_report(page).get_by_role("link", name="Question thief · evidence cards").first
    expect(lint_report(page).locator("li").first).to_contain_text("no card 3")  # errors first
    submit = page.get_by_role("button", name="Submit for review")
    expect(submit).to_be_disabled()
    expect(page.locator("#workflow")).to_contain_text("1 error to fix")
    page.screenshot(path=artifacts / "editor-lint-error.png", full_page=False)

    problem.click()  # the link takes the writer to the field at fault
    expect(page.locator("#id_questions-0-evidence")).to_be_in_viewport()
    page.locator("#id_questions-0-evidence").fill("1, 2")
    save_and_continue(page)

    expect(success(page)).to_contain_text("was changed successfully")
    expect(lint_report(page)).to_contain_text("0 errors")
    version = CaseVersion.objects.get(case__slug="the-brass-key")
    assert version.questions.get().evidence == [1, 2]
    assert sorted(version.locations.values_list("number", flat=True)) == [1, 2]

    page.get_by_role("button", name="Submit for review").click()

    expect(success(page)).to_contain_text("Submitted for review")
    version.refresh_from_db()
    assert version.status == VersionStatus.SUBMITTED
    page.screenshot(path=artifacts / "editor-submitted.png", full_page=False)


def test_it_swaps_two_cards_in_the_browser(writer, live_server_url, chromium):
    version = case_import_package(files=read_package_path(TUTORIAL), author=writer).version
    page = admin_page(chromium, live_server_url, "alice")
    page.goto(f"/admin/cases/caseversion/{version.pk}/change/")
    page.get_by_role("button", name="Open all cards").click()  # the cards open folded

    page.locator("#id_locations-5-number").fill("7")
    page.locator("#id_locations-6-number").fill("6")
    save_and_continue(page)

    expect(page.locator(".messagelist")).to_contain_text("Renumbered card 6 → 7, card 7 → 6")
    assert version.locations.get(number=7).name == "Smithfield Market"
    assert "Smithfield [[7]]" in version.locations.get(number=5).text


def test_it_reviews_a_case_to_publication(submitted, mina, live_server_url, chromium, artifacts):
    moderator = admin_page(chromium, live_server_url, "mina")
    moderator.get_by_role("link", name="Reviews").click()
    moderator.get_by_role("link", name=re.compile("The Clerkenwell Repeater")).click()
    expect(moderator.locator("#solution-hidden")).to_be_visible()

    moderator.get_by_role("button", name="Claim").click()
    expect(success(moderator)).to_contain_text("You claimed this case")
    moderator.get_by_role("button", name="Play-test (solo table)").click()
    expect(success(moderator)).to_contain_text("solo play-test table")
    moderator.get_by_role("link", name=re.compile(r"^table \d+")).click()
    expect(moderator.locator("#private-table")).to_contain_text("nobody can join it")
    expect(moderator.locator("#invite-link")).to_have_count(0)
    moderator.go_back()

    moderator.get_by_role("button", name="Show the solution and the report").click()
    expect(moderator.locator("#solution")).to_contain_text("Silas Crane")
    expect(moderator.locator("#card-6")).to_contain_text("Smithfield Market")  # every card
    moderator.get_by_label("Target").select_option(label="Card 6. Smithfield Market")
    moderator.get_by_label("Text").fill("Say where Tom hides among the barrows.")
    moderator.get_by_role("button", name="Add comment").click()
    # Sent in place: the review page stays, and says so.
    expect(moderator.locator(".holmes-in-place-status")).to_contain_text("Comment added")
    expect(moderator.locator("#card-6")).to_contain_text("Say where Tom hides")  # beside it
    moderator.get_by_label("Text").fill("One more clue would help the ticket question.")
    moderator.get_by_role("button", name="Request changes").click()
    expect(success(moderator)).to_contain_text("Changes requested")

    # The author finds the comment beside its card, and answers it there.
    writer = admin_page(chromium, live_server_url, "alice")
    writer.goto(f"/admin/cases/caseversion/{submitted.pk}/change/")
    comments = writer.locator("#review-comments")
    expect(comments).to_contain_text("One more clue would help the ticket question.")
    # The card's thread stands under the card; the panel's line leads to it there.
    thread = writer.locator("#locations-5 article", has_text="Say where Tom hides")
    smithfield = writer.locator("#id_locations-5-text")
    comments.get_by_role("link", name="Card 6").click()
    expect(smithfield).to_be_visible()
    expect(writer.locator("#locations-5")).to_contain_text("1 open comment")
    thread.get_by_label("Your reply").fill("Under the third barrow: I say so on the card now.")
    thread.get_by_role("button", name="Reply").click()
    # Sent in place: the editor page stays, and says so in the thread.
    expect(thread.locator(".holmes-in-place-status")).to_contain_text(
        "Your reply is added to the thread"
    )
    expect(thread).to_contain_text("Under the third barrow")
    writer.screenshot(path=artifacts / "editor-comment-thread.png", full_page=False)

    # The moderator, whose case waits for the author, reads the reply and resolves it.
    moderator.get_by_role("link", name=re.compile("The Clerkenwell Repeater")).click()
    card_thread = moderator.locator("#card-6 article")
    expect(card_thread).to_contain_text("Under the third barrow")
    card_thread.get_by_role("button", name="Resolve").click()
    expect(success(moderator)).to_contain_text("The comment is marked resolved")
    expect(moderator.locator("#card-6 article")).to_contain_text("Resolved by Mina")

    writer.reload()
    expect(writer.locator("#review-comments")).not_to_contain_text("Say where Tom hides")
    writer.locator("#locations-5 summary").click()  # card 6's line opens its fold
    smithfield.fill(smithfield.input_value() + "\n\nTom sleeps under the third barrow.")
    save_and_continue(writer)
    expect(success(writer)).to_contain_text("was changed successfully")
    writer.get_by_role("button", name="Submit for review").click()
    expect(success(writer)).to_contain_text("Submitted for review")

    # Back with the same moderator, in review: only what changed since her review.
    moderator.goto("/admin/authoring/review/")
    expect(moderator.locator("#result_list")).to_contain_text("Mina")
    moderator.get_by_role("link", name=re.compile("The Clerkenwell Repeater")).click()
    expect(moderator.get_by_role("button", name="Claim")).to_have_count(0)
    diff = moderator.locator("#diff")
    expect(diff.get_by_role("heading", name="Changes since your last review")).to_be_visible()
    expect(diff.locator("h3")).to_have_text(["Card 6: changed"])
    expect(diff).to_contain_text("+Tom sleeps under the third barrow.")
    moderator.screenshot(path=artifacts / "review-changes-since-last-review.png", full_page=False)
    moderator.get_by_role("button", name="Approve and publish").click()
    moderator.get_by_role("button", name="Yes, approve and publish").click()  # asked twice

    expect(success(moderator)).to_contain_text("Approved and published")
    expect(moderator.locator("#history")).to_contain_text("Changes requested by Mina")
    submitted.refresh_from_db()
    assert submitted.status == VersionStatus.PUBLISHED
    assert "third barrow" in submitted.locations.get(number=6).text
    moderator.screenshot(path=artifacts / "review-published.png", full_page=False)


def test_it_play_tests_a_draft_from_the_editor(writer, live_server_url, chromium, artifacts):
    draft = case_import_package(files=read_package_path(TUTORIAL), author=writer).version
    page = admin_page(chromium, live_server_url, "alice")
    page.goto(f"/admin/cases/caseversion/{draft.pk}/change/")

    page.get_by_role("button", name="Play-test it myself").click()

    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#private-table")).to_contain_text("nobody can join it")
    expect(page.locator("#invite-link")).to_have_count(0)
    table = draft.tables.get()
    assert table.is_private and table.host == writer
    assert page.url.endswith(f"/tables/{table.pk}/")
    page.screenshot(path=artifacts / "author-playtest.png", full_page=False)


def test_it_round_trips_the_zip_and_edits_a_published_case_as_a_new_draft(
    published, live_server_url, chromium, tmp_path, artifacts
):
    page = admin_page(chromium, live_server_url, "alice")
    page.goto(f"/admin/cases/caseversion/{published.pk}/change/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export package (.zip)").click()
    package = tmp_path / "package.zip"
    download.value.save_as(package)
    with zipfile.ZipFile(io.BytesIO(package.read_bytes())) as archive:
        assert "the-clerkenwell-repeater/case.md" in archive.namelist()

    page.goto("/admin/cases/caseversion/")
    page.get_by_role("link", name="Import a package (.zip)").click()
    page.get_by_label("Package").set_input_files(package)
    page.get_by_role("button", name="Import").click()

    expect(success(page)).to_contain_text("Imported as version 2 of the-clerkenwell-repeater")
    imported = published.case.versions.get(number=2)
    assert imported.status == VersionStatus.DRAFT
    assert imported.locations.count() == published.locations.count()

    page.goto(f"/admin/cases/caseversion/{published.pk}/change/")
    expect(page.locator("#workflow")).to_contain_text("Version 2 is already open")
    expect(page.get_by_role("button", name="Edit as a new draft")).to_be_disabled()
    page.goto(f"/admin/cases/caseversion/{imported.pk}/delete/")
    page.get_by_role("button", name=re.compile("Yes, I’m sure")).click()
    expect(success(page)).to_contain_text("was deleted successfully")

    page.goto(f"/admin/cases/caseversion/{published.pk}/change/")
    page.get_by_role("button", name="Edit as a new draft").click()

    expect(success(page)).to_contain_text("Version 2 is a new draft copied from version 1")
    expect(page.locator("#id_title")).to_have_value("The Clerkenwell Repeater")
    page.locator("#id_title").fill("The Clerkenwell Repeater, revised")
    save_and_continue(page)
    expect(success(page)).to_contain_text("was changed successfully")
    assert published.case.versions.get(number=2).title == "The Clerkenwell Repeater, revised"
    assert CaseVersion.objects.get(pk=published.pk).title == "The Clerkenwell Repeater"
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "editor-new-draft-360.png", full_page=False)


def test_a_second_comment_typed_in_a_reply_box_goes_with_request_changes(
    submitted, mina, live_server_url, chromium
):
    """The moderator comments on a question, then types a second remark into that
    thread's reply box and presses "Request changes" (not the thread's Reply): the
    remark reaches the author all the same."""
    moderator = admin_page(chromium, live_server_url, "mina")
    moderator.get_by_role("link", name="Reviews").click()
    moderator.get_by_role("link", name=re.compile("The Clerkenwell Repeater")).click()
    moderator.get_by_role("button", name="Claim").click()
    moderator.get_by_label("Target").select_option(label='Question "ticket"')
    moderator.get_by_label("Text").fill("Which ticket?")
    moderator.get_by_role("button", name="Add comment").click()
    # Sent in place: the review page stays, and says so.
    expect(moderator.locator(".holmes-in-place-status")).to_contain_text("Comment added")

    thread = moderator.locator("#question-ticket .holmes-thread")
    thread.get_by_label("Your reply").fill("And say which platform, please.")
    moderator.get_by_role("button", name="Request changes").click()
    expect(success(moderator)).to_contain_text("Changes requested")

    writer = admin_page(chromium, live_server_url, "alice")
    writer.goto(f"/admin/cases/caseversion/{submitted.pk}/change/")
    # The question's thread stands under the question, the reply with it.
    comments = writer.locator(".holmes-thread", has_text="Which ticket?")
    expect(comments).to_contain_text("And say which platform, please.")
