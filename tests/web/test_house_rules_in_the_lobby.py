"""The host changes the house rules in the lobby, after opening the table and before
starting it: I Say, Holmes!'s clocks (the answer window, on or off, and the turn timer)
as the example. Only the host sees the form and may send it; a wrong value or a game
already started gets a sentence, and nothing changes."""

import pytest
from django.test import Client
from django.urls import reverse

from play import services

FIELDS = {
    "house-max_cases": "2",
    "house-window_seconds": "0",
    "house-choice_seconds": "30",
    "house-turn_seconds": "0",
    "house-turn_timer_seconds": "120",
}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def i_say_lobby(alice, bob):
    table = services.table_create(host=alice, game="i_say_holmes")
    services.table_join(invite_code=table.invite_code, user=bob)
    return table


def send(user, table, fields: dict):
    return client_of(user).post(
        reverse("play:table-house-rules", args=[table.pk]), fields, headers={"HX-Request": "true"}
    )


@pytest.mark.django_db
def test_only_the_host_sees_the_form(i_say_lobby, alice, bob):
    address = reverse("play:table", args=[i_say_lobby.pk])
    host_page = client_of(alice).get(address).text
    assert "Change the house rules" in host_page
    assert 'name="house-window_seconds" value="30"' in host_page  # the window, as it stands
    assert "Change the house rules" not in client_of(bob).get(address).text


@pytest.mark.django_db
def test_the_host_switches_the_answer_window_off_and_sets_a_turn_timer(i_say_lobby, alice, bob):
    response = send(alice, i_say_lobby, FIELDS)

    assert response.status_code == 200
    i_say_lobby.refresh_from_db()
    assert i_say_lobby.options["window_seconds"] == 0
    assert i_say_lobby.turn_timer_seconds == 120
    # Everyone's lobby says so.
    page = client_of(bob).get(reverse("play:table", args=[i_say_lobby.pk])).text
    assert "Seconds to answer a card played on you: no limit" in page
    assert "Turn timer: 120 seconds a move." in page


@pytest.mark.django_db
def test_a_value_out_of_range_is_refused_in_a_sentence(i_say_lobby, alice):
    response = send(alice, i_say_lobby, {**FIELDS, "house-window_seconds": "601"})

    assert response.status_code == 200
    assert (
        "Seconds to answer a card played on you: "
        "Ensure this value is less than or equal to 600." in response.text
    )
    i_say_lobby.refresh_from_db()
    assert i_say_lobby.options["window_seconds"] == 30 and i_say_lobby.turn_timer_seconds is None


@pytest.mark.django_db
def test_a_timer_not_offered_is_refused_in_a_sentence(i_say_lobby, alice):
    response = send(alice, i_say_lobby, {**FIELDS, "house-turn_timer_seconds": "7"})

    assert "Turn timer: Select a valid choice." in response.text
    i_say_lobby.refresh_from_db()
    assert i_say_lobby.turn_timer_seconds is None


@pytest.mark.django_db
def test_another_player_may_not_change_them(i_say_lobby, bob):
    assert send(bob, i_say_lobby, FIELDS).status_code == 403
    i_say_lobby.refresh_from_db()
    assert i_say_lobby.options["window_seconds"] == 30


@pytest.mark.django_db
def test_a_started_game_keeps_its_rules(i_say_lobby, alice):
    services.seat_add_bot(table_id=i_say_lobby.pk, user=alice)
    services.table_start(table_id=i_say_lobby.pk, user=alice)

    response = send(alice, i_say_lobby, FIELDS)

    assert "The house rules are changed in the lobby, before the game starts." in response.text
    i_say_lobby.refresh_from_db()
    assert i_say_lobby.options["window_seconds"] == 30
