"""Game night's way in, in Chromium: a friend without an account opens the invite, signs
up through the header's link and is back at the table; another types the code read aloud
into the header's box; a wrong code is said kindly."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import PHONE, WIDE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby(tutorial, alice, bob):
    return services.table_create(host=alice, case_version=tutorial)


def test_a_friend_signs_up_from_the_invite_and_another_joins_by_the_code(
    lobby, live_server_url, chromium, artifacts
):
    # dora has no account: the invite leads to a log-in page that says who invites her.
    dora = open_page(chromium, live_server_url, PHONE)
    dora.goto(f"/join/{lobby.invite_code}/")
    expect(dora.get_by_role("heading", level=1)).to_have_text(
        "Alice invites you to play The Clerkenwell Repeater"
    )
    dora.screenshot(path=artifacts / "invite-log-in-360.png", full_page=True)
    # The header's Sign up link, not the page's own: the invite must survive it too.
    dora.get_by_role("banner").get_by_role("link", name="Sign up").click()
    expect(dora.get_by_role("heading", level=1)).to_have_text("Sign up to join Alice's table")
    dora.get_by_label("Username").fill("dora")
    dora.get_by_label("Email").fill("dora@example.com")
    dora.locator("#id_password1").fill("a fog over the Thames")
    dora.get_by_label("Password confirmation").fill("a fog over the Thames")
    dora.get_by_role("button", name="Create my account").click()
    expect(dora.get_by_role("heading", level=1)).to_have_text(
        "Join the table for The Clerkenwell Repeater"
    )
    # The page's main action has the focus: Enter takes the seat.
    expect(dora.get_by_role("button", name="Take a seat")).to_be_focused()
    dora.keyboard.press("Enter")
    expect(dora.locator(".seat-list")).to_contain_text("dora")

    # bob heard the code read aloud: he types it in lower case, with its dash.
    bob = open_page(chromium, live_server_url, WIDE)
    log_in(bob, "bob")
    box = bob.get_by_role("textbox", name="Join with a code")
    box.fill(lobby.invite_code_shown.lower())
    bob.screenshot(path=artifacts / "join-with-a-code-1280.png")
    box.press("Enter")
    bob.get_by_role("button", name="Take a seat").click()
    expect(bob.locator(".seat-list")).to_contain_text("Bob")
    expect(bob.locator("#invite-code")).to_have_text(lobby.invite_code_shown)
    bob.screenshot(path=artifacts / "lobby-with-code-1280.png", full_page=True)

    # A mistyped code is said kindly, with another try at hand.
    box = dora.get_by_role("textbox", name="Join with a code")
    box.fill("zzz-zzz")
    box.press("Enter")
    expect(dora.get_by_role("heading", level=1)).to_have_text("No table has this code")
    expect(dora.locator("main")).to_contain_text("The code ZZZZZZ opens no table.")
    dora.screenshot(path=artifacts / "wrong-code-360.png", full_page=True)
