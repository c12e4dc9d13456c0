"""The Elementary deck in Chromium: alice opens a table from the Games page, seats two
computer players, starts, and plays a whole game to its end by clicking. On the way she
marks her deduction grid (with the mouse and the keyboard) and sees the marks survive a
reload. Screenshots of the grid mid-game and of the end, at 1280 and 360 px."""

import re
import time

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tests.e2e.pages import log_in

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
GAME_SECONDS = 240  # the whole game; it usually takes well under two minutes


def version(page: Page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def move(page: Page, click) -> None:
    """Make one move and wait until the page shows the table after it."""
    before = version(page)
    click()
    page.wait_for_function(
        "v => Number(document.getElementById('live').dataset.version) > v"
        " || document.getElementById('refusal')",
        arg=before,
    )
    refusal = page.locator("#refusal")
    assert refusal.count() == 0, refusal.inner_text()


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def targeted_card_playable(page: Page) -> bool:
    """Whether a card in hand that is played on an opponent can be played now."""
    return page.locator(".he-hand-card:has(summary):has(button)").count() > 0


def play_one_move(page: Page, shoot=None) -> str:
    """A simple policy: answer a choice (the first card offered, or the first cards
    ticked); solve when a case is offered; in the Action phase play the first card played
    on an opponent (on the first one), else the first card; guess a spot the notes leave
    one rank for; otherwise draw a card and discard one, or pass. Returns what it did."""
    choice = page.locator("#he-choice")
    if choice.count():
        form = page.locator("#he-discard-form")
        if form.count():
            count = int(re.search(r"\d+", form.locator("legend").inner_text()).group(0))
            boxes = form.locator("input[type=checkbox]")
            for index in range(count):
                boxes.nth(index).check()
            move(page, lambda: page.locator("#he-discard-submit").click())
            return "discarded"
        move(page, lambda: choice.locator("button").first.click())
        return "chose"
    solve = page.locator("[id^=he-solve-]")
    if solve.count():
        move(page, lambda: solve.first.click())
        return "solved"
    first_card = page.locator(".he-hand-card:has(button)").first
    if targeted_card_playable(page):
        first_card = page.locator(".he-hand-card:has(summary):has(button)").first
    if page.locator(".he-hand-card button").count():
        summary = first_card.locator("summary")
        if summary.count():
            summary.click()
            if shoot:
                shoot()
            move(page, lambda: first_card.locator(".he-targets button").first.click())
            return "played on"
        else:
            move(page, lambda: first_card.locator("button").first.click())
        return "played"
    guess = page.locator("#he-guess-form")
    if guess.count():
        for row in page.locator(".he-grid-row.is-sure").all():
            suit = row.get_attribute("id").removeprefix("grid-row-")
            rank = row.locator(".he-grid-left strong").inner_text().lstrip("=")
            if guess.locator(f"#guess-suit option[value={suit}]").count():
                guess.locator("#guess-suit").select_option(suit)
                guess.locator("#guess-rank").select_option(rank)
                move(page, lambda: page.locator("#he-guess").click())
                return "guessed"
    if page.locator("#he-draw-discard").count():
        move(page, lambda: page.locator("#he-draw-discard").click())
        return "drew"
    move(page, lambda: page.locator("#he-pass").click())
    return "passed"


def my_move_is_awaited(page: Page) -> bool:
    return bool(page.locator("#he-moves, #he-choice").count())


def mark_the_grid(page: Page) -> str:
    """Mark a blank cell with the mouse and its neighbour with the keyboard; both marks
    must be saved and come back after a reload."""
    first = page.locator("button.he-cell--open").first
    card = first.get_attribute("data-card")
    first.click()
    expect(first).to_have_attribute("data-mark", "out")
    expect(first).to_have_attribute("aria-label", re.compile("marked ruled out"))
    expect(page.locator("#he-grid-status")).to_contain_text("Marks saved")
    first.click()
    expect(first).to_have_attribute("data-mark", "maybe")
    # The keyboard: arrows move the one tab stop, Enter marks.
    first.focus()
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused and focused != card
    page.keyboard.press("Enter")
    expect(page.locator(f"#cell-{focused}")).to_have_attribute("data-mark", "out")
    expect(page.locator("#he-grid-status")).to_contain_text("Marks saved")
    page.reload()
    expect(page.locator(f"#cell-{card}")).to_have_attribute("data-mark", "maybe")
    expect(page.locator(f"#cell-{focused}")).to_have_attribute("data-mark", "out")
    return card


def screenshots(page: Page, artifacts, name: str, *, element: str | None = None) -> None:
    for label, size in (("1280", WIDE), ("360", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        if element:
            page.locator(element).screenshot(path=artifacts / f"elementary-{name}-{label}.png")
        page.screenshot(path=artifacts / f"elementary-{name}-page-{label}.png", full_page=True)
        assert no_horizontal_scroll(page), f"{name} scrolls sideways at {label} px"
    page.set_viewport_size(WIDE)


def test_a_person_plays_the_elementary_deck_against_two_computers(
    alice, live_server_url, chromium, artifacts
):
    page = chromium.new_context(viewport=WIDE, base_url=live_server_url).new_page()
    log_in(page, "alice")

    # --- From the Games page to the lobby ---------------------------------------------------
    page.goto("/games/")
    card = page.locator("#game-holmes_elementary")
    card.get_by_label("Round limit").fill("8")
    card.get_by_label("First player").select_option(label="The host")
    card.locator("#open-holmes_elementary").click()
    expect(page.get_by_role("heading", name="The lobby")).to_be_visible()
    expect(page.locator(".lobby")).to_contain_text("First player: The host")
    for seats in (2, 3):
        page.locator("#add-bot").click()
        expect(page.locator(".seat-list > li")).to_have_count(seats)
    page.locator("#start-game").click()

    # --- The whole game --------------------------------------------------------------------
    expect(page.locator("#he-table")).to_be_visible()
    expect(page.locator("#status-turn")).to_contain_text("It is your turn")
    moves: list[str] = []
    marked = False
    offered_a_target = False  # whether the deal ever let alice play a card on someone
    deadline = time.monotonic() + GAME_SECONDS
    while not page.locator("#end-screen").count():
        assert time.monotonic() < deadline, f"the game did not end; moves: {moves}"
        if not my_move_is_awaited(page):
            page.wait_for_timeout(150)
            continue
        offered_a_target = offered_a_target or targeted_card_playable(page)
        shoot = None
        if "played on" not in moves:

            def shoot():
                page.locator("#he-hand").screenshot(path=artifacts / "elementary-play-1280.png")
                page.set_viewport_size(PHONE)
                page.screenshot(path=artifacts / "elementary-moves-360.png")
                page.set_viewport_size(WIDE)

        moves.append(play_one_move(page, shoot))
        if (
            not marked
            and moves.count("played") + moves.count("played on") >= 2
            and my_move_is_awaited(page)
        ):
            mark_the_grid(page)
            screenshots(page, artifacts, "grid", element="#he-grid")
            marked = True
    assert marked, f"alice never had a second turn; moves: {moves}"
    # The deal decides whether alice ever holds such a card when she may play; when she
    # did, she played it (the policy prefers it), through its list of opponents.
    assert "played on" in moves or not offered_a_target, moves

    # --- The end ---------------------------------------------------------------------------
    end = page.locator("#end-screen")
    expect(end).to_contain_text("The game is over")
    expect(end.locator(".he-ranking li")).to_have_count(3)
    expect(page.locator("#he-moves, #he-choice")).to_have_count(0)
    expect(page.locator(".he-spot.is-revealed, .he-spot.is-empty")).to_have_count(7)
    screenshots(page, artifacts, "end", element="#end-screen")
