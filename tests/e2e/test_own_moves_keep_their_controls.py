"""Every own move keeps its controls, in all four games: a person takes ten moves in a row
while the other players move at the same time, and after each own move, without a reload,
the page must offer the next step's controls (the next turn's buttons and radio inputs, the
reading panel's "I have finished reading", the answer boxes at 221B, ...), enabled, and the
focus must still be on something.

Why: the table page redraws its live region (#live) on a live update (a push says "version
N exists" and the page fetches the region) and with the answer to the player's own move. A
push that arrived while the player's own move was on its way made the page start its
refresh against the region that the move's answer was about to replace; when that refresh
landed, htmx moved the new region's `hx-preserve` inputs into the discarded one, and after
the click that took a player to 221B the answer boxes were gone. The next live update drew
them again, so tests that waited for the page to settle never saw it. Here each person's
page records, at every change of the page, any labelled field that is missing (a label
whose field is not in the document): a loss is caught even when a later update redraws it.

Watson & Holmes has no computer players: bob and charlie play in a browser of their own,
driven from a thread of their own (Playwright's sync API belongs to one thread), and move
as soon as their page offers a move. The card games seat computer players, whom the test
server moves after 0.3 s, so their moves and pushes cross the person's. Whether a push
crosses a move is timing; what is asserted is not: the controls must be there after every
own move, whichever way the race went. Fixed seeds; moves are chosen from what is offered;
a card game over before ten moves is played again (Play again) and the count goes on.
Watson & Holmes and I Say, Holmes! at 360 px, the others at 1280 px. Each test prints how
many own moves it checked.

The focus: the clicked button goes, or htmx disables it for the request and Chromium then
moves the focus to the page's body; table.js means to put it back (on the status line or
the refusal). A focus lost is noted after each move and asserted at the end, so that one
run still checks every move's controls.
"""

import re
import threading

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect, sync_playwright

from play import services
from play.models import Table
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.pages import PHONE, WIDE, button, log_in, open_page, page_state
from tests.e2e.test_play_in_the_browser import RIGHT

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 10  # own moves each test checks, at least
SEED = 1889  # a fixed deal; computer players' moves follow from it and the table's version

# Installed in the person's page before any of its documents loads: from then on, every
# change of the page is checked for a label in #live whose field is not in the document. Each
# loss is noted with the version shown and the last own move before it (`lastOwnMove`, set by
# the test before each click), so it is told against the right move even when a later
# update has drawn the field again.
WATCH = """
(function () {
  var lost = (window.lostControls = []);
  var seen = {};
  function check() {
    var live = document.getElementById("live");
    if (!live) return;
    var labels = live.querySelectorAll("label[for]");
    for (var i = 0; i < labels.length; i += 1) {
      var id = labels[i].htmlFor;
      if (document.getElementById(id)) continue;
      var key = id + "@" + live.dataset.version;
      if (seen[key] || lost.length >= 20) continue;
      seen[key] = true;
      lost.push({ control: id, version: live.dataset.version, after: window.lastOwnMove });
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    check();
    new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
  });
})();
"""

# The page's answer to a move: a newer version, or a refusal that was not on the page before
# the click (a refusal already shown is marked `data-seen` first).
ANSWERED = """(before) => {
  const live = document.getElementById("live");
  const refusal = document.querySelector("#refusal:not([data-seen])");
  return (live && Number(live.dataset.version) > before) || !!refusal;
}"""
SEEN = """() => { const r = document.getElementById("refusal"); if (r) r.dataset.seen = "1"; }"""

FOCUSED = """() => {
  const active = document.activeElement;
  return !!active && active !== document.body && active.isConnected;
}"""

FOCUS = """() => {
  const a = document.activeElement;
  if (!a) return "nothing";
  if (a === document.body) return "the page's body";
  return a.tagName.toLowerCase() + (a.id ? "#" + a.id : "");
}"""


