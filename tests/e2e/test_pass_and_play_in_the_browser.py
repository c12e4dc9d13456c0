"""Pass and play in Chromium: alice seats Mara on her own device at an Elementary deck
table, starts, and the two take turns on one browser. Between turns the page is the pass
screen, which shows neither player's cards; each sees only their own hand once they
confirm. Screenshots of the lobby, the pass screen and a confirmed seat at 1280 and
360 px go to /tmp/shots/pass-and-play/ (and test-artifacts/)."""

import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Error, Page, expect

from games import GAMES, get_rules
from games.holmes_elementary.rules.cards import CARD_NAMES
from play.models import Table
from tests.e2e.pages import log_in
from tests.e2e.test_holmes_elementary_in_the_browser import play_one_move

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
SHOTS = Path("/tmp/shots/pass-and-play")


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def shoot(page: Page, artifacts: Path, name: str, *, game_page: bool = False) -> None:
    """Screenshots at both widths. `game_page`: the game's own page is in view, whose
    width is the game's affair (a sideways scroll there is reported, not failed)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("1280", WIDE), ("360", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        for folder in (SHOTS, artifacts):
            page.screenshot(path=folder / f"pass-and-play-{name}-{label}.png", full_page=True)
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
            " > window.innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className)"
            ".slice(0, 8)"
        )
        if game_page and wide:
            warnings.warn(f"{name} scrolls sideways at {label} px: {wide}", stacklevel=1)
        else:
            assert no_horizontal_scroll(page), f"{name} scrolls sideways at {label} px: {wide}"
    page.set_viewport_size(WIDE)


def private_cards(table_id: int) -> dict[int, set[str]]:
    """Each seat's private card ids, as the game says (without their JSON quotes)."""
    table = Table.objects.get(pk=table_id)
    game = GAMES[table.engine]
    return {
        seat: {item.strip('"') for item in game.private_items(table.state, seat)}
        for seat in range(len(table.summary["seats"]))
    }


def waiting(table_id: int) -> list[int]:
    table = Table.objects.get(pk=table_id)
    return list(get_rules(table.engine).waiting_for(table.state))


def assert_pass_screen_hides_every_hand(page: Page, table_id: int) -> None:
    expect(page.locator("#pass-screen")).to_be_visible()
    for hidden in (".he-hand-card", "#he-grid", "#notebook", "#he-moves", "#he-choice"):
        expect(page.locator(hidden)).to_have_count(0)
    html = page.content()
    shown = page.locator("#live").inner_text()
    secrets = private_cards(table_id)
    assert all(secrets.values()), "every seat holds private cards"
    for cards in secrets.values():
        for card in cards:
            assert f'"{card}"' not in html and f"cell-{card}" not in html
            assert CARD_NAMES[card] not in shown, CARD_NAMES[card]


def settle(page: Page, before: str, seconds: float = 15) -> None:
    """Wait until the page shows a newer version, or has become the pass screen (the move
    reloads the page when the device must be passed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if page.locator("#pass-screen").count():
                return
            if page.locator("#live").get_attribute("data-version") != before:
                return
        except Error:
            pass  # the page is reloading
        time.sleep(0.1)
    raise AssertionError("the move did not show")


def play_turn(page: Page, table_id: int, seat: int) -> int:
    """Play `seat`'s moves until the game waits for someone else; how many moves."""
    moves = 0
    while seat in waiting(table_id) and moves < 12:
        before = page.locator("#live").get_attribute("data-version")
        play_one_move(page)
        settle(page, before)
        moves += 1
    return moves


def test_two_players_share_one_browser(alice, live_server_url, chromium, artifacts):
    page = chromium.new_context(viewport=WIDE, base_url=live_server_url).new_page()
    log_in(page, "alice")
    page.goto("/games/")
    page.locator("#open-holmes_elementary").click()
    expect(page.get_by_role("heading", name="The lobby")).to_be_visible()
    table_id = int(page.locator(".table-layout").get_attribute("data-table"))

    page.locator("#local-name").fill("Mara")
    page.locator("#add-local").click()
    expect(page.locator(".seat-list")).to_contain_text("Mara")
    expect(page.locator(".seat-list")).to_contain_text("on the host’s device")
    shoot(page, artifacts, "lobby")

    page.locator("#start-game").click()
    expect(page.locator("#pass-screen")).to_be_visible()
    names = ["Alice", "Mara"]
    first = waiting(table_id)[0]
    expect(page.locator("#pass-heading")).to_have_text(f"Pass the device to {names[first]}")
    assert_pass_screen_hides_every_hand(page, table_id)
    shoot(page, artifacts, "pass-screen")

    for turn, seat in enumerate((first, 1 - first)):
        assert waiting(table_id) == [seat]
        expect(page.locator("#pass-heading")).to_have_text(f"Pass the device to {names[seat]}")
        page.locator("#confirm-seat").click()
        expect(page.locator("#device-bar")).to_contain_text(f"This device shows {names[seat]}")
        own, other = private_cards(table_id)[seat], private_cards(table_id)[1 - seat]
        hand = page.locator(".he-hand").inner_text()
        assert any(CARD_NAMES[card] in hand for card in own)
        assert not any(CARD_NAMES[card] in hand for card in other)
        if turn == 0:
            shoot(page, artifacts, "confirmed", game_page=True)
        assert play_turn(page, table_id, seat) > 0
        # The other seat's turn: the device asks to be passed, and shows no hand.
        expect(page.locator("#pass-screen")).to_be_visible()
        assert_pass_screen_hides_every_hand(page, table_id)

    # "Hide my cards" goes back to the pass screen at any time.
    page.locator("#confirm-seat").click()
    expect(page.locator("#device-bar")).to_be_visible()
    page.locator("#hide-seat").click()
    assert_pass_screen_hides_every_hand(page, table_id)
