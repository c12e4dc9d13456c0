"""The host cancels a lobby in Chromium: a friend's open lobby page says what happened."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import PHONE, WIDE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby(tutorial, alice, bob):
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    return table


def test_the_host_cancels_and_a_friends_open_lobby_says_so(
    lobby, live_server_url, chromium, artifacts
):
    bob = open_page(chromium, live_server_url, PHONE)
    log_in(bob, "bob")
    bob.goto(f"/tables/{lobby.pk}/")
    expect(bob.get_by_role("heading", name="The lobby")).to_be_visible()

    alice = open_page(chromium, live_server_url, WIDE)
    log_in(alice, "alice")
    alice.goto(f"/tables/{lobby.pk}/")
    alice.once("dialog", lambda dialog: dialog.accept())  # "Cancel this table for everyone?"
    alice.get_by_role("button", name="Cancel the table").click()

    expect(alice.locator("#cancelled")).to_contain_text("You cancelled this table")
    expect(bob.locator("#cancelled")).to_contain_text(
        "Alice cancelled this table before the game started."
    )
    expect(bob.get_by_role("heading", name="The lobby")).to_have_count(0)
    expect(bob.locator("#notebook-form")).to_have_count(0)
    alice.screenshot(path=artifacts / "cancelled-1280.png", full_page=True)
    bob.screenshot(path=artifacts / "cancelled-360.png", full_page=True)