def version(page: Page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def person(browser, base_url: str, viewport: dict, name: str, table_id: int) -> Page:
    """The person's page at the table, watched for lost controls from its first document."""
    page = open_page(browser, base_url, viewport)
    page.context.add_init_script(WATCH)
    log_in(page, name)
    page.goto(f"/tables/{table_id}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    mark_document(page)
    return page


def mark_document(page: Page) -> None:
    """A mark a reload would wipe: the checks after each move look for it."""
    page.evaluate("window.sameDocument = true")


class OwnMoves:
    """A person's own moves, counted; after each, the next step is checked on the page."""

    def __init__(self, page: Page, game: str):
        self.page = page
        self.game = game
        self.taken: list[str] = []  # every own move sent
        self.refused: list[str] = []  # those the table had moved past (never in W&H)
        self.focus_lost: list[str] = []  # after which own moves the focus fell to nothing
        self.games = 1

    @property
    def applied(self) -> int:
        return len(self.taken) - len(self.refused)

    def take(self, what: str, control: Locator, next_step, *, stale_ok: bool = False) -> None:
        """Click `control` (one own move), wait for the page to show the table after it,
        then `next_step()` asserts what the page must now offer; then the focus, the
        document and every labelled field are checked."""
        page = self.page
        self.nothing_lost()  # nor while the person read or typed since their last move
        step = f"own move {len(self.taken) + 1} ({what})"
        before = version(page)
        page.evaluate(SEEN)
        page.evaluate("step => { window.lastOwnMove = step; }", step)
        control.click()
        self.taken.append(what)
        try:
            page.wait_for_function(ANSWERED, arg=before)
        except PlaywrightError as error:
            raise AssertionError(f"{step}: no answer\n{page_state(page)}") from error
        refusal = page.locator("#refusal:not([data-seen])")
        if refusal.count():
            text = refusal.inner_text()
            assert stale_ok and "moved on" in text, f"{step} was refused: {text}"
            self.refused.append(what)
        try:
            next_step()
        except AssertionError as failure:
            self.nothing_lost()  # a lost field is the cause to tell, when there is one
            raise AssertionError(f"after {step}: {failure}\n{page_state(page)}") from None
        self.check_kept(step)

    def nothing_lost(self) -> None:
        lost = self.page.evaluate("window.lostControls")
        if not lost:
            return
        after = lost[0]["after"] or "the page loaded"
        fields = ", ".join(f"#{item['control']} (version {item['version']})" for item in lost)
        if all(item["control"].startswith("answer-") for item in lost):
            raise AssertionError(f"answer inputs missing after {after}: {fields}")
        raise AssertionError(f"fields went missing from the page after {after}: {fields}")

    def check_kept(self, step: str) -> None:
        """No reload, no labelled field missing at any moment, and the focus on something.
        A lost focus is noted and told at the end, so that one test run checks every own
        move's controls."""
        page = self.page
        assert page.evaluate("window.sameDocument === true"), f"after {step}: the page reloaded"
        self.nothing_lost()
        try:
            page.wait_for_function(FOCUSED, timeout=2_000)
        except PlaywrightError:
            self.focus_lost.append(f"{step}: on {page.evaluate(FOCUS)}")

    def report(self) -> None:
        print(
            f"{self.game}: own moves checked: {len(self.taken)} ({self.applied} applied, "
            f"{len(self.refused)} refused as stale) in {self.games} game(s)"
        )
        print(f"{self.game}: moves: {', '.join(self.taken)}")
        assert self.applied >= MOVES, self.taken
        assert not self.focus_lost, (
            f"{self.game}: the focus fell to nothing after {len(self.focus_lost)} of "
            f"{len(self.taken)} own moves: " + "; ".join(self.focus_lost)
        )


# --- Watson & Holmes: alice, with bob and charlie in a browser of their own ----------------


@pytest.fixture
def case_table(tutorial, alice, bob, charlie) -> int:
    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=SEED)
    for user in (bob, charlie):
        services.table_join(invite_code=table.invite_code, user=user)
    services.table_start(table_id=table.pk, user=alice)
    return table.pk


class OthersAtTheTable(threading.Thread):
    """bob and charlie, each in a page of their own browser, driven from this thread: each
    moves as soon as their page offers a move (finish reading; on their turn, visit the
    first free location, else the Carriage Stop). They never go to 221B."""

    def __init__(self, base_url: str, table_id: int, names: tuple[str, ...], viewport: dict):
        super().__init__(daemon=True, name="others-at-the-table")
        self.base_url = base_url
        self.table_id = table_id
        self.names = names
        self.viewport = viewport
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        self.moves = 0

    def run(self) -> None:
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    pages = [self.sit_down(browser, name) for name in self.names]
                    self.ready.set()
                    while not self.stopping.is_set():
                        for page in pages:
                            self.move(page)
                        pages[0].wait_for_timeout(50)
                finally:
                    browser.close()
        except BaseException as error:  # told to the test, which fails with it
            self.failure = error
        finally:
            self.ready.set()

    def sit_down(self, browser, name: str) -> Page:
        page = open_page(browser, self.base_url, self.viewport)
        log_in(page, name)
        page.goto(f"/tables/{self.table_id}/")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        return page

    def move(self, page: Page) -> None:
        finished = page.get_by_role("button", name="I have finished reading")
        if finished.count():
            control = finished
        elif page.locator("#live .is-your-turn").count():
            visit = page.get_by_role("button", name=re.compile(r"^Visit card"))
            control = visit.first if visit.count() else button(page, "^Go to the Carriage Stop")
        else:
            return
        before = version(page)
        try:
            control.click(timeout=2_000)
            self.moves += 1
            page.wait_for_function(ANSWERED, arg=before, timeout=5_000)
        except PlaywrightError:
            return  # redrawn under the click, or slow: the next pass looks again


def offered(page: Page, *names: str) -> None:
    for name in names:
        expect(button(page, name).first).to_be_enabled()


def turn_to_place(page: Page) -> None:
    """Alice's turn in the visiting phase: the board's Visit buttons, 221B, the Carriage Stop."""
    expect(page.locator("#live .is-your-turn")).to_have_count(1)
    expect(page.locator("#status-turn")).to_contain_text("It is your turn")
    expect(first_visit(page)).to_be_enabled()
    offered(page, "^Go to 221B Baker Street to solve", "^Go to the Carriage Stop")


def first_visit(page: Page) -> Locator:
    return page.get_by_role("button", name=re.compile(r"^Visit card")).first


def answer_boxes(page: Page, values: dict) -> None:
    """The answer form at 221B: a box per question, enabled, holding what it should."""
    expect(page.locator("#answers-form")).to_be_visible()
    for question in RIGHT:
        box = page.locator(f"#answer-{question}")
        expect(box, f"answer input #answer-{question} missing after going to 221B").to_be_visible()
        expect(box).to_be_editable()
        expect(box).to_have_value(values.get(question, ""))
    expect(page.locator("#give-answers")).to_be_enabled()


def write_answers(own: OwnMoves, answers: dict) -> None:
    """Typing is no move, but live updates arrive meanwhile: a box gone is told as lost."""
    for question, text in answers.items():
        try:
            own.page.locator(f"#answer-{question}").fill(text, timeout=5_000)
        except PlaywrightError:
            own.nothing_lost()
            raise


def solved(page: Page) -> None:
    expect(page.locator("#end-screen")).to_contain_text("You solved the case", timeout=30_000)
    expect(page.get_by_role("button", name="Play again")).to_be_enabled()


def test_watson_holmes_own_moves_keep_their_controls(
    case_table, live_server_url, chromium, artifacts
):
    others = OthersAtTheTable(live_server_url, case_table, ("bob", "charlie"), PHONE)
    others.start()
    try:
        assert others.ready.wait(60), "bob and charlie never sat down"
        if others.failure:
            raise others.failure
        a = person(chromium, live_server_url, PHONE, "alice", case_table)
        own = OwnMoves(a, "Watson & Holmes")
        reading_done = "^I have finished reading$"

        # Round 1: alice holds the Diary; Watson, a visit, Watson's reading, police, reading.
        turn_to_place(a)
        own.take("take Watson", button(a, "^Take the Watson card"), lambda: turn_to_place(a))
        own.take("visit", first_visit(a), lambda: offered(a, " aloud$"))
        own.take(
            "Watson reads aloud",
            button(a, " aloud$", within="#your-move").first,
            lambda: offered(a, "^Leave your police token on", reading_done),
        )
        police = button(a, "^Leave your police token on")
        own.take("police token", police, lambda: offered(a, reading_done))
        own.take("finish reading", button(a, reading_done), lambda: turn_to_place(a))
        # Rounds 2 and 3: a visit and a reading each.
        for _ in range(2):
            own.take("visit", first_visit(a), lambda: offered(a, reading_done))
            own.take("finish reading", button(a, reading_done), lambda: turn_to_place(a))
        # Round 4: to 221B; the answer boxes must be there after that very click.
        to_221b = button(a, "^Go to 221B Baker Street to solve")
        own.take("go to 221B", to_221b, lambda: answer_boxes(a, {}))
        write_answers(own, RIGHT)
        # Then bob and charlie finish the round, Sherlock judges, and alice has won.
        own.take("give answers", a.locator("#give-answers"), lambda: solved(a))
        a.screenshot(path=artifacts / "own-moves-watson-holmes-360.png", full_page=True)
        print(f"Watson & Holmes: bob and charlie moved {others.moves} times")
        own.report()
    finally:
        others.stopping.set()
        others.join(30)
        if others.failure:  # told even when alice's side failed first, waiting for them
            print(f"bob and charlie's browser failed: {others.failure!r}")
    if others.failure:
        raise others.failure


# --- The card games: alice and computer players ---------------------------------------------


def card_table(host, game: str, bots: int, options: dict | None = None) -> int:
    table = services.table_create(host=host, game=game, options=options)
    Table.objects.filter(pk=table.pk).update(seed=SEED)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, user=host)
    services.table_start(table_id=table.pk, user=host)
    return table.pk


