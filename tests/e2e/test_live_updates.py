"""Live updates in the browser: a dropped websocket reconnects and catches up."""

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import WIDE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(tutorial, alice, bob):
    # Made before the browser starts: while Playwright's loop runs in this thread, the ORM
    # would open a second connection that outlives the test database.
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    return table


def test_it_reconnects_a_dropped_websocket_and_catches_up(table, live_server_url, chromium):
    a = open_page(chromium, live_server_url, WIDE)
    b = open_page(chromium, live_server_url, WIDE)
    log_in(b, "bob")
    b.goto(f"/tables/{table.pk}/")
    sockets = []

    def through_to_the_server(route):
        route.connect_to_server()
        sockets.append(route)

    a.route_web_socket(re.compile(r"/ws/tables/\d+/$"), through_to_the_server)
    log_in(a, "alice")
    a.goto(f"/tables/{table.pk}/")
    expect(a.locator("#connection")).to_have_text("Live")

    sockets[0].close(code=1011, reason="server went away")
    expect(a.locator("#connection")).to_have_text("Reconnecting…")
    # Meanwhile bob changes colour: alice's page must show it without a reload.
    choose_colour(b, "orange")
    expect(a.locator(".seat-list .pawn--orange")).to_be_visible()
    expect(a.locator("#connection")).to_have_text("Live")
    assert len(sockets) >= 2, "the page opened a new websocket"
    # Pushed through the new socket: well within the polling interval.
    choose_colour(b, "yellow")
    expect(a.locator(".seat-list .pawn--yellow")).to_be_visible(timeout=2_000)


def choose_colour(page, colour: str) -> None:
    page.locator(f"input[name=colour][value={colour}]").check()
    page.locator("#choose-colour").click()
    expect(page.locator(f".seat-list .pawn--{colour}")).to_be_visible()
