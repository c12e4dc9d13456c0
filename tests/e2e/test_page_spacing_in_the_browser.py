"""What a review of the pages at 360 px found, kept fixed: on a phone the lobby's Start
and Cancel buttons stand apart (a thumb meant for one must not land on the other), so do
the two buttons of a Watson & Holmes character card, and the closed notebook drawer's
box says what it is for. Screenshots in /tmp/shots/review/."""

from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Locator, expect

from games import get_rules
from games.sites import get_site
from play import local_players, services
from play.models import Table
from tests.e2e.pages import PHONE, log_in

from .test_watson_holmes_table_page import open_page

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/review")


def gap_between(upper: Locator, lower: Locator) -> float:
    """Pixels from the bottom of `upper` to the top of `lower`."""
    top, bottom = upper.bounding_box(), lower.bounding_box()
    assert top and bottom
    return bottom["y"] - (top["y"] + top["height"])


def seed_dealing_a_usable_character(table) -> int:
    """The first seed whose deal gives the host (alone at the table) a character card with
    two controls now."""
    rules, site = get_rules(table.engine), get_site(table.engine)
    config = site.config(case_version=table.case_version, options=table.options, host_seat=0)
    for seed in range(500):
        kinds = [
            action["type"]
            for action in rules.legal_actions(rules.setup(config, ["Alice"], seed), 0)
        ]
        if kinds.count("character") + kinds.count("discard_character") >= 2:
            return seed
    raise AssertionError("no seed of 500 deals a character the host may use at once")


def test_buttons_stand_apart_and_the_drawer_says_what_it_holds(
    tutorial, alice, live_server_url, chromium
):
    lobby = services.table_create(host=alice, game="holmes_elementary", options={})
    local_players.local_seat_add(table_id=lobby.pk, user=alice, name="Mara")
    case = services.table_create(host=alice, case_version=tutorial)
    # Dealt a character she may use at once, so that her card shows two buttons (use,
    # discard): the table's random seed dealt one with a single button in a CI run.
    Table.objects.filter(pk=case.pk).update(seed=seed_dealing_a_usable_character(case))
    services.table_start(table_id=case.pk, user=alice)
    page, _ = open_page(chromium, live_server_url, PHONE)
    log_in(page, "alice")
    SHOTS.mkdir(parents=True, exist_ok=True)

    page.goto(f"/tables/{lobby.pk}/")
    start, cancel = page.locator("#start-game"), page.locator("#cancel-table")
    expect(cancel).to_be_visible()
    assert gap_between(start, cancel) >= 8
    page.screenshot(path=SHOTS / "test-lobby-360.png", full_page=True)

    page.goto(f"/tables/{case.pk}/")
    drawer_box = page.locator("#notebook-text")
    expect(page.locator("#notebook-toggle")).to_have_text("Open your notebook")
    expect(drawer_box).to_have_attribute("placeholder", "Your notes")
    buttons = page.locator("#character-card button")
    expect(buttons).to_have_count(2)
    assert gap_between(buttons.nth(0), buttons.nth(1)) >= 6
    page.screenshot(path=SHOTS / "test-case-360.png", full_page=True)
