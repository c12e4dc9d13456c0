"""A player leaves a Watson & Holmes game in Chromium: the case game has no computer
player, so play passes the seat by. The other player's open page says so live, marks the
seat as left, and she plays on alone.

alice plays at 1280 px; bob leaves from a 360 px phone. Screenshots in /tmp/shots/wh-leave/.
"""

from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from play.models import Seat, Table
from tests.e2e.pages import PHONE, WIDE, finish_reading, log_in, wait_for_turn

from .test_watson_holmes_table_page import open_page, visit

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/wh-leave")


@pytest.fixture
def case_table(tutorial, alice, bob):
    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1889)
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


def shoot(page, name: str, viewport: dict) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(viewport)
    page.screenshot(path=SHOTS / name, full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name


def test_bob_leaves_the_case_and_alice_plays_on(case_table, live_server_url, chromium):
    alice, _ = open_page(chromium, live_server_url, WIDE)
    log_in(alice, "alice")
    alice.goto(f"/tables/{case_table.pk}/")
    visit(alice, 1)

    bob, _ = open_page(chromium, live_server_url, PHONE)
    log_in(bob, "bob")
    bob.goto(f"/tables/{case_table.pk}/")
    wait_for_turn(bob)
    shoot(bob, "bob-before-leaving-360.png", PHONE)
    messages = []
    bob.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.accept()))
    bob.get_by_role("button", name="Leave the game").click()
    expect(bob.get_by_role("heading", name="My tables")).to_be_visible()
    expect(bob.get_by_text("You left the game: play passes your seat by.")).to_be_visible()
    assert "Play passes your seat by" in messages[0]
    shoot(bob, "bob-after-leaving-360.png", PHONE)

    # Alice's open page, live: who left, and Bob's seat marked as left (not a form).
    said = "Bob left the game; play passes them by."
    expect(alice.locator("#departures")).to_contain_text(said)
    expect(alice.locator("#player-1-left")).to_have_text("Left the game")
    expect(alice.locator("#player-1")).to_contain_text("Left the game: play passes them by.")
    expect(alice.locator("#player-1 form")).to_have_count(0)
    # Bob was on turn: the round went on without him, and Alice reads her card.
    finish_reading(alice)
    wait_for_turn(alice)  # round 2: her turn again, nobody else's
    expect(alice.locator("#game-log")).to_contain_text("Bob left the game; play passes them by.")
    visit(alice, 2)
    expect(alice.get_by_role("button", name="I have finished reading")).to_be_visible()
    shoot(alice, "alice-plays-on-1280.png", WIDE)
    shoot(alice, "alice-plays-on-360.png", PHONE)

    # Bob's old page address shows him nothing of the seat any more.
    assert Seat.objects.get(table=case_table, number=1).has_left
    bob.goto(f"/tables/{case_table.pk}/")
    expect(bob.get_by_role("button", name="I have finished reading")).to_have_count(0)
    expect(bob.locator("#leave-game")).to_have_count(0)
