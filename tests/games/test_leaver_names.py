"""After a person leaves a started card game, each game's own page names the seat as it is
now: the computer player's name in the panels, the status and the log, and the leaver's
name only in the sentence that says they left. A game's state keeps the names given at
set-up (games.sites.seat_names reads the table's seats over them)."""

import pytest
from django.urls import reverse

from games import GAMES, get_game
from games.sites import seat_names
from play import leaving, services
from play.models import Table

pytestmark = pytest.mark.django_db

LEFT = "Bob left the game; a computer player (Computer 1) takes the seat."
# Options that keep a played-out game short (a game not named plays at its defaults).
SHORT = {
    "holmes_elementary": {"first_player": "1", "max_rounds": 2},
    "i_say_holmes": {"max_cases": 1},
}


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def left_game(alice, bob, game: str, *others) -> Table:
    """alice and bob (and `others`) start `game`; bob leaves it for a computer player."""
    table = services.table_create(host=alice, game=game, options=SHORT.get(game, {}))
    Table.objects.filter(pk=table.pk).update(seed=1887)
    for user in (bob, *others):
        services.table_join(invite_code=table.invite_code, user=user)
    services.table_start(table_id=table.pk, user=alice)
    leaving.seat_leave(table_id=table.pk, user=bob)
    table.refresh_from_db()
    return table


def play_on(table: Table, *, moves: int) -> Table:
    """Up to `moves` moves: the people's chosen as a computer player would, the computer's
    by the table's own wake-up. Stops at the end of the game."""
    game = get_game(table.engine)
    rules = game.rules
    for step in range(moves):
        table.refresh_from_db()
        if rules.is_over(table.state):
            break
        computers = {seat["number"] for seat in table.summary["seats"] if seat["bot"]}
        people = [seat for seat in rules.waiting_for(table.state) if seat not in computers]
        if people:
            seat = people[0]
            legal = rules.legal_actions(table.state, seat)
            action = game.bot(rules.view(table.state, seat), seat, legal, step)
            services.game_apply_action(table_id=table.pk, player=seat, action=action)
        else:
            services.table_wake(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    return table


def alices_page(client, alice, table: Table) -> str:
    client.force_login(alice)
    response = client.get(reverse("play:table", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def without_departure(html: str) -> str:
    assert LEFT in html
    return html.replace(LEFT, "")


@pytest.mark.parametrize("game", sorted(name for name, game in GAMES.items() if game.bot))
def test_the_page_in_play_names_the_computer_not_the_leaver(alice, bob, charlie, client, game):
    table = play_on(
        left_game(alice, bob, game, *[charlie][: get_game(game).min_players - 2]), moves=12
    )
    assert not get_game(game).rules.is_over(table.state)  # still in play

    html = without_departure(alices_page(client, alice, table))

    assert "Bob" not in html
    assert html.count("Computer 1") >= 2  # the seat list and the game's own panel


@pytest.mark.parametrize("game", ["holmes_elementary", "i_say_holmes"])
def test_the_end_of_the_game_names_the_computer_not_the_leaver(alice, bob, charlie, client, game):
    table = play_on(
        left_game(alice, bob, game, *[charlie][: get_game(game).min_players - 2]), moves=3000
    )
    assert get_game(game).rules.is_over(table.state)

    html = without_departure(alices_page(client, alice, table))

    assert "Bob" not in html
    assert "Computer 1" in html


def test_the_state_keeps_the_leavers_name_the_page_does_not(alice, bob):
    table = left_game(alice, bob, "holmes_elementary")
    assert table.state["players"][1]["name"] == "Bob"  # the rules' state is not rewritten
    players = get_game(table.engine).rules.view(table.state, 0)["players"]
    seats = {seat["number"]: seat for seat in table.summary["seats"]}
    assert seat_names(seats, players) == {0: "Alice", 1: "Computer 1"}


def test_a_seat_without_a_name_keeps_the_name_given_at_set_up():
    players = [{"seat": 0, "name": "Alice"}, {"seat": 1, "name": "Bob"}]
    assert seat_names({0: {"name": ""}}, players) == {0: "Alice", 1: "Bob"}
