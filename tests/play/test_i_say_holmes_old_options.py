"""I Say, Holmes!'s options once had other names (``cases`` for ``max_cases``). A table
stored with them still shows its house rules, starts and plays to the end, and an API
client may still send them."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import get_game
from play import services
from play.models import Table

pytestmark = pytest.mark.django_db

OLD_STYLE = {"cases": 1, "window_seconds": 20, "fast_play": False}


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


@pytest.fixture
def old_table(alice, bob, charlie) -> Table:
    """A lobby whose options were stored under the old names, before the renaming."""
    table = services.table_create(host=alice, game="i_say_holmes")
    Table.objects.filter(pk=table.pk).update(options=OLD_STYLE, seed=1887)
    for user in (bob, charlie):
        services.table_join(invite_code=table.invite_code, user=user)
    table.refresh_from_db()
    return table


def test_it_names_the_old_house_rules_in_the_lobby(old_table, client, alice):
    client.force_login(alice)
    text = client.get(reverse("play:table", args=[old_table.pk])).text

    assert "Number of cases: 1" in text
    assert "Seconds to answer a card played on you: 20" in text
    assert "Seconds for a turn: no limit" in text


def test_an_old_style_table_starts_and_plays_to_its_last_case(old_table, alice):
    game = get_game("i_say_holmes")
    rules = game.rules
    table = services.table_start(table_id=old_table.pk, user=alice)
    assert table.state["max_cases"] == 1
    assert table.state["options"]["window_seconds"] == 20

    for step in range(3000):
        table.refresh_from_db()
        if rules.is_over(table.state):
            break
        seat = rules.waiting_for(table.state)[0]
        legal = rules.legal_actions(table.state, seat)
        action = game.bot(rules.view(table.state, seat), seat, legal, step)
        services.game_apply_action(table_id=table.pk, player=seat, action=action)

    table.refresh_from_db()
    assert rules.is_over(table.state)
    assert table.state["cases_closed"] == 1
    assert rules.outcome(table.state)["reason"] in ("max_cases", "his_last_bow")


def test_an_api_client_may_send_the_old_name(alice):
    client = APIClient()
    client.force_authenticate(alice)

    response = client.post(
        "/api/tables/", {"game": "i_say_holmes", "options": {"cases": 3}}, format="json"
    )
    assert response.status_code == 201
    table = Table.objects.get(host=alice)
    assert table.options["max_cases"] == 3 and "cases" not in table.options

    response = client.post(
        "/api/tables/",
        {"game": "i_say_holmes", "options": {"cases": 3, "max_cases": 4}},
        format="json",
    )
    assert response.status_code == 400
    assert "given twice" in str(response.json())
