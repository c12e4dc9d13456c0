"""The editor for long cases, in Chromium: cards folded to a line each, fields that do not
apply hidden, a live preview of Markdown, a warning before leaving unsaved changes,
autosave, and the author's preview of the whole case."""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from authoring import services as authoring
from cases.models import CaseVersion
from cases.package.reader import read_package_path
from cases.services import case_import_package
from tests.authoring.conftest import TUTORIAL
from tests.e2e.test_write_and_review_in_the_browser import WIDE, admin_page

pytestmark = pytest.mark.django_db(transaction=True)

expect.set_options(timeout=15_000)


@pytest.fixture
def draft(alice):
    authoring.user_make_author(user=alice)
    return case_import_package(files=read_package_path(TUTORIAL), author=alice).version


def editor(browser, base_url: str, version) -> Page:
    page = admin_page(browser, base_url, "alice", WIDE)
    page.goto(f"/admin/cases/caseversion/{version.pk}/change/")
    return page


def card(page: Page, index: int):
    return page.locator(f"#locations-{index} > details.holmes-card")


def test_it_folds_the_cards_and_opens_one_from_its_line(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    expect(card(page, 5)).not_to_have_attribute("open", "")
    expect(page.locator("#id_locations-5-text")).not_to_be_visible()

    card(page, 5).locator("summary").click()  # Smithfield Market

    expect(page.locator("#id_locations-5-text")).to_be_visible()
    expect(card(page, 6)).not_to_have_attribute("open", "")
    page.get_by_role("button", name="Open all cards").click()
    expect(page.locator("#id_locations-11-text")).to_be_visible()
    page.get_by_role("button", name="Fold all cards").click()
    expect(page.locator("#id_locations-5-text")).not_to_be_visible()


def test_it_hides_what_does_not_apply(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    page.get_by_role("button", name="Open all cards").click()

    expect(page.locator("#id_locations-0-zone")).to_have_count(0)  # a one-zone case
    expect(page.locator("#locations-0 .field-carriages")).to_be_hidden()
    expect(page.locator("#locations-10 .field-carriages")).to_be_visible()  # the cab fare
    page.locator("#id_locations-0-icons_3").check()  # carriages
    expect(page.locator("#locations-0 .field-carriages")).to_be_visible()


def test_it_previews_markdown_beside_the_text_as_it_is_typed(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    card(page, 4).locator("summary").click()  # Wiggins
    text = page.locator("#id_locations-4-text")
    preview = page.locator("#id_locations-4-text_live_preview")

    text.fill("A **bold** lead to [[6]]. <script>window.owned = 1</script><b onclick=x>b</b>")

    expect(preview.locator("strong")).to_have_text("bold")
    expect(preview.locator("[data-location='6']")).to_have_count(1)
    expect(preview.locator("script")).to_have_count(0)
    assert preview.locator("b").get_attribute("onclick") is None
    assert page.evaluate("window.owned") is None
    intro_preview = page.locator("#id_introduction_live_preview")
    expect(intro_preview).to_contain_text("grey Tuesday morning")


def test_it_warns_before_leaving_unsaved_changes(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    page.evaluate("document.getElementById('holmes-editor').dataset.autosave = '0'")
    dialogs = []

    def dismiss(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.locator("#id_title").fill("The Clerkenwell Repeater, unsaved")
    page.get_by_role("link", name="Case versions").first.click()

    assert dialogs == ["beforeunload"]
    expect(page.locator("#id_title")).to_have_value("The Clerkenwell Repeater, unsaved")


def test_it_autosaves_changes_but_leaves_new_rows_to_the_save_button(
    draft, live_server_url, chromium
):
    page = editor(chromium, live_server_url, draft)

    page.locator("#id_title").fill("The Clerkenwell Repeater, autosaved")

    expect(page.locator("#autosave-status")).to_contain_text("Saved automatically at")
    assert CaseVersion.objects.get(pk=draft.pk).title == "The Clerkenwell Repeater, autosaved"
    page.get_by_text("Add another Location").click()
    page.locator("#id_locations-12-number").fill("13")
    page.locator("#id_locations-12-name").fill("The Fog")
    expect(page.locator("#autosave-status")).to_contain_text(
        "New rows are saved when you press Save."
    )
    assert draft.locations.count() == 12
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    assert draft.locations.count() == 13


def test_it_previews_the_whole_case_as_players_will_see_it(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    with page.context.expect_page() as opened:
        page.get_by_role("link", name=re.compile("^Preview as players see it")).click()
    page = opened.value

    expect(page.get_by_role("heading", name="The Clerkenwell Repeater", level=1)).to_be_visible()
    expect(page.locator(".location-card")).to_have_count(12)
    expect(page.locator("#location-3 .icon--police")).to_have_text("Police token")
    expect(page.locator("#location-11 .icon--carriages")).to_contain_text("+2")
    expect(page.locator("#solution")).not_to_be_visible()
    page.get_by_text("Show the solution").click()
    expect(page.locator("#solution")).to_contain_text("Silas Crane")


def test_save_and_continue_comes_back_to_the_card_field_the_writer_was_in(
    draft, live_server_url, chromium
):
    page = editor(chromium, live_server_url, draft)
    card(page, 5).locator("summary").click()  # Smithfield Market
    text = page.locator("#id_locations-5-text")
    text.fill(text.input_value() + "\n\nThe porters say nothing.")

    page.get_by_role("button", name="Save and continue editing").click()

    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    assert page.url.endswith("/change/#id_locations-5-text")
    text = page.locator("#id_locations-5-text")
    expect(text).to_be_focused()
    expect(text).to_be_in_viewport()
    expect(text).to_have_value(re.compile("The porters say nothing.$"))
    expect(page.locator("#id_introduction")).not_to_be_in_viewport()


def test_preview_and_submit_leave_unsaved_text_where_it_is(draft, live_server_url, chromium):
    page = editor(chromium, live_server_url, draft)
    # Autosave's posts are held: the title stays unsaved while the writer goes on.
    held = []

    def hold_posts(route):
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r".*/change/$"), hold_posts)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.locator("#id_title").fill("The Clerkenwell Repeater, unsaved")

    with page.context.expect_page() as opened:
        page.get_by_role("link", name=re.compile("^Preview as players see it")).click()
    expect(opened.value.locator(".location-card")).to_have_count(12)
    page.get_by_role("button", name="Submit for review").click()

    expect(page.locator("#workflow")).to_contain_text("You have unsaved changes: press Save first")
    assert dialogs == []
    expect(page.locator("#id_title")).to_have_value("The Clerkenwell Repeater, unsaved")
    assert CaseVersion.objects.get(pk=draft.pk).status == "draft"
    for route in held:
        route.abort()
