"""A player's own click never loses a control to a live update that crosses it.

The race, made to go the bad way on purpose (never left to timing):

- *push first*: the move's answer is held in the browser (Playwright's routing) until the
  server has applied it and the page has been told "version N+1 exists" by its socket;
  only then is the answer let through. The page used to start its refresh from the
  answer's `beforeSwap`, aimed at the region that very answer was replacing; when the
  refresh landed, htmx took the new region's `hx-preserve` inputs away with it.
- *refresh first*: a refresh of the live region is on its way (held) when the player
  clicks; the move is answered and drawn, and only then does the old refresh come back,
  for a region that is no longer on the page.

After each, the next step's inputs must be on the page, without a reload: the answers at
221B, Sherlock's "say it more plainly" boxes, the Holmes card's question and answer. Solo
and with three players. (The Holmes card needs a player who has failed at 221B, so it has
no solo form.)
"""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, Route, expect

from play import services
from play.models import Table
from tests.e2e.pages import (
    PHONE,
    WIDE,
    button,
    finish_reading,
    log_in,
    open_page,
    page_state,
    wait_for_turn,
)
from tests.e2e.test_play_in_the_browser import RIGHT, WRONG, visit

pytestmark = pytest.mark.django_db(transaction=True)

ACT = re.compile(r"/tables/\d+/act/$")
LIVE = re.compile(r"/tables/\d+/live/")
HEDGED = {**RIGHT, "ticket": "nearly 212"}  # the checker is not sure of "nearly 212"

# What the test needs to know of the page, counted in the page itself: how many fetches
# of the live region the page has handled, and the newest version the socket announced
# (counted before the page's own handler runs, in the same message event). A fetch counts
# as handled in a task queued once its body was read: the page's own callbacks on that
# body are microtasks, which all run before it. XMLHttpRequest is counted too (`loadend`
# follows `load`), so the test can be run against a page script that fetched with htmx.
WATCH = """
(function () {
  window.liveFetchesDone = 0;
  window.versionPushed = 0;
  function handled() { window.setTimeout(function () { window.liveFetchesDone += 1; }, 0); }
  var nativeFetch = window.fetch;
  window.fetch = function (url) {
    var answer = nativeFetch.apply(this, arguments);
    if (!/\\/live\\//.test(String(url))) return answer;
    return answer.then(function (response) {
      if (response.status !== 200) { handled(); return response; }
      var text = response.text.bind(response);
      response.text = function () {
        return text().then(function (body) { handled(); return body; });
      };
      return response;
    });
  };
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    if (/\\/live\\//.test(url)) {
      this.addEventListener("loadend", function () { window.liveFetchesDone += 1; });
    }
    return open.apply(this, arguments);
  };
  var NativeSocket = window.WebSocket;
  function WatchedSocket(url, protocols) {
    var socket = protocols === undefined ? new NativeSocket(url) : new NativeSocket(url, protocols);
    socket.addEventListener("message", function (event) {
      try {
        var message = JSON.parse(event.data);
        if (message.type === "version") {
          window.versionPushed = Math.max(window.versionPushed, message.version);
        }
      } catch (error) { /* not ours */ }
    });
    return socket;
  }
  WatchedSocket.prototype = NativeSocket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) {
    WatchedSocket[name] = NativeSocket[name];
  });
  window.WebSocket = WatchedSocket;
})();
"""


def table_page(browser, base_url: str, viewport: dict, name: str, table_id: int) -> Page:
    page = open_page(browser, base_url, viewport)
    page.add_init_script(WATCH)
    log_in(page, name)
    page.goto(f"/tables/{table_id}/")
    expect(page.locator("#connection")).to_have_text("Live")
    return page


def shown_version(page: Page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def held_requests(page: Page, url: re.Pattern) -> list[Route]:
    """The next request to `url` is held until the test lets it through; later ones go."""
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(url, hold_the_first)
    return held


def wait_until_held(page: Page, held: list[Route]) -> Route:
    # Route handlers run while Playwright has the thread: give it the thread until the
    # browser's request has reached the handler.
    for _ in range(500):
        if held:
            return held[0]
        page.wait_for_timeout(20)
    raise AssertionError(f"the browser sent no request to hold\n{page_state(page)}")


def click_with_push_first(page: Page, click) -> None:
    """The click's answer reaches the page only after the socket said the new version
    exists; then the page's follow-up refresh has come back."""
    before = shown_version(page)
    held = held_requests(page, ACT)
    click()
    move = wait_until_held(page, held)
    answer = move.fetch()  # the server applies the move and pushes its version
    page.wait_for_function("(before) => window.versionPushed > before", arg=before)
    fetches = page.evaluate("window.liveFetchesDone")
    move.fulfill(response=answer)
    page.unroute(ACT)
    page.wait_for_function("(done) => window.liveFetchesDone > done", arg=fetches)


def click_with_refresh_first(page: Page, click) -> None:
    """A refresh of the live region leaves before the click and comes back after the
    click's answer was drawn, fetched from the server as it stands then."""
    before = shown_version(page)
    held = held_requests(page, LIVE)
    # The page refreshes when it becomes visible again (a tab brought back).
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    refresh = wait_until_held(page, held)
    click()
    page.wait_for_function(
        "(before) => Number(document.getElementById('live').dataset.version) > before", arg=before
    )
    fetches = page.evaluate("window.liveFetchesDone")
    refresh.fulfill(response=refresh.fetch())
    page.unroute(LIVE)
    page.wait_for_function("(done) => window.liveFetchesDone > done", arg=fetches)


RACES = {"push first": click_with_push_first, "refresh first": click_with_refresh_first}


def expect_answer_boxes(page: Page) -> None:
    for question in RIGHT:
        expect(page.locator(f"#answer-{question}")).to_be_editable()
    expect(page.locator("#give-answers")).to_be_enabled()


def fill_answers(page: Page, answers: dict) -> None:
    for question, text in answers.items():
        page.locator(f"#answer-{question}").fill(text)


def expect_restate_box(page: Page) -> None:
    expect(page.locator("#restatement")).to_be_visible()
    expect(page.locator("#restate-ticket")).to_be_editable()
    expect(page.locator("#give-restatement")).to_be_enabled()


def expect_holmes_check(page: Page) -> None:
    expect(page.locator("#holmes-question")).to_be_enabled()
    expect(page.locator("#holmes-answer")).to_be_editable()
    expect(page.locator("#holmes-check-button")).to_be_enabled()


@pytest.fixture
def solo_table(tutorial, alice) -> int:
    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1889)
    services.table_start(table_id=table.pk, user=alice)
    return table.pk


