"""One running table of a case per person, and no solution shown to someone who still
plays that case elsewhere (issue 22, item 3): at table A, a second table of the same case
given up at once (anything answered at 221B) would show the solution A is played for.

The services refuse a second table while the first runs (create, join, start), and a
finished or lost table keeps its solution to itself while its viewer plays the case at
another table."""

import pytest

from games.base import SYSTEM
from play import selectors, services
from tests.web.helpers import act, page

WRONG = {"thief": "Tom Quill", "hiding_place": "Smithfield Market", "ticket": "211"}
SOLUTION_TEXT = "he was the thief's excuse"


def solo_table(tutorial, user):
    table = services.table_create(host=user, case_version=tutorial)
    return services.table_start(table_id=table.pk, user=user)


def give_up_at_baker_street(client, table) -> None:
    """Go to 221B at once and answer anything: the quickest way to a lost solo game."""
    act(client, table, {"type": "baker_street"})
    act(
        client,
        table,
        {"type": "answer", "answers": {}},
        **{f"answers-{key}": value for key, value in WRONG.items()},
    )
    # Sherlock's verdicts, as the judging task would deliver them: all wrong.
    table.refresh_from_db()
    for request in table.state["requests"]:
        services.game_apply_action(
            table_id=table.pk,
            player=SYSTEM,
            action={
                "type": "judged",
                "request": request["id"],
                "verdicts": dict.fromkeys(WRONG, "wrong"),
            },
        )
    table.refresh_from_db()
    assert table.status == "finished"


def view_of(table, user) -> dict:
    membership = selectors.membership_for(table_id=table.pk, user=user)
    return selectors.table_view(membership=membership)


def test_it_refuses_alice_a_second_table_of_the_case_she_is_playing(started, tutorial, alice):
    with pytest.raises(services.TableError, match="playing this case at another table") as raised:
        services.table_create(host=alice, case_version=tutorial)
    assert raised.value.code == "case_in_play"


def test_it_refuses_alice_a_seat_at_another_table_of_the_case_she_is_playing(
    started, tutorial, alice, make_user
):
    dave = make_user("dave")
    other = services.table_create(host=dave, case_version=tutorial)
    with pytest.raises(services.TableError, match="playing this case at another table"):
        services.table_join(invite_code=other.invite_code, user=alice)
    assert not other.seats.filter(user=alice).exists()


def test_it_refuses_to_start_a_table_while_a_player_plays_its_case_elsewhere(
    lobby, tutorial, alice, make_user
):
    dave = make_user("dave")
    waiting = services.table_create(host=dave, case_version=tutorial)
    services.table_join(invite_code=waiting.invite_code, user=alice)
    services.table_start(table_id=lobby.pk, user=alice)  # alice now plays the case at the lobby

    with pytest.raises(services.TableError, match="Alice is playing this case") as raised:
        services.table_start(table_id=waiting.pk, user=dave)
    assert raised.value.code == "case_in_play"
    waiting.refresh_from_db()
    assert waiting.status == "lobby"


def test_a_lost_solo_table_shows_its_solution_to_a_player_with_no_other_table(
    tutorial, alice, client
):
    client.force_login(alice)
    solo = solo_table(tutorial, alice)

    give_up_at_baker_street(client, solo)

    assert view_of(solo, alice)["solution"] is not None
    html = page(client, solo)
    assert SOLUTION_TEXT in html and "stays closed here" not in html


def test_a_lost_table_keeps_its_solution_while_its_player_plays_the_case_elsewhere(
    tutorial, alice, bob, client
):
    client.force_login(alice)
    solo = solo_table(tutorial, alice)
    give_up_at_baker_street(client, solo)
    assert view_of(solo, alice)["solution"] is not None
    # Then alice sits down with bob to play the case for real.
    table = services.table_create(host=bob, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=alice)
    services.table_start(table_id=table.pk, user=bob)

    assert view_of(solo, alice)["solution"] is None
    html = page(client, solo)
    assert SOLUTION_TEXT not in html
    assert "stays closed here until that game ends" in html  # the page says why
    api = client.get(f"/api/tables/{solo.pk}/")
    assert api.status_code == 200 and api.json()["solution"] is None
    assert api.json()["solution_withheld"] is True

    # Once that game is over, the lost table shows its solution again.
    table.status = "finished"
    table.save(update_fields=["status"])
    assert view_of(solo, alice)["solution"] is not None
