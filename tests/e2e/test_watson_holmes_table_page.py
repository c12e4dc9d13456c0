"""The case game's table page as players see it, in Chromium: the log tells each player
what happened to them, the board is drawn (cards with pictograms, pawns, carriage stacks,
token counters), a card number in a text jumps to its card, and on a phone the notebook
is a drawer beside the card being read. Ends with the end screen, told once.

alice plays at 1280 px; bob at 1280 px; charlie on a 360 px phone.
"""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tests.e2e.pages import finish_reading, log_in, wait_for_turn
from tests.play.conftest import lobby, started  # noqa: F401  (a dealt table, seed 1889)

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
RIGHT = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}
SHOP = "1 · Brandt's Clock Shop"


def open_page(browser, base_url: str, viewport: dict) -> tuple[Page, list[str]]:
    """A logged-out page, and the list of the addresses it got a 404 for."""
    page = browser.new_context(viewport=viewport, base_url=base_url).new_page()
    missing: list[str] = []
    page.on("response", lambda response: response.status == 404 and missing.append(response.url))
    return page, missing


def visit(page: Page, number: int, *, label: str = "Visit", carriages: int | None = None) -> None:
    wait_for_turn(page)
    # The plain move ("Visit card 1, ..."), not a character's variant of it.
    button = page.get_by_role("button", name=re.compile(f"^{label} card {number},"))
    if carriages is not None:
        form = page.locator(f"#card-{number} form.visit-form").filter(has=button)
        form.locator(".carriages-input").fill(str(carriages))
    button.click()


def log_entries(page: Page):
    return page.locator("#game-log .log-round[open] .log-entry")


