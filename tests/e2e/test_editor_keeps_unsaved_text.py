"""Nothing on the editor's page discards what the writer typed and has not saved: a reply
to a moderator's comment is sent in place, while the introduction holds unsaved edits and
another thread's box holds a half-written reply. The reply's answer is held back on
purpose, so the writer types on while it is in flight."""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from authoring import services as authoring
from authoring.services import CommentInput
from cases.package.reader import read_package_path
from cases.services import case_import_package
from tests.authoring.conftest import TUTORIAL
from tests.e2e.test_write_and_review_in_the_browser import admin_page

pytestmark = pytest.mark.django_db(transaction=True)

expect.set_options(timeout=15_000)


@pytest.fixture
def sent_back(alice, make_user):
    """alice's tutorial case, sent back by mina with a comment on card 6 and one on the
    question "ticket"."""
    authoring.user_make_author(user=alice)
    mina = make_user("mina", display_name="Mina")
    authoring.user_make_moderator(user=mina)
    version = case_import_package(files=read_package_path(TUTORIAL), author=alice).version
    authoring.case_submit(version=version, user=alice)
    authoring.case_claim(version=version, user=mina)
    card = version.locations.get(number=6)
    question = version.questions.get(key="ticket")
    authoring.case_request_changes(
        version=version,
        user=mina,
        comments=[
            CommentInput("Say where Tom hides among the barrows.", location_id=card.pk),
            CommentInput("Which ticket?", question_id=question.pk),
        ],
    )
    return version


def test_a_reply_leaves_unsaved_edits_and_other_boxes_alone(sent_back, live_server_url, chromium):
    page = admin_page(chromium, live_server_url, "alice")
    editor = f"/admin/cases/caseversion/{sent_back.pk}/change/"
    page.goto(editor)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))

    introduction = page.locator("#id_introduction")
    page.locator("summary", has_text="Introduction").click()  # the texts open folded
    introduction.fill("A new opening line, not saved yet.")

    held = []
    page.route(re.compile(r".*/comments/\d+/reply/$"), lambda route: held.append(route))

    # Each thread stands under its card or question (the panel only leads to it).
    comments = page.locator("#content-main")
    barrows = comments.locator(".holmes-thread", has_text="Say where Tom hides")
    ticket = comments.locator(".holmes-thread", has_text="Which ticket?")
    barrows.get_by_label("Your reply").fill("Under the third barrow: the card says so now.")
    barrows.get_by_role("button", name="Reply").click()

    # While the reply is in flight, the writer starts another reply.
    ticket.get_by_label("Your reply").fill("The return half, from Farringdon")
    for _ in range(100):  # until the reply's request reaches the route that holds it
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    expect(barrows.get_by_role("button", name="Reply")).to_be_disabled()  # still in flight
    held[0].continue_()

    expect(comments.locator(".holmes-reply")).to_contain_text("Under the third barrow")
    expect(comments.locator(".holmes-in-place-status")).to_contain_text("Your reply is added")
    assert page.url.endswith(editor)
    assert dialogs == []
    expect(introduction).to_have_value("A new opening line, not saved yet.")
    expect(
        comments.locator(".holmes-thread", has_text="Which ticket?").get_by_label("Your reply")
    ).to_have_value("The return half, from Farringdon")


def test_a_refused_reply_keeps_its_text_and_says_why(sent_back, live_server_url, chromium):
    page = admin_page(chromium, live_server_url, "alice")
    page.goto(f"/admin/cases/caseversion/{sent_back.pk}/change/")
    thread = page.locator(".holmes-thread", has_text="Which ticket?")
    box = thread.get_by_label("Your reply")
    box.fill("   ")  # only spaces: the browser's "required" lets it through

    thread.get_by_role("button", name="Reply").click()

    expect(thread.locator(".holmes-in-place-status")).to_contain_text("A reply needs some text.")
    expect(box).to_have_value("   ")
