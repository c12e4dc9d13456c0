"""Zones: travel costs between the case's zones; Toby stays in its owner's zone."""

from tests.games.watson_holmes_helpers import (
    ALICE,
    BOB,
    CARRIAGE_STOP,
    DONE,
    act,
    make_case,
    new_game,
    play,
    refusal,
    visit,
    with_character,
    with_tokens,
)

ZONES = {"start": "city", "travel_cost": 2, "names": {"city": "London", "country": "Surrey"}}
COUNTRY = {5: "country", 6: "country", 7: "country", 8: "country"}


def zoned_game(players=2):
    zone_of = {number: "city" for number in range(1, 5)} | COUNTRY
    return new_game(players, case=make_case(zones=ZONES, zone_of=zone_of))


def test_it_charges_the_travel_cost_to_visit_another_zone():
    state, _ = act(zoned_game(), ALICE, visit(8, 1))
    assert state["players"][ALICE]["carriages"] == 10 - 1 - 2
    assert state["stock"]["carriages"] == 57 - 20 + 2


def test_it_charges_nothing_within_the_zone_nor_for_221b_and_the_carriage_stop():
    state, _ = act(zoned_game(), ALICE, visit(2, 1))
    assert state["players"][ALICE]["carriages"] == 9
    state, _ = act(state, BOB, CARRIAGE_STOP)
    assert state["players"][BOB]["carriages"] == 10


def test_it_keeps_the_travel_cost_when_outbid():
    state, _ = play(zoned_game(), (ALICE, visit(8, 1)), (BOB, visit(8, 2)))
    # alice paid 2 to travel and 1 fee: 7 left.
    assert state["players"][ALICE]["carriages"] == 7


def test_it_counts_the_travel_cost_in_what_a_player_can_afford():
    state = with_tokens(zoned_game(), ALICE, carriages=2)
    found = refusal(state, ALICE, visit(8, 1))
    assert found.code == "not_enough_carriages"
    assert found.message == "You hold 2 carriages; this visit costs 3 (1 bid + 2 travel)."


def test_it_moves_a_reader_to_the_zone_of_the_card_they_read():
    state, _ = play(zoned_game(), (ALICE, visit(8)), (BOB, CARRIAGE_STOP), (ALICE, DONE))
    assert state["players"][ALICE]["zone"] == "country"
    assert state["players"][BOB]["zone"] == "city"
    state, _ = play(state, (BOB, CARRIAGE_STOP), (ALICE, visit(6)))
    assert state["players"][ALICE]["carriages"] == 8, "no travel within the country"


def test_it_keeps_toby_in_its_owners_zone():
    state = with_character(zoned_game(), ALICE, "toby")
    assert refusal(state, ALICE, visit(8, character="toby")).code == "toby_zone"
    state, _ = act(state, ALICE, visit(2, character="toby"))
    assert state["bids"]["2"]["token"] == "toby"
