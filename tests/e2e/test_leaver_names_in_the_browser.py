"""Bob leaves an Elementary deck game and an I Say, Holmes! game in Chromium: Alice's open
page names the computer in the game's own panel, live, and Bob's name is left only in the
sentence that says he left."""

from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from play import services
from play.models import Table

from .test_sherlock_mycroft_in_the_browser import (
    PHONE,
    WIDE,
    log_in,
    no_horizontal_scroll,
    open_page,
)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/leaver-names")
LEFT = "Bob left the game; a computer player (Computer 1) takes the seat."
PANELS = {"holmes_elementary": "#he-players", "i_say_holmes": "#ish-players"}


@pytest.fixture(params=["holmes_elementary", "i_say_holmes"])
def game(request, alice, bob, charlie):
    table = services.table_create(host=alice, game=request.param)
    Table.objects.filter(pk=table.pk).update(seed=1887)
    others = [bob, charlie] if request.param == "i_say_holmes" else [bob]
    for user in others:
        services.table_join(invite_code=table.invite_code, user=user)
    return services.table_start(table_id=table.pk, user=alice)


def bob_leaves(chromium, live_server_url, table: Table) -> None:
    bob = open_page(chromium, live_server_url, PHONE)
    log_in(bob, "bob")
    bob.goto(f"/tables/{table.pk}/")
    bob.once("dialog", lambda dialog: dialog.accept())  # "Leave this game? ..."
    bob.get_by_role("button", name="Leave the game").click()
    expect(bob.get_by_role("heading", name="My tables")).to_be_visible()


def text_without_departure(page: Page) -> str:
    text = page.locator("main").inner_text()
    assert LEFT in text
    return text.replace(LEFT, "")


def test_the_games_own_panel_names_the_computer(game, live_server_url, chromium, artifacts):
    panel = PANELS[game.engine]
    alice = open_page(chromium, live_server_url, WIDE)
    log_in(alice, "alice")
    alice.goto(f"/tables/{game.pk}/")
    expect(alice.locator(panel)).to_contain_text("Bob")

    bob_leaves(chromium, live_server_url, game)

    expect(alice.locator("#departures")).to_contain_text(LEFT)  # live, without a reload
    expect(alice.locator(panel)).to_contain_text("Computer 1")
    expect(alice.locator(panel)).not_to_contain_text("Bob")
    assert "Bob" not in text_without_departure(alice)

    alice.reload()  # and so it stays
    expect(alice.locator(panel)).to_contain_text("Computer 1")
    assert "Bob" not in text_without_departure(alice)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, width in ((WIDE, 1280), (PHONE, 360)):
        alice.set_viewport_size(viewport)
        alice.screenshot(path=SHOTS / f"{game.engine}-{width}.png", full_page=True)
        assert no_horizontal_scroll(alice), f"{game.engine} scrolls sideways at {width} px"
