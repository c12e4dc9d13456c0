"""Where am I, in Chromium: My tables lists the table waiting on you first, saying so; a
finished table's Play again lands in a new lobby for the same group (1280 and 360 px)."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from play.models import Table, TableStatus
from tests.e2e.pages import PHONE, WIDE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running(alice, bob):
    # The older table: a card game, running; newest first would list it last.
    table = services.table_create(host=alice, game="sherlock_mycroft")
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


@pytest.fixture
def finished(running, tutorial, alice, bob):
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    return table


def test_my_tables_then_play_again(
    running, finished, alice, bob, live_server_url, chromium, artifacts
):
    mover = {0: "alice", 1: "bob"}[running.summary["waiting_for"][0]]
    other = "bob" if mover == "alice" else "alice"
    for name, size, width in ((mover, WIDE, 1280), (other, PHONE, 360)):
        page = open_page(chromium, live_server_url, size)
        log_in(page, name)
        page.goto("/tables/")
        first = page.locator(".case-card").first
        if name == mover:
            expect(first).to_contain_text("Your turn")
            expect(first).to_contain_text("Sherlock & Mycroft")
        else:
            expect(page.get_by_text("Your turn")).to_have_count(0)
            expect(page.get_by_text(f"Waiting for {mover.title()}")).to_be_visible()
        page.screenshot(path=artifacts / f"my-tables-{width}.png", full_page=True)

    host = open_page(chromium, live_server_url, WIDE)
    log_in(host, "bob")
    host.goto(f"/tables/{finished.pk}/")
    host.screenshot(path=artifacts / "play-again-1280.png", full_page=True)
    host.get_by_role("button", name="Play again").click()
    expect(host.get_by_role("heading", name="The lobby")).to_be_visible()
    rematch = Table.objects.exclude(pk__in=[running.pk, finished.pk]).get()
    assert host.url.endswith(f"/tables/{rematch.pk}/") and rematch.host_id == bob.pk

    # Alice, on her phone, finds the new table from the finished one, and joins it.
    friend = open_page(chromium, live_server_url, PHONE)
    log_in(friend, "alice")
    friend.goto(f"/tables/{finished.pk}/")
    friend.get_by_role("button", name="Join the new table").focus()
    friend.screenshot(path=artifacts / "play-again-360.png", full_page=True)
    friend.keyboard.press("Enter")
    expect(friend.get_by_role("heading", name="The lobby")).to_be_visible()
    assert friend.url.endswith(f"/tables/{rematch.pk}/")
    friend.screenshot(path=artifacts / "play-again-lobby-360.png", full_page=True)
    host.screenshot(path=artifacts / "play-again-lobby-1280.png", full_page=True)
