"""The host of an I Say, Holmes! table changes its clocks in the lobby, on a phone: the
answer window switched off, a turn timer of two minutes. The lobby says so at once, the
other player's lobby too (by live push), and the focus stays on the form's button."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import PHONE, WIDE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby(alice, bob):
    table = services.table_create(host=alice, game="i_say_holmes")
    services.table_join(invite_code=table.invite_code, user=bob)
    return table


def test_the_host_changes_the_clocks_in_the_lobby(lobby, live_server_url, chromium, artifacts):
    host = open_page(chromium, live_server_url, PHONE)
    log_in(host, "alice")
    host.goto(f"/tables/{lobby.pk}/")
    guest = open_page(chromium, live_server_url, WIDE)
    log_in(guest, "bob")
    guest.goto(f"/tables/{lobby.pk}/")
    lobby_line = "#live .lobby > p.meta"
    expect(guest.locator(lobby_line)).to_contain_text("Seconds to answer a card played on you: 30")
    expect(guest.locator(lobby_line)).to_contain_text("No turn timer.")
    expect(guest.get_by_role("heading", name="Change the house rules")).to_have_count(0)

    form = host.locator("#house-rules-form")
    form.get_by_label("Seconds to answer a card played on you").fill("0")
    form.get_by_label("Turn timer").select_option(label="2 minutes")
    host.locator("#save-house-rules").focus()
    host.keyboard.press("Enter")

    expect(host.locator(lobby_line)).to_contain_text(
        "Seconds to answer a card played on you: no limit"
    )
    expect(host.locator(lobby_line)).to_contain_text("Turn timer: 120 seconds a move.")
    expect(host.locator("#refusal")).to_have_count(0)
    assert host.evaluate("document.activeElement.id") == "save-house-rules"
    host.screenshot(path=artifacts / "house-rules-360.png", full_page=True)
    expect(guest.locator(lobby_line)).to_contain_text(
        "Seconds to answer a card played on you: no limit"
    )
    expect(guest.locator(lobby_line)).to_contain_text("Turn timer: 120 seconds a move.")
    lobby.refresh_from_db()
    assert (lobby.options["window_seconds"], lobby.turn_timer_seconds) == (0, 120)