def your_move_again(page: Page, controls: str, over: str) -> None:
    """The next step in a card game: once the page says it is the person's move again
    (or shows their controls), those controls are there and enabled, and nothing in the
    region is left disabled; or the game is over."""
    page.locator(f"#live .is-your-turn, {controls}, {over}").first.wait_for(timeout=30_000)
    if page.locator(over).count():
        return
    expect(page.locator(controls).first).to_be_enabled()
    expect(page.locator("#live :is(button, input, select):disabled")).to_have_count(0)


def play_ten_moves(page: Page, own: OwnMoves, choose, controls: str, over: str) -> None:
    """Own moves chosen by `choose(page)` from what is offered, each followed by the check
    of the next step, until ten were applied; a game over before that is played again."""
    your_move_again(page, controls, over)
    while own.applied < MOVES:
        if page.locator(over).count():
            play_again(page)
            own.games += 1
            your_move_again(page, controls, over)
            continue
        what, control = choose(page)
        own.take(what, control, lambda: your_move_again(page, controls, over), stale_ok=True)
        assert len(own.taken) < 3 * MOVES, f"too many moves refused: {own.refused}"


def play_again(page: Page) -> None:
    """Play again: a new lobby for the same game, where the computer players sit down
    again; alice starts it. A new page, so it is marked again."""
    page.get_by_role("button", name="Play again").click()
    expect(page.get_by_role("heading", name="The lobby")).to_be_visible()
    page.locator("#start-game").click()
    expect(page.locator("#live .status-bar")).to_be_visible()
    mark_document(page)


