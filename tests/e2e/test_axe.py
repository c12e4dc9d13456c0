"""Every page type of the site, checked by axe-core in Chromium: no critical and no serious
accessibility violation on any of them; the moderate and minor ones are printed.

axe-core is vendored (tests/e2e/vendor/axe-core/, its version and licence beside it) and
evaluated in each page through Playwright: the site's Content Security Policy would refuse
it as a script tag. Every <details> is opened first, so what a click unfolds is checked too.

One server and one set-up for the whole module: the tables (a lobby, a game in play and a
finished game of each of the four games), the cases and the review are made once, through
the services, before the browser starts, and flushed at the end. Each page type is a test
of its own, so a failure names the page; each is looked at 1280 px wide, and those whose
layout changes most on a phone at 360 px too (named "-360").
"""

import contextlib
import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page

from tests.conftest import require_service
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, chromium_problem, serving
from tests.e2e.pages import PHONE, WIDE, log_in

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cases"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
FAILING = ("critical", "serious")

CARD_GAMES = ("sherlock_mycroft", "i_say_holmes", "holmes_elementary")
GAMES = ("watson_holmes", *CARD_GAMES)
# Options that keep a game played out to its end short.
SHORT = {
    "holmes_elementary": {"first_player": "1", "max_rounds": 2},
    "i_say_holmes": {"max_cases": 1},
    "sherlock_mycroft": {},
}
# How many computer players sit with alice: each game at its smallest table but one.
COMPUTERS = {"sherlock_mycroft": 1, "i_say_holmes": 2, "holmes_elementary": 2}


@dataclass(frozen=True)
class PageType:
    name: str
    user: str | None  # who looks at it (None: nobody logged in)
    address: str  # a path, or a key of the set-up's addresses
    viewport: dict = field(default_factory=lambda: WIDE)


PAGES = [
    PageType("home", None, "/"),
    PageType("catalogue", "alice", "/?players=2&sort=easiest"),
    PageType("case", None, "case"),
    PageType("log-in", None, "/accounts/login/"),
    PageType("sign-up", None, "/accounts/signup/"),
    PageType("games", "alice", "/games/"),
    PageType("my-tables", "alice", "/tables/"),
    PageType("profile", "alice", "/accounts/profile/"),
    PageType("notifications", "alice", "/accounts/notifications/"),
    PageType("invite", "bob", "invite"),
    # A table's address opened by someone not at it (dave): the watch offer.
    PageType("table-for-outsiders", "dave", "watson_holmes-table"),
    PageType("writing-guide", None, "/guide/writing-a-case/"),
    PageType("not-found", None, "/no-such-page/"),
    *(PageType(f"{game}-rules", None, f"/games/{game}/rules/") for game in GAMES),
    *(PageType(f"{game}-api-moves", None, f"/games/{game}/api/") for game in GAMES),
    PageType("watson_holmes-lobby", "dave", "watson_holmes-lobby"),
    PageType("watson_holmes-table", "alice", "watson_holmes-table"),
    PageType("watson_holmes-reading", "charlie", "watson_holmes-reading"),
    PageType("watson_holmes-finished", "alice", "watson_holmes-finished"),
    *(
        PageType(f"{game}-{stage}", "alice", f"{game}-{stage}")
        for game in CARD_GAMES
        for stage in ("lobby", "table", "finished")
    ),
    PageType("editor-list", "alice", "/admin/cases/caseversion/"),
    PageType("editor", "alice", "editor"),
    PageType("review-list", "mina", "/admin/authoring/review/"),
    PageType("review", "mina", "review"),
]
# On a phone too: the pages whose layout changes most at 360 px (a sticky bar, a drawer,
# code and tables wider than the screen).
PAGES += [
    replace(page, name=f"{page.name}-360", viewport=PHONE)
    for page in PAGES
    if page.name in ("home", "case", "writing-guide", "editor", "table-for-outsiders")
    or page.name.endswith(("-rules", "-table", "-reading"))
]


# --- The set-up, once for the module ---------------------------------------------------------


def make_users() -> dict:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from authoring import services as authoring

    users = {
        name: get_user_model().objects.create_user(
            username=name,
            password=f"{name}-password",
            email=f"{name}@example.com",
            display_name=name.title(),
            email_verified_at=timezone.now(),
        )
        for name in ("alice", "bob", "charlie", "dave", "mina")
    }
    authoring.user_make_author(user=users["alice"])
    authoring.user_make_moderator(user=users["mina"])
    return users


def import_case(name: str, **fields):
    from cases.package.reader import read_package_path
    from cases.services import case_import_package

    return case_import_package(files=read_package_path(FIXTURES / name), **fields).version


def play(table, choose, *, until, steps: int = 400):
    """Moves until `until(state, step)`: each from `choose(state, seat, step)` for the
    first seat the table waits for, people's and computers' alike."""
    from games import get_game
    from play import services

    rules = get_game(table.engine).rules
    for step in range(steps):
        table.refresh_from_db()
        if until(table.state, step):
            return table
        waiting = rules.waiting_for(table.state)
        assert waiting and not rules.is_over(table.state), f"{table.engine} is stuck"
        seat = waiting[0]
        action = choose(table.state, seat, step)
        services.game_apply_action(table_id=table.pk, player=seat, action=action)
    raise AssertionError(f"{table.engine} did not get there in {steps} moves")