@pytest.mark.parametrize("race", list(RACES))
def test_it_keeps_the_answer_and_restate_boxes_of_a_solo_player(
    race, solo_table, live_server_url, chromium, artifacts
):
    page = table_page(chromium, live_server_url, PHONE, "alice", solo_table)
    wait_for_turn(page)
    RACES[race](page, lambda: button(page, "Go to 221B Baker Street").click())
    expect_answer_boxes(page)

    fill_answers(page, HEDGED)
    RACES[race](page, lambda: page.locator("#give-answers").click())
    expect_restate_box(page)
    page.screenshot(path=artifacts / f"race-solo-restate-{race.replace(' ', '-')}.png")

    # The boxes are the real ones: restating wins the case.
    for question, text in RIGHT.items():
        field = page.locator(f"#restate-{question}")
        if field.count():
            field.fill(text)
    page.locator("#give-restatement").click()
    expect(page.locator("#end-screen")).to_contain_text("You solved the case", timeout=30_000)


@pytest.mark.parametrize("race", list(RACES))
def test_it_keeps_every_box_of_three_players(
    race, table_of_three, live_server_url, chromium, artifacts
):
    a = table_page(chromium, live_server_url, WIDE, "alice", table_of_three)
    b = table_page(chromium, live_server_url, PHONE, "bob", table_of_three)
    c = table_page(chromium, live_server_url, WIDE, "charlie", table_of_three)

    # Round 1: charlie is the last to place; his own click takes him to 221B.
    visit(a, 1)
    visit(b, 2)
    wait_for_turn(c)
    RACES[race](c, lambda: button(c, "Go to 221B Baker Street").click())
    expect_answer_boxes(c)

    # The others finish reading first: charlie's own answers close the round, and
    # Sherlock's question comes back in their answer.
    finish_reading(a)
    finish_reading(b)
    fill_answers(c, HEDGED)
    RACES[race](c, lambda: c.locator("#give-answers").click())
    expect_restate_box(c)

    # He restates badly and fails: the Holmes card opens for alice and bob.
    for question in RIGHT:
        field = c.locator(f"#restate-{question}")
        if field.count():
            field.fill(WRONG[question])
    c.locator("#give-restatement").click()
    expect(c.locator("#your-verdicts")).to_contain_text("Why Sherlock turned you away")

    # Round 2: alice places first, then bob's own visit, raced, keeps the Holmes card's
    # question and answer.
    visit(a, 1)
    wait_for_turn(b)
    expect_holmes_check(b)
    RACES[race](b, lambda: button(b, "^Visit", within="#card-3").click())
    expect_holmes_check(b)
    b.screenshot(path=artifacts / f"race-holmes-card-{race.replace(' ', '-')}-360.png")


def test_it_takes_one_move_at_a_time_and_says_so(
    table_of_three, live_server_url, chromium, artifacts
):
    """A second click while the first move is on its way would be aimed at the region the
    first one's answer replaces: the page holds it back with a sentence, and loses
    nothing."""
    page = table_page(chromium, live_server_url, WIDE, "alice", table_of_three)
    wait_for_turn(page)
    held = held_requests(page, ACT)
    button(page, "Take the Watson card").click()
    watson = wait_until_held(page, held)

    button(page, "^Visit", within="#card-1").click()
    expect(page.locator("#refusal")).to_have_text(
        "Your last move is still on its way: wait for its answer, then try again."
    )
    assert len(held) == 1  # the second click sent nothing

    watson.fulfill(response=watson.fetch())
    page.unroute(ACT)
    expect(page.locator("#watson-card")).to_contain_text("Held this round by")
    expect(page.locator("#refusal")).to_have_count(0)
    visit(page, 1)
    expect(page.locator("#card-1")).to_contain_text("Alice")