# Sherlock & Mycroft -------------------------------------------------------------------------

SM_CONTROLS = "#your-move button.option, #your-move input[type=radio]"


@pytest.fixture
def sm_table(alice) -> int:
    return card_table(alice, "sherlock_mycroft", bots=1)


def sm_choose(page: Page) -> tuple[str, Locator]:
    """The first character offered, then its first button; or the first placement."""
    choice = page.locator("#your-move")
    targets = choice.locator("details.target")
    if targets.count():
        first = targets.first
        if first.get_attribute("open") is None:
            first.locator("summary").click()
        name = first.locator(".target-name").inner_text()
        return f"visit {name}", first.locator("button.option").first
    option = choice.locator("button.option").first
    return option.inner_text().split("\n")[0].strip() or "place", option


def test_sherlock_mycroft_own_moves_keep_their_controls(
    sm_table, live_server_url, chromium, artifacts
):
    page = person(chromium, live_server_url, WIDE, "alice", sm_table)
    own = OwnMoves(page, "Sherlock & Mycroft")
    play_ten_moves(page, own, sm_choose, SM_CONTROLS, "#final-scoring")
    page.screenshot(path=artifacts / "own-moves-sherlock-mycroft-1280.png", full_page=True)
    own.report()


# I Say, Holmes! -----------------------------------------------------------------------------