def as_a_computer(engine: str):
    from games import get_game

    game = get_game(engine)

    def choose(state, seat, step):
        legal = game.rules.legal_actions(state, seat)
        return game.bot(game.rules.view(state, seat), seat, legal, step)

    return choose


def at_random(engine: str, *, avoid: tuple[str, ...] = ()):
    from games import get_game

    rules = get_game(engine).rules
    rng = random.Random(1887)

    def choose(state, seat, step):
        legal = rules.legal_actions(state, seat)
        return rng.choice([a for a in legal if a["type"] not in avoid] or legal)

    return choose


def card_game(engine: str, host, *, options=None):
    from play import services
    from play.models import Table

    table = services.table_create(host=host, game=engine, options=options)
    Table.objects.filter(pk=table.pk).update(seed=1889)
    for _ in range(COMPUTERS[engine]):
        services.seat_add_bot(table_id=table.pk, user=host)
    table.refresh_from_db()
    return table


def alices_turn_after(engine: str, moves: int):
    """A state at `moves` moves or more where the table waits on alice (seat 0) alone,
    with no clock running."""
    from games import get_game

    rules = get_game(engine).rules

    def until(state, step):
        return (
            step >= moves
            and not rules.is_over(state)
            and rules.waiting_for(state) == [0]
            and not rules.deadline_seconds(state)
        )

    return until


def over(engine: str):
    from games import get_game

    rules = get_game(engine).rules
    return lambda state, step: rules.is_over(state)


def make_tables(users: dict, addresses: dict) -> None:
    from play import services

    alice = users["alice"]
    for engine in CARD_GAMES:
        lobby = card_game(engine, alice)
        addresses[f"{engine}-lobby"] = f"/tables/{lobby.pk}/"
        finished = card_game(engine, alice, options=SHORT[engine])
        services.table_start(table_id=finished.pk, user=alice)
        play(finished, as_a_computer(engine), until=over(engine))
        addresses[f"{engine}-finished"] = f"/tables/{finished.pk}/"
        playing = card_game(engine, alice)
        services.table_start(table_id=playing.pk, user=alice)
        play(playing, as_a_computer(engine), until=alices_turn_after(engine, 8))
        addresses[f"{engine}-table"] = f"/tables/{playing.pk}/"

    # The case game has no computer player: people's moves, at random, on two cases.
    tutorial = import_case("the-clerkenwell-repeater", publish=True)
    other = import_case("the-bonnet-at-deptford-creek", publish=True)
    addresses["case"] = f"/cases/{tutorial.case.slug}/"
    engine = "watson_holmes"

    finished = services.table_create(host=alice, case_version=other)
    services.table_start(table_id=finished.pk, user=alice)
    play(finished, at_random(engine), until=over(engine))
    addresses[f"{engine}-finished"] = f"/tables/{finished.pk}/"

    playing = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=playing.invite_code, user=users["bob"])
    services.table_start(table_id=playing.pk, user=alice)
    visiting = at_random(engine, avoid=("baker_street", "answer", "take_watson"))
    play(playing, visiting, until=lambda state, step: step >= 6 and waits_to_visit(state, 0))
    addresses[f"{engine}-table"] = f"/tables/{playing.pk}/"

    reading = services.table_create(host=users["charlie"], case_version=other)
    services.table_start(table_id=reading.pk, user=users["charlie"])
    first_visit = lambda state, seat, step: next(  # noqa: E731
        a for a in legal(engine, state, seat) if a["type"] == "visit"
    )
    play(reading, first_visit, until=lambda state, step: state["phase"] == "investigation")
    addresses[f"{engine}-reading"] = f"/tables/{reading.pk}/"

    lobby = services.table_create(host=users["dave"], case_version=tutorial)
    addresses[f"{engine}-lobby"] = f"/tables/{lobby.pk}/"
    addresses["invite"] = f"/join/{lobby.invite_code}/"


def legal(engine: str, state: dict, seat: int) -> list[dict]:
    from games import get_game

    return get_game(engine).rules.legal_actions(state, seat)


def waits_to_visit(state: dict, seat: int) -> bool:
    return state["phase"] == "visiting" and state["turn"] == seat


