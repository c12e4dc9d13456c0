"""Three players, three browsers, one case: the tutorial played to a win in Chromium.

alice plays at 1280 px with websockets; bob has no WebSocket at all (his page must keep up
by polling) and plays one turn with the keyboard alone; charlie plays on a 360 px phone
screen and reloads his page mid-round.
"""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tests.e2e.pages import (
    PHONE,
    WIDE,
    button,
    finish_reading,
    log_in,
    open_page,
    wait_for_turn,
)

pytestmark = pytest.mark.django_db(transaction=True)

RIGHT = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}
WRONG = {"thief": "Tom Quill", "hiding_place": "Smithfield Market", "ticket": "211"}


def visit(page: Page, number: int, *, label: str = "Visit") -> None:
    wait_for_turn(page)
    button(page, f"^{label}", within=f"#card-{number}").click()


def give_answers(page: Page, answers: dict) -> None:
    for question, text in answers.items():
        page.locator(f"#answer-{question}").fill(text)
    page.locator("#give-answers").click()


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_it_plays_the_tutorial_to_a_win_in_three_browsers(
    tutorial, alice, bob, charlie, live_server_url, chromium, artifacts
):
    a = open_page(chromium, live_server_url, WIDE)
    b = open_page(chromium, live_server_url, WIDE, websockets=False)
    c = open_page(chromium, live_server_url, PHONE)
    for page, name in ((a, "alice"), (b, "bob"), (c, "charlie")):
        log_in(page, name)

    # --- From the catalogue to the lobby ----------------------------------------------
    a.goto("/")
    expect(a.locator(".case-card")).to_contain_text("Not played yet")
    a.get_by_role("link", name="The Clerkenwell Repeater").click()
    a.get_by_label("Casebook").check()
    a.locator("#open-table").click()
    expect(a.get_by_role("heading", name="The lobby")).to_be_visible()
    invite = a.locator("#invite-link").input_value()
    assert "/join/" in invite
    a.locator("#copy-invite").click()
    expect(a.locator("#copy-status")).not_to_be_empty()

    for page in (b, c):
        page.goto(invite)
        page.locator("#join-button").click()
        expect(page.get_by_role("heading", name="The lobby")).to_be_visible()
    # The host's lobby fills up live, without a reload.
    expect(a.locator(".seat-list")).to_contain_text("Charlie")
    b.locator("input[name=colour][value=purple]").check()
    b.locator("#choose-colour").click()
    expect(a.locator(".seat-list .pawn--purple")).to_be_visible()
    expect(b.locator("#start-game")).to_have_count(0)  # only the host starts
    a.screenshot(path=artifacts / "lobby.png", full_page=True)
    a.locator("#start-game").click()

    # --- Round 1: Watson, an outbid, a police token ---------------------------------------
    for page in (a, b, c):
        expect(page.locator(".status-round")).to_contain_text("Round 1")
    wait_for_turn(a)
    button(a, "Take the Watson card").click()
    expect(a.locator("#watson-card")).to_contain_text("Held this round by")
    visit(a, 1)
    expect(b.locator("#card-1")).to_contain_text("Alice")  # bob polls: no websocket

    wait_for_turn(b)
    expect(b.locator("#card-1 .carriages-input")).to_have_value("1")  # the minimum
    visit(b, 1, label="Outbid")
    expect(a.locator("#card-1")).to_contain_text("Bob")
    expect(a.locator("#card-1")).to_contain_text("1 carriage bid")

    visit(c, 4)
    # alice was outbid: her turn again, announced to screen readers without a reload.
    expect(a.locator("#announcer")).to_contain_text("It is your turn")
    visit(a, 2)
    expect(a.locator("#status-turn")).to_contain_text("You hold Watson")
    a.screenshot(path=artifacts / "table-1280.png", full_page=True)
    button(a, r"^Read 4 ").click()

    for page in (a, b, c):
        expect(page.locator(".watson-text")).to_contain_text("Mrs Quill takes in washing")
    expect(b.locator("#reading-panel")).to_contain_text("The shop in St John Street")
    expect(a.locator("#reading-panel")).not_to_contain_text("The shop in St John Street")
    expect(c.locator("#reading-panel")).not_to_contain_text("The shop in St John Street")
    b.locator("#reading-panel").screenshot(path=artifacts / "reading-panel.png")
    c.screenshot(path=artifacts / "table-360.png", full_page=True)
    assert no_horizontal_scroll(c)

    button(b, "Leave your police token on 1").click()
    expect(a.locator("#card-1")).to_contain_text("Police token")
    c.locator("#notebook-text").fill("Ticket No. 212 was torn from the repair book.")
    expect(c.locator("#notebook-status")).to_have_text("Saved")
    for page in (b, c, a):
        finish_reading(page)

    # --- Round 2: alice fails at 221B; bob plays by keyboard; charlie reloads ----------
    for page in (a, b, c):
        expect(page.locator(".status-round")).to_contain_text("Round 2")
    wait_for_turn(a)
    button(a, "Go to 221B Baker Street").click()

    wait_for_turn(b)
    play_a_turn_by_keyboard(b, target="act-visit-9-0")
    expect(a.locator("#card-9")).to_contain_text("Bob")

    wait_for_turn(c)
    c.reload()
    visit(c, 10)

    expect(a.locator("#answers-form")).to_be_visible()
    give_answers(a, WRONG)
    for page in (b, c):
        finish_reading(page)
    expect(a.locator("#your-result")).to_contain_text("of 3")
    expect(a.locator("#solution")).to_contain_text("Silas Crane")
    expect(b.locator("#player-0")).to_contain_text("Eliminated")
    expect(b.locator("#solution")).to_have_count(0)

    # --- Round 3: charlie solves it -----------------------------------------------------
    for page in (b, c):
        expect(page.locator(".status-round")).to_contain_text("Round 3")
    wait_for_turn(c)
    button(c, "Go to 221B Baker Street").click()
    visit(b, 8)
    give_answers(c, RIGHT)
    finish_reading(b)

    for page in (a, b):
        expect(page.locator("#end-screen")).to_contain_text("Charlie solved the case and won")
    expect(c.locator("#end-screen")).to_contain_text("You solved the case")
    for page in (a, b, c):
        expect(page.locator("#debrief")).to_contain_text("Proved by")
        expect(page.locator("#debrief")).to_contain_text("St James's Church")
    a.screenshot(path=artifacts / "end-screen.png", full_page=True)
    c.screenshot(path=artifacts / "end-screen-360.png", full_page=True)
    assert no_horizontal_scroll(c)


def play_a_turn_by_keyboard(page: Page, *, target: str) -> None:
    """Tab from the top of the page to a Visit button and press Enter: no mouse at all."""
    page.locator("body").focus()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(250):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement && document.activeElement.id")
        if focused == target:
            break
    else:
        raise AssertionError(f"Tab never reached #{target}")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused control must show where the focus is"
    page.keyboard.press("Enter")