ISH_CONTROLS = (
    "#ish-window.actions button, #ish-choice.actions button, #ish-accuse.actions button, "
    "#ish-moves button, .ish-hand-card.has-plays .ish-plays button, "
    ".ish-hand-card.has-plays summary"
)


@pytest.fixture
def ish_table(alice) -> int:
    # Response windows of 60 s: no window or secret choice times out under the test.
    return card_table(alice, "i_say_holmes", bots=3, options={"max_cases": 2, "window_seconds": 60})


def ish_choose(page: Page) -> tuple[str, Locator]:
    """Allow in a window; the first card of a secret choice; the first accusation; the
    first playable card (its first play); else keep, draw or end."""
    if page.locator("#ish-window.actions").count():
        return "allow", page.locator("#ish-allow")
    if page.locator("#ish-choice.actions").count():
        return "choose a card", page.locator(".ish-choice-list button").first
    if page.locator("#ish-accuse.actions").count():
        return "accuse", page.locator("#ish-accuse button").first
    playable = page.locator(".ish-hand-card.has-plays")
    if playable.count():
        card = playable.first
        summary = card.locator("summary")
        if summary.count():
            summary.click()
            return "play a card on", card.locator(".ish-play-list button").first
        return "play a card", card.locator(".ish-plays button").first
    for control, what in (("#ish-keep", "keep"), ("#ish-draw", "draw"), ("#ish-end-turn", "end")):
        if page.locator(control).count():
            return what, page.locator(control)
    raise AssertionError(f"no move offered\n{page_state(page)}")


def test_i_say_holmes_own_moves_keep_their_controls(
    ish_table, live_server_url, chromium, artifacts
):
    page = person(chromium, live_server_url, PHONE, "alice", ish_table)
    own = OwnMoves(page, "I Say, Holmes!")
    play_ten_moves(page, own, ish_choose, ISH_CONTROLS, "#end-screen")
    page.screenshot(path=artifacts / "own-moves-i-say-holmes-360.png", full_page=True)
    own.report()


# The Elementary deck ------------------------------------------------------------------------

HE_CONTROLS = "#he-moves button, #he-choice button, #he-choice input, #he-hand button"


@pytest.fixture
def he_table(alice) -> int:
    return card_table(alice, "holmes_elementary", bots=2)


def he_choose(page: Page) -> tuple[str, Locator]:
    """Answer a choice (the first card, or the first cards ticked); solve the first case
    offered; play the first card played on an opponent (on the first one), else the first
    card; else draw a card and discard one, or pass."""
    choice = page.locator("#he-choice")
    if choice.count():
        form = page.locator("#he-discard-form")
        if form.count():
            count = int(re.search(r"\d+", form.locator("legend").inner_text()).group(0))
            for index in range(count):
                form.locator("input[type=checkbox]").nth(index).check()
            return f"discard {count}", page.locator("#he-discard-submit")
        return "keep or discard one", choice.locator("button").first
    solve = page.locator("[id^=he-solve-]")
    if solve.count():
        return "solve", solve.first
    targeted = page.locator(".he-hand-card:has(summary):has(button)")
    if targeted.count():
        card = targeted.first
        card.locator("summary").click()
        return "play a card on", card.locator(".he-targets button").first
    plain = page.locator(".he-hand-card button")
    if plain.count():
        return "play a card", plain.first
    if page.locator("#he-draw-discard").count():
        return "draw and discard", page.locator("#he-draw-discard")
    return "pass", page.locator("#he-pass")


def test_holmes_elementary_own_moves_keep_their_controls(
    he_table, live_server_url, chromium, artifacts
):
    page = person(chromium, live_server_url, WIDE, "alice", he_table)
    own = OwnMoves(page, "The Elementary deck")
    play_ten_moves(page, own, he_choose, HE_CONTROLS, "#end-screen")
    page.screenshot(path=artifacts / "own-moves-elementary-1280.png", full_page=True)
    own.report()