def make_cases_in_review(users: dict, addresses: dict) -> None:
    """alice's draft, sent back with a comment (the editor shows its thread), and another
    of her cases in mina's review, the solution revealed, with a comment of hers."""
    from authoring import services as authoring

    alice, mina = users["alice"], users["mina"]
    sent_back = import_case("the-night-angler", author=alice)
    authoring.case_submit(version=sent_back, user=alice)
    authoring.case_claim(version=sent_back, user=mina)
    location = sent_back.locations.order_by("number").first()
    authoring.case_request_changes(
        version=sent_back,
        user=mina,
        comments=[
            authoring.CommentInput(text="One more clue would help."),
            authoring.CommentInput(text="Say where he hides.", location_id=location.pk),
        ],
    )
    addresses["editor"] = f"/admin/cases/caseversion/{sent_back.pk}/change/"

    in_review = import_case("the-osney-astrolabe", author=alice)
    review = authoring.case_submit(version=in_review, user=alice)
    authoring.case_claim(version=in_review, user=mina)
    authoring.case_comment_add(
        version=in_review,
        user=mina,
        comment=authoring.CommentInput(text="The third card gives the thief away."),
    )
    authoring.case_reveal(version=in_review, user=mina)
    addresses["review"] = f"/admin/authoring/review/{review.pk}/change/"


@pytest.fixture(scope="module")
def test_database(request, django_db_setup, django_db_blocker):
    """The test database. pytest-django sets it up for a run where some test is marked
    for it; this module's tests are not (a test marked so would roll back or flush what
    the module's set-up committed), so when they run alone it is set up here."""
    from django.test.utils import setup_databases, teardown_databases

    marked = any(
        item.get_closest_marker("django_db")
        or {"db", "transactional_db", "live_server"} & set(item.fixturenames)
        for item in request.session.items
    )
    with django_db_blocker.unblock():
        made = None if marked else setup_databases(0, False, aliases={"default"})
    yield
    if made is not None:
        with django_db_blocker.unblock():
            teardown_databases(made, verbosity=0)


@pytest.fixture(scope="module")
def site(request, test_database, django_db_blocker, tmp_path_factory):
    """The site, served, with everything the pages show: (its address, the set-up's
    addresses). The data is committed, as a browser test's must be, and flushed after."""
    require_service("Chromium", chromium_problem())
    from django.core.management import call_command

    started = time.monotonic()
    with django_db_blocker.unblock():
        try:
            users = make_users()
            addresses: dict[str, str] = {}
            make_tables(users, addresses)
            make_cases_in_review(users, addresses)
            capturing = request.config.pluginmanager.get_plugin("capturemanager")
            with capturing.global_and_fixture_disabled():
                print(f"\naxe: the set-up took {time.monotonic() - started:.1f} s")
            log_path = tmp_path_factory.mktemp("axe") / "server.log"
            with serving(log_path) as url:
                yield url, addresses
        finally:
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def axe_browser(site):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()


@pytest.fixture(scope="module")
def people(site, axe_browser):
    """One page per person (and one logged out), logged in once and reused."""
    url, _ = site
    opened: dict[str | None, Page] = {}

    def page_of(user: str | None) -> Page:
        if user not in opened:
            page = axe_browser.new_context(viewport=WIDE, base_url=url).new_page()
            if user:
                log_in(page, user)
            opened[user] = page
        return opened[user]

    yield page_of
    for page in opened.values():
        with contextlib.suppress(Exception):
            page.context.close()


# --- axe --------------------------------------------------------------------------------------

RUN_AXE = """async () => {
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const results = await axe.run(document, { resultTypes: ["violations"] });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    targets: v.nodes.map((n) => ({
      target: n.target.join(" "),
      summary: n.failureSummary,
    })),
  }));
}"""


def axe_violations(page: Page) -> list[dict]:
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    return page.evaluate(RUN_AXE)


def described(violations: list[dict], *, details: bool) -> str:
    lines = []
    for violation in violations:
        lines.append(
            f"  {violation['impact']}: {violation['id']}: {violation['help']}"
            f" ({len(violation['targets'])} element(s); {violation['helpUrl']})"
        )
        for node in violation["targets"][: 8 if details else 3]:
            lines.append(f"      {node['target']}")
            if details and node["summary"]:
                summary = " ".join(node["summary"].split())
                lines.append(f"        {summary[:300]}")
    return "\n".join(lines)


@pytest.mark.parametrize("page_type", PAGES, ids=[page.name for page in PAGES])
def test_the_page_has_no_serious_accessibility_violation(page_type, site, people, capsys):
    _, addresses = site
    page = people(page_type.user)
    page.set_viewport_size(page_type.viewport)
    address = addresses.get(page_type.address, page_type.address)
    response = page.goto(address)
    expected = 404 if page_type.name == "not-found" else 200
    assert response.status == expected, f"{address} answered {response.status}"
    page.wait_for_load_state("load")

    started = time.monotonic()
    violations = axe_violations(page)
    seconds = time.monotonic() - started

    failing = [v for v in violations if v["impact"] in FAILING]
    others = [v for v in violations if v["impact"] not in FAILING]
    if others:  # told, not failed: in the run's output whether it passes or not
        with capsys.disabled():
            print(
                f"\naxe {page_type.name} ({address}, {seconds:.1f} s):"
                f" {len(others)} moderate or minor violation(s)"
            )
            print(described(others, details=False))
    assert not failing, (
        f"axe finds {len(failing)} critical or serious violation(s) on {page_type.name}"
        f" ({address}):\n" + described(failing, details=True)
    )
