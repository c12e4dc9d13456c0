"""Watching in Chromium: a friend who comes after the start opens the invite, watches the
game live with the spectator's view, and the host turns watching off."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import PHONE, WIDE, button, log_in, open_page, wait_for_turn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def started(tutorial, alice, bob, make_user):
    make_user("dora", display_name="Dora")
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


def test_a_late_friend_watches_live_and_the_host_turns_watching_off(
    started, live_server_url, chromium, artifacts
):
    dora = open_page(chromium, live_server_url, PHONE)
    log_in(dora, "dora")
    dora.goto(f"/join/{started.invite_code}/")
    expect(dora.get_by_role("heading", level=1)).to_have_text(
        "The Clerkenwell Repeater has already started"
    )
    dora.get_by_role("button", name="Watch this game").click()
    expect(dora.locator("#watching-note")).to_contain_text("You are watching")
    expect(dora.locator("#connection")).to_have_text("Live")

    alice = open_page(chromium, live_server_url, WIDE)
    log_in(alice, "alice")
    alice.goto(f"/tables/{started.pk}/")
    wait_for_turn(alice)
    button(alice, "Take the Watson card").click()
    # dora's page follows the game without a reload, and offers her no move.
    expect(dora.locator("#watson-card")).to_contain_text("Alice")
    expect(dora.locator("#live form[action$='/act/']")).to_have_count(0)
    dora.screenshot(path=artifacts / "watching-360.png", full_page=True)

    alice.get_by_role("button", name="Turn watching off").click()
    expect(alice.locator(".messages")).to_contain_text("Watching is off")
    alice.screenshot(path=artifacts / "watching-off-1280.png", full_page=True)
    # The address she watched at now says why she sees no game, and shows none of it.
    response = dora.goto(f"/tables/{started.pk}/")
    assert response.status == 200
    expect(dora.locator("main")).to_contain_text("has turned watching off")
    expect(dora.locator("#watson-card")).to_have_count(0)


def test_a_friend_with_only_the_table_address_watches_with_the_keyboard(
    started, live_server_url, chromium, artifacts
):
    """Friends copy the address bar, not the invite: its address offers what the invite
    does, and the offer is the first thing the keyboard reaches."""
    dora = open_page(chromium, live_server_url, PHONE)
    log_in(dora, "dora")
    response = dora.goto(f"/tables/{started.pk}/")
    assert response.status == 200
    expect(dora.get_by_role("heading", level=1)).to_have_text(
        "The Clerkenwell Repeater is being played"
    )
    dora.screenshot(path=artifacts / "table-address-outsider-360.png", full_page=True)
    expect(dora.get_by_role("button", name="Watch this game")).to_be_focused()
    dora.keyboard.press("Enter")
    expect(dora.locator("#watching-note")).to_contain_text("You are watching")
    expect(dora.locator("#connection")).to_have_text("Live")