def test_it_shows_a_table_that_reads_like_a_game(
    started,  # noqa: F811  (the fixture imported above)
    alice,
    bob,
    charlie,
    live_server_url,
    chromium,
    artifacts,
):
    a, a_missing = open_page(chromium, live_server_url, WIDE)
    b, _ = open_page(chromium, live_server_url, WIDE)
    c, c_missing = open_page(chromium, live_server_url, PHONE)
    for page, name in ((a, "alice"), (b, "bob"), (c, "charlie")):
        log_in(page, name)
        page.goto(f"/tables/{started.pk}/")

    # --- Round 1: Watson, an outbid told in the log -----------------------------------
    wait_for_turn(a)
    a.get_by_role("button", name=re.compile("Take the Watson card")).click()
    expect(a.locator("#watson-card")).to_contain_text("Held this round by")
    visit(a, 1)
    visit(b, 1, label="Outbid", carriages=2)
    expect(log_entries(a).first).to_have_text(
        f"Bob outbid you on {SHOP} with 2 carriages: choose again."
    )
    expect(log_entries(c).first).to_have_text(f"Bob outbid Alice on {SHOP} with 2 carriages.")
    expect(log_entries(c).last).to_have_text("Alice took Watson (4 carriages).")
    expect(a.locator("#game-log .is-about-you").first).to_contain_text("Bob outbid you")

    # The board: bob's blue pawn on card 1, with a stack of two carriages; icons drawn.
    card_1 = a.locator("#card-1")
    expect(card_1.locator(".pawn--blue")).to_be_visible()
    expect(card_1.locator(".bid-stack svg")).to_have_count(2)
    expect(card_1).to_contain_text("2 carriages bid")
    police_icon = a.locator("#card-3 .icon--police")
    expect(police_icon).to_contain_text("Police")
    expect(police_icon.locator("svg use")).to_have_attribute("href", "#wh-police")
    # Tokens as counters: alice paid 4 carriages for Watson.
    alice_box = a.locator("#player-0")
    expect(alice_box.locator(".counter--carriages .counter-value")).to_have_text("6")
    expect(alice_box).to_contain_text("Not placed yet.")  # outbid, she places again
    expect(a.locator(".stock .counter--carriages")).to_be_visible()
    expect(c.locator("#player-2 .badge")).to_have_text("Your turn")
    expect(a.locator("#player-2 .badge")).to_have_text("Their turn")
    a.screenshot(path=artifacts / "wh-table-1280.png", full_page=True)

    visit(c, 4)
    visit(a, 2)
    a.get_by_role("button", name=re.compile(r"^Read 4 ")).click()
    expect(c.locator(".watson-text")).to_contain_text("Mrs Quill takes in washing")
    expect(log_entries(b).first).to_contain_text("Watson (Alice) read 4 · Mrs Quill's Room")

    # --- At 1280 the notebook stands beside the card being read ---------------------------
    # The card asks for notes before it is gone: both are on screen together.
    a.locator("#reading-panel").scroll_into_view_if_needed()
    expect(a.locator("#reading-panel .watson-text")).to_be_in_viewport()
    expect(a.locator("#notebook-text")).to_be_in_viewport()
    a.screenshot(path=artifacts / "wh-reading-1280.png")

    # --- A card number in a text jumps to its card on the board -------------------------
    reference = a.locator('#reading-panel a[href="#location-4"]').first
    reference.click()
    expect(a).to_have_url(re.compile("#location-4$"))
    expect(a.locator("#location-4")).to_be_in_viewport()
    expect(a.locator("#card-4")).to_contain_text("Charlie")

    # --- On a phone, the notebook is a drawer beside the card being read ----------------
    expect(c.locator("#notebook-toggle")).to_be_visible()
    expect(c.locator("#notebook-toggle")).to_have_attribute("aria-expanded", "false")
    drawer_top = c.locator(".notebook").bounding_box()["y"]
    assert drawer_top > PHONE["height"] - 90, "closed, the drawer is a bar at the bottom"
    c.locator(".watson-text").scroll_into_view_if_needed()
    c.screenshot(path=artifacts / "wh-reading-360.png")
    c.get_by_role("link", name="your notebook").click()
    expect(c.locator("#notebook-toggle")).to_have_attribute("aria-expanded", "true")
    expect(c.locator("#notebook-text")).to_be_focused()
    box = c.locator("#notebook-text").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], "the notes fit on the screen"
    # ...and the card being read is still on screen above it.
    expect(c.locator("#reading-panel")).to_be_in_viewport()
    c.keyboard.type("Mrs Quill's note: REPAIR TICKET No. 212")
    expect(c.locator("#notebook-status")).to_have_text("Saved")
    c.screenshot(path=artifacts / "wh-notebook-drawer-360.png")
    c.keyboard.press("Escape")
    expect(c.locator("#notebook-toggle")).to_have_attribute("aria-expanded", "false")
    expect(c.locator("#notebook-toggle")).to_be_focused()
    expect(a.locator("#notebook-toggle")).to_be_hidden()  # wide: the notebook stays beside
    # A card number in the case's rules jumps on the phone too.
    if not c.locator("#case-intro").evaluate("details => details.open"):
        c.locator("#case-intro summary").click()
    c.locator('#case-brief a[href="#location-6"]').first.click()
    expect(c.locator("#location-6")).to_be_in_viewport()
    c.screenshot(path=artifacts / "wh-table-360.png", full_page=True)
    assert c.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    for page in (b, c, a):
        finish_reading(page)

    # --- Round 2: alice solves it; the earlier round folds --------------------------------
    for page in (a, b, c):
        expect(page.locator(".status-round")).to_contain_text("Round 2")
    expect(a.locator("#log-round-2")).to_have_attribute("open", "")
    expect(a.locator("#log-round-1")).not_to_have_attribute("open", "")
    wait_for_turn(a)
    a.get_by_role("button", name=re.compile("Go to 221B Baker Street")).click()
    visit(b, 9)
    visit(c, 10)
    expect(a.locator("#status-turn")).to_contain_text("write your answers")
    for question, text in RIGHT.items():
        a.locator(f"#answer-{question}").fill(text)
    a.locator("#give-answers").click()
    for page in (b, c):
        finish_reading(page)

    # --- The end, told once; what no longer applies is gone -------------------------------
    for page in (b, c):
        expect(page.locator("#end-screen")).to_contain_text(
            "Alice solved the case and won in 2 rounds."
        )
        expect(page.locator("#status-turn")).to_have_text("The game is over.")
        # Told once on the end screen; the log's last line is the same sentence.
        told = page.locator("#end-screen").get_by_text(re.compile("won in 2 rounds"))
        expect(told).to_have_count(1)
        expect(page.locator("#connection")).to_be_hidden()
        expect(page.locator("#watson-card")).not_to_contain_text("On your turn")
        expect(page.get_by_text("Hidden from the others")).to_have_count(0)
    expect(log_entries(b).first).to_have_text("Alice solved the case and won in 2 rounds.")
    expect(b.locator("#game-log")).to_contain_text("Alice solved the case (place 1)!")
    b.screenshot(path=artifacts / "wh-end-1280.png", full_page=True)
    c.screenshot(path=artifacts / "wh-end-360.png", full_page=True)

    # No page asked for anything that is not there (the favicon included).
    assert not a_missing and not c_missing, a_missing + c_missing
