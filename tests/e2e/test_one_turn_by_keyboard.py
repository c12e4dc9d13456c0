"""One ordinary turn of each game, by keyboard alone, from the status line: at most 12
key presses (Tab, Shift+Tab, Enter, Space and the arrows, each counted), at 1280 px and on
a phone's 360 px, where the other players' panels stand between the status line and the
move. After the move, and after the computers' moves that the page hears of by a live
push, the focus is on the status line or a control, never on <body>, and in view.

The first stop after the status line is the "Your move ↓" link, which takes the focus to
the move's first control. The player is simple: Enter on that link, on a folded choice (a
summary) and on a move's button; Tab past anything else. The presses of each game are
printed (`pytest -s` shows them)."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tests.e2e.pages import PHONE, WIDE, log_in, open_page, page_state
from tests.e2e.test_axe import (
    alices_turn_after,
    as_a_computer,
    at_random,
    card_game,
    import_case,
    play,
    waits_to_visit,
)

pytestmark = pytest.mark.django_db(transaction=True)

MOST_PRESSES = 12
CARD_GAMES = ("sherlock_mycroft", "i_say_holmes", "holmes_elementary")

# What the focused element is, for the player's next key.
FOCUSED = """() => {
  const element = document.activeElement;
  if (!element || element === document.body) return "body";
  if (element.matches("[data-jump-to-move]")) return "jump";
  if (element.matches("summary") && !element.parentElement.open) return "folded";
  const form = element.closest("form");
  const move = form && /\\/act\\/$/.test(form.getAttribute("hx-post") || "");
  if (move && element.matches("button:not(:disabled)")) return "move";
  return "other";
}"""


@pytest.fixture
def table_at_alices_turn(request, alice, bob):
    """A table where the next move is alice's (seat 0), with no clock running: each card
    game against computers, the case game against bob."""
    from play import services

    users = {"alice": alice, "bob": bob}
    engine = request.param
    if engine in CARD_GAMES:
        table = card_game(engine, users["alice"])
        services.table_start(table_id=table.pk, user=users["alice"])
        return play(table, as_a_computer(engine), until=alices_turn_after(engine, 8))
    case = import_case("the-clerkenwell-repeater", publish=True)
    table = services.table_create(host=users["alice"], case_version=case)
    services.table_join(invite_code=table.invite_code, user=users["bob"])
    services.table_start(table_id=table.pk, user=users["alice"])
    visiting = at_random(engine, avoid=("baker_street", "answer", "take_watson"))
    return play(table, visiting, until=lambda state, step: step >= 6 and waits_to_visit(state, 0))


def version(page: Page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def from_the_status_line(page: Page) -> None:
    """Where the focus is after the player's last move (play/static/play/table.js)."""
    page.evaluate(
        """() => {
          const line = document.getElementById("status-turn");
          line.setAttribute("tabindex", "-1");
          line.focus();
        }"""
    )


def one_turn(page: Page) -> tuple[list[str], str]:
    """Keys until a move is sent; returns them and the move's button."""
    presses: list[str] = []
    before = version(page)
    while len(presses) < MOST_PRESSES:
        focused = page.evaluate(FOCUSED)
        if len(presses) == 1:
            where = page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
            assert focused == "jump", f"the first stop after the status line is {where}"
        key = "Enter" if focused in ("jump", "folded", "move") else "Tab"
        label = page.evaluate("document.activeElement.textContent.trim()")
        scrolled = page.evaluate("Math.round(window.scrollY)")
        page.keyboard.press(key)
        presses.append(key)
        if focused == "move":
            page.wait_for_function(
                "v => Number(document.getElementById('live').dataset.version) > v"
                " || document.getElementById('refusal')",
                arg=before,
            )
            after = page.evaluate("Math.round(window.scrollY)")
            print(f"scrolled to {scrolled} px for the move, {after} px after it")
            # Back to the status line, not to the page's top (the site's header).
            assert after > 0 or scrolled == 0, f"the page jumped to the top from {scrolled} px"
            return presses, " ".join(label.split())
    raise AssertionError(f"no move in {MOST_PRESSES} presses: {presses}\n{page_state(page)}")


def focus_is_kept(page: Page) -> None:
    where = page.evaluate(
        """() => {
          const element = document.activeElement;
          if (!element || element === document.body) return "body";
          const box = element.getBoundingClientRect();
          const seen = box.bottom > 0 && box.top < window.innerHeight;
          return seen ? "seen" : "out of view: " + element.outerHTML.slice(0, 80);
        }"""
    )
    assert where == "seen", f"after the move the focus is {where}\n{page_state(page)}"


GAMES = ("watson_holmes", *CARD_GAMES)


@pytest.mark.parametrize("table_at_alices_turn", GAMES, indirect=True)
@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
def test_one_turn_in_twelve_presses(
    table_at_alices_turn, viewport, live_server_url, chromium, artifacts
):
    table = table_at_alices_turn
    page = open_page(chromium, live_server_url, viewport)
    log_in(page, "alice")
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#status-turn")).to_contain_text("your")
    width = viewport["width"]
    page.screenshot(path=artifacts / f"turn-{table.engine}-{width}.png", full_page=True)
    from_the_status_line(page)
    presses, label = one_turn(page)
    print(f"{table.engine} at {width} px: {len(presses)} presses to {label!r}: {presses}")
    expect(page.locator("#refusal")).to_have_count(0)
    focus_is_kept(page)
    # The computers' moves after it come by live push: the focus stays put through them.
    page.wait_for_timeout(2000)
    focus_is_kept(page)
