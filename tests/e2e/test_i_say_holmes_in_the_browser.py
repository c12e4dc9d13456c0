"""I Say, Holmes! in Chromium. (a) alice opens a one-case table from the Games page (a
five-second response window), seats three computer players, starts, and plays the whole
case to its scoring by clicking: her first playable card (on the first player offered),
"Allow" in every window, the first card of a secret choice. (b) alice and bob, at one
table in two browsers, both answer one response window (a Prime Minister against them
both). Screenshots mid-case and at the case's scoring, at 1280 and 360 px."""

import time

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from play import services
from play.models import Table
from tests.e2e.pages import log_in
from tests.games.i_say_holmes.helpers import table as table_state

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
QUICK = 5_000  # ms to wait for a button of the current table, which a live update may replace
CASE_SECONDS = 150  # one case; it usually takes well under a minute


def version(page: Page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def move(page: Page, click) -> bool:
    """Make one move and wait until the page shows the table after it. A move the table
    left behind meanwhile (a window or a choice that timed out) is no failure: either its
    button is gone before the click lands, or the server refuses it as stale; the page then
    shows the table as it is now. Returns whether the move was applied."""
    before = version(page)
    try:
        click()
    except PlaywrightTimeout:
        # The button left the page before the click landed: a live update replaced it.
        assert version(page) > before, "a button stayed on the page but took no click"
        return False
    page.wait_for_function(
        "v => Number(document.getElementById('live').dataset.version) > v"
        " || document.getElementById('refusal')",
        arg=before,
    )
    refusal = page.locator("#refusal")
    if refusal.count():
        text = refusal.inner_text()
        assert "moved on" in text or "waiting for your answer" in text, text
        return False
    return True


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def screenshots(page: Page, artifacts, name: str) -> None:
    for label, size in (("1280", WIDE), ("360", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        page.screenshot(path=artifacts / f"i-say-{name}-{label}.png", full_page=True)
        assert no_horizontal_scroll(page), f"{name} scrolls sideways at {label} px"
    page.set_viewport_size(WIDE)


def opened(summary, first_choice) -> bool:
    """Open a card's list of plays; False when a live update took the card away first."""
    try:
        summary.click(timeout=QUICK)
        first_choice.wait_for(state="visible", timeout=QUICK)
    except PlaywrightTimeout:
        return False
    return True


def play_one_move(page: Page) -> str | None:
    """A simple policy: Allow in a window; the first card of a secret choice; the first
    accusation; on a turn, the first playable card (its first choice), else keep, draw or
    end the turn. ``None`` when nothing waits for alice."""
    if page.locator("#ish-allow").count():
        move(page, lambda: page.locator("#ish-allow").click(timeout=QUICK))
        return "allowed"
    choice = page.locator(".ish-choice-list button")
    if choice.count():
        move(page, lambda: choice.first.click(timeout=QUICK))
        return "chose"
    accuse = page.locator("[id^=ish-accuse-]")
    if accuse.count():
        move(page, lambda: accuse.first.click(timeout=QUICK))
        return "accused"
    playable = page.locator(".ish-hand-card.has-plays")
    if playable.count():
        card = playable.first
        summary = card.locator("summary")
        if summary.count():
            if not opened(summary, card.locator(".ish-play-list button").first):
                return None
            move(page, lambda: card.locator(".ish-play-list button").first.click(timeout=QUICK))
            return "played on"
        move(page, lambda: card.locator(".ish-plays button").first.click(timeout=QUICK))
        return "played"
    for move_id, name in (("#ish-keep", "kept"), ("#ish-draw", "drew"), ("#ish-end-turn", "ended")):
        if page.locator(move_id).count():
            move(page, lambda move_id=move_id: page.locator(move_id).click(timeout=QUICK))
            return name
    return None


def test_a_person_plays_a_case_against_three_computers(alice, live_server_url, chromium, artifacts):
    page = chromium.new_context(viewport=WIDE, base_url=live_server_url).new_page()
    log_in(page, "alice")

    # --- From the Games page to the lobby ---------------------------------------------------
    page.goto("/games/")
    card = page.locator("#game-i_say_holmes")
    card.get_by_label("Number of cases").fill("1")
    card.get_by_label("Seconds to answer a card played on you").fill("5")
    card.locator("#open-i_say_holmes").click()
    expect(page.get_by_role("heading", name="The lobby")).to_be_visible()
    expect(page.locator(".lobby")).to_contain_text("Number of cases: 1")
    for seats in (2, 3, 4):
        page.locator("#add-bot").click()
        expect(page.locator(".seat-list > li")).to_have_count(seats)
    page.locator("#start-game").click()

    # --- The case -----------------------------------------------------------------------------
    expect(page.locator("#ish-table")).to_be_visible()
    expect(page.locator(".ish-player")).to_have_count(4)
    expect(page.locator("#ish-hand")).to_be_visible()
    moves: list[str] = []
    shot = False
    deadline = time.monotonic() + CASE_SECONDS
    while not page.locator("#ish-case-scoring").count():
        assert time.monotonic() < deadline, f"the case did not close; moves: {moves}"
        if not shot and page.locator(".ish-hand-card.has-plays").count() and moves:
            screenshots(page, artifacts, "mid-case")
            shot = True
        did = play_one_move(page)
        if did is None:
            page.wait_for_timeout(150)
        else:
            moves.append(did)

    # --- The case's scoring, and the end of this one-case game --------------------------------
    scoring = page.locator("#ish-case-scoring")
    expect(scoring).to_contain_text("Case 1 closed")
    expect(page.locator("#end-screen")).to_contain_text("The game is over")
    expect(page.locator(".ish-ranking > li")).to_have_count(4)
    expect(page.locator(".move-form")).to_have_count(0)
    screenshots(page, artifacts, "scoring")
    assert moves, "alice never moved"


# --- Two people answer one window ------------------------------------------------------------

# bob (seat 1) holds a Mastermind; charlie, a computer player (seat 2), holds the Prime
# Minister, which makes every opponent draw a card unless one counters.
HANDS = [
    ["hansom-1", "clue-1", "westend-1"],
    ["mastermind-1", "train-1", "suspicion-1"],
    ["pm", "london-2", "dartmoor-1", "telegram-1"],
]


@pytest.fixture
def window_table(alice, bob) -> Table:
    """alice and bob, and a computer player whose Prime Minister targets them both."""
    table = services.table_create(
        host=alice, game="i_say_holmes", options={"max_cases": 2, "window_seconds": 60}
    )
    services.table_join(invite_code=table.invite_code, user=bob)
    services.seat_add_bot(table_id=table.pk, user=alice)
    table = services.table_start(table_id=table.pk, user=alice)
    state = table_state(HANDS, current="westend-2", turn=2, max_cases=2, window_seconds=60)
    state["players"] = list(table.state["players"])
    Table.objects.filter(pk=table.pk).update(state=state, version=table.version + 1)
    table.refresh_from_db()
    services.game_apply_action(
        table_id=table.pk,
        player=2,
        action={"type": "play", "card": "pm"},
        expected_version=table.version,
    )
    table.refresh_from_db()
    assert sorted(table.state["pending"]["targets"]) == [0, 1]
    return table


def test_two_people_both_answer_one_window(window_table, live_server_url, chromium, artifacts):
    pages = {}
    for name in ("alice", "bob"):
        context = chromium.new_context(viewport=WIDE, base_url=live_server_url)
        pages[name] = context.new_page()
        log_in(pages[name], name)
        pages[name].goto(f"/tables/{window_table.pk}/")
    alice, bob = pages["alice"], pages["bob"]
    for page in (alice, bob):
        window = page.locator("#ish-window")
        expect(window).to_contain_text("Counter or allow?")
        expect(window).to_contain_text("played Prime Minister on")
        expect(page.locator("#turn-timer")).to_be_visible()
    expect(bob.locator("#ish-counter-mastermind")).to_be_visible()
    expect(alice.locator("#ish-counter-mastermind")).to_have_count(0)
    bob.set_viewport_size(PHONE)
    bob.screenshot(path=artifacts / "i-say-window-360.png", full_page=True)
    assert no_horizontal_scroll(bob)
    bob.set_viewport_size(WIDE)

    assert move(alice, lambda: alice.locator("#ish-allow").click())
    expect(alice.locator("#ish-window")).to_contain_text("You have answered")
    # bob's page learns of alice's answer; his answers are still offered.
    expect(bob.locator("#ish-window")).to_contain_text("Answered:")
    assert move(bob, lambda: bob.locator("#ish-counter-mastermind").click())

    for page in (alice, bob):
        expect(page.locator("#ish-window")).to_have_count(0)
        expect(page.locator("#ish-log")).to_contain_text("countered with Mastermind")
        expect(page.locator("#ish-log")).to_contain_text("Every hand passed to the right.")
    alice.screenshot(path=artifacts / "i-say-after-window-1280.png", full_page=True)
