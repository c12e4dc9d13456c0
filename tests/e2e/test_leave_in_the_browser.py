"""A player leaves a Sherlock & Mycroft game in Chromium: the other player's open page says
so live, and the computer plays the seat from then on."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from play.models import Table

from .test_sherlock_mycroft_in_the_browser import (
    PHONE,
    WIDE,
    log_in,
    open_page,
    play_first_offered,
    shoot,
    wait_for_choice,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(alice, bob):
    table = services.table_create(host=alice, game="sherlock_mycroft")
    Table.objects.filter(pk=table.pk).update(seed=1887)
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


def test_bob_leaves_and_the_computer_plays_in_his_place(game, live_server_url, chromium, artifacts):
    alice = open_page(chromium, live_server_url, WIDE)
    log_in(alice, "alice")
    alice.goto(f"/tables/{game.pk}/")
    # Nobody has been away: the host is not told about removing anyone from the first move.
    expect(alice.locator("#seat-controls")).to_be_visible()
    expect(alice.locator("#remove-help")).to_have_count(0)

    bob = open_page(chromium, live_server_url, PHONE)
    log_in(bob, "bob")
    bob.goto(f"/tables/{game.pk}/")
    bob.once("dialog", lambda dialog: dialog.accept())  # "Leave this game? ..."
    bob.get_by_role("button", name="Leave the game").click()
    expect(bob.get_by_role("heading", name="My tables")).to_be_visible()
    expect(bob.get_by_text("You left the game: a computer player took your seat.")).to_be_visible()

    said = "Bob left the game; a computer player (Computer 1) takes the seat."
    expect(alice.locator("#departures")).to_contain_text(said)  # live, without a reload
    expect(alice.locator("#remove-seat-1")).to_have_count(0)
    expect(alice.locator("#remove-help")).to_have_count(0)  # nobody else to remove now

    moves = 0
    for _ in range(3):
        assert wait_for_choice(alice)
        play_first_offered(alice)
        moves += 1
    assert wait_for_choice(alice)
    started_at_version = game.version
    game.refresh_from_db()
    # One version for the leaving, one per move of alice's; the computer made the rest.
    assert game.version > started_at_version + 1 + moves

    shoot(alice, artifacts / "left-1280.png", WIDE)
    shoot(alice, artifacts / "left-360.png", PHONE)
    bob.screenshot(path=artifacts / "left-bob-360.png", full_page=True)
