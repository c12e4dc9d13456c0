"""The site's 404 pages in Chromium, at 1280 and 360 px: a missing page and a table address
that opens no table each lead on (home, My tables, join with a code), and the links work.
(A table that exists answers someone not at it with its invite's offer instead:
tests/e2e/test_watching_in_the_browser.py.)

The test server runs with HOLMES_DEBUG=1, which answers a 404 with Django's debugging page
instead of ours, and production settings need HTTPS and collected static files. So the
test renders our 404 page with Django's test client (never in debug), hands it to the
browser at the address that was asked for, and follows its links on the live server.
"""

from pathlib import Path

import pytest

pytest.importorskip("playwright")

from django.test import Client
from playwright.sync_api import Page, expect

from play import services

from .test_sherlock_mycroft_in_the_browser import (
    PHONE,
    WIDE,
    log_in,
    no_horizontal_scroll,
    open_page,
)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/404")
MISSING = "/no-such-page/"


@pytest.fixture
def started(alice, bob):
    """A game Alice and Bob play; Dora is not at it."""
    table = services.table_create(host=alice, game="sherlock_mycroft")
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


@pytest.fixture
def rendered(started, make_user) -> dict[str, str]:
    """Our 404 pages as Dora (at no table) is answered them: a missing page, and a table
    address that opens no table. Rendered before the browser starts (tests/e2e/conftest.py)."""
    client = Client()
    client.force_login(make_user("dora", display_name="Dora"))
    pages = {}
    for path in (MISSING, no_table(started)):
        response = client.get(path)
        assert response.status_code == 404
        pages[path] = response.content.decode()
    return pages


def no_table(started) -> str:
    return f"/tables/{started.pk + 1000}/"


def open_not_found(page: Page, path: str, html: str) -> None:
    """The browser asks the live server for `path` and is answered our 404 page."""
    page.route(
        f"**{path}",
        lambda route: route.fulfill(status=404, body=html, content_type="text/html"),
    )
    response = page.goto(path)
    assert response is not None and response.status == 404
    page.unroute(f"**{path}")


def shoot_both(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, width in ((WIDE, 1280), (PHONE, 360)):
        page.set_viewport_size(viewport)
        page.screenshot(path=SHOTS / f"{name}-{width}.png", full_page=True)
        assert no_horizontal_scroll(page), f"{name} at {width} px scrolls sideways"


def test_a_missing_page_leads_home_and_to_my_tables(rendered, live_server_url, chromium, artifacts):
    page = open_page(chromium, live_server_url, WIDE)
    log_in(page, "dora")
    open_not_found(page, MISSING, rendered[MISSING])
    expect(page.get_by_role("heading", level=1)).to_have_text("This page does not exist")
    shoot_both(page, "missing-page")

    page.set_viewport_size(PHONE)
    page.get_by_role("main").get_by_role("link", name="My tables").click()
    expect(page.get_by_role("heading", name="My tables")).to_be_visible()

    open_not_found(page, MISSING, rendered[MISSING])
    page.get_by_role("main").get_by_role("link", name="home page").click()
    expect(page).to_have_url(f"{live_server_url}/")


def test_an_address_of_no_table_leads_to_joining_with_a_code(
    rendered, started, live_server_url, chromium, artifacts
):
    path = no_table(started)
    page = open_page(chromium, live_server_url, WIDE)
    log_in(page, "dora")
    open_not_found(page, path, rendered[path])
    expect(page.get_by_role("heading", level=1)).to_have_text("You are not at this table")
    expect(page.get_by_role("main")).not_to_contain_text("Alice")  # who plays is not told
    shoot_both(page, "not-at-table")

    # The page's own code field joins the table (the code a friend sent).
    page.get_by_role("main").get_by_label("The table's code").fill(started.invite_code)
    page.get_by_role("main").get_by_role("button", name="Join").click()
    expect(page).to_have_url(f"{live_server_url}/join/{started.invite_code}/")
