"""The visiting phase: placing pawns, bidding, outbidding, police, locks, Watson, the Diary."""

from games.base import SYSTEM
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CARRIAGE_STOP,
    CHARLIE,
    act,
    event_types,
    new_game,
    play,
    refusal,
    token_totals,
    visit,
    with_police_on,
    with_tokens,
)


def test_it_starts_with_the_diary_holder_and_goes_clockwise():
    state = new_game(3, host=BOB)
    assert state["turn"] == BOB
    state, _ = act(state, BOB, visit(2))
    assert state["turn"] == CHARLIE
    state, _ = act(state, CHARLIE, visit(3))
    assert state["turn"] == ALICE


def test_it_lets_a_player_visit_a_free_location_on_foot():
    state, events = act(new_game(2), ALICE, visit(2))
    assert state["pawns"][ALICE] == "2"
    assert state["bids"]["2"]["carriages"] == 0
    assert state["players"][ALICE]["carriages"] == 10
    assert "visited" in event_types(events)


def test_it_puts_the_carriages_of_a_bid_on_the_card():
    state, _ = act(new_game(2), ALICE, visit(2, 3))
    assert state["players"][ALICE]["carriages"] == 7
    assert state["bids"]["2"]["carriages"] == 3
    assert token_totals(state)["carriages"] == 57


def test_it_refuses_a_bid_of_carriages_the_player_does_not_hold():
    found = refusal(new_game(2), ALICE, visit(2, 11))
    assert found.code == "not_enough_carriages"
    assert "You hold 10 carriages" in found.message


def test_it_refuses_an_outbid_that_is_not_strictly_more():
    state, _ = act(new_game(2), ALICE, visit(2, 2))
    found = refusal(state, BOB, visit(2, 2))
    assert found.code == "bid_too_low"
    assert found.message == (
        "The Port is held by alice with 2 carriages; you need at least 3 carriages to outbid."
    )


def test_it_needs_one_carriage_to_outbid_a_pawn_on_foot():
    state, _ = act(new_game(2), ALICE, visit(2))
    assert refusal(state, BOB, visit(2)).code == "bid_too_low"
    state, events = act(state, BOB, visit(2, 1))
    assert state["bids"]["2"]["player"] == BOB
    assert "outbid" in event_types(events)
    # Nothing was on the card: alice loses nothing.
    assert state["players"][ALICE]["carriages"] == 10


def test_it_returns_the_outbid_carriages_but_one_to_the_stock():
    state, _ = act(new_game(2), ALICE, visit(2, 4))
    stock = state["stock"]["carriages"]
    state, _ = act(state, BOB, visit(2, 5))
    assert state["players"][ALICE]["carriages"] == 6 + 3
    assert state["stock"]["carriages"] == stock + 1
    assert state["pawns"][ALICE] is None


def test_it_makes_the_outbid_player_wait_for_their_next_turn():
    state = new_game(3)
    state, _ = play(state, (ALICE, visit(2, 1)), (BOB, visit(2, 2)))
    # charlie plays before alice comes round again.
    assert state["turn"] == CHARLIE
    assert refusal(state, ALICE, visit(3)).code == "not_your_turn"
    state, _ = act(state, CHARLIE, visit(3))
    assert state["turn"] == ALICE


def test_it_skips_players_whose_pawn_is_placed():
    state = new_game(3)
    state, _ = play(state, (ALICE, visit(2)), (BOB, visit(3)), (CHARLIE, visit(2, 1)))
    assert state["turn"] == ALICE


def test_it_lets_any_number_of_players_share_the_carriage_stop_and_221b():
    state = new_game(3)
    state, events = play(
        state, (ALICE, CARRIAGE_STOP), (BOB, CARRIAGE_STOP), (CHARLIE, BAKER_STREET)
    )
    assert state["pawns"] == ["carriage_stop", "carriage_stop", "221B"]
    announced = [e for e in events if e.type == "went_to_baker_street"]
    assert announced[0].data == {"player": CHARLIE, "carriages": 10}
    assert announced[0].audience == "all"


def test_it_refuses_visit_for_the_special_locations():
    assert refusal(new_game(2), ALICE, visit("221B")).code == "use_other_action"
    assert refusal(new_game(2), ALICE, visit("carriage_stop")).code == "use_other_action"


def test_it_refuses_an_unknown_location():
    found = refusal(new_game(2), ALICE, visit(99))
    assert found.code == "unknown_location"
    assert "99" in found.message


def test_it_lets_a_player_return_to_a_location_in_a_later_round():
    state = new_game(2)
    state, _ = play(
        state, (ALICE, visit(2)), (BOB, CARRIAGE_STOP), (ALICE, {"type": "done_reading"})
    )
    assert state["round"] == 2
    state, _ = act(state, BOB, CARRIAGE_STOP)
    state, _ = act(state, ALICE, visit(2))
    assert state["pawns"][ALICE] == "2"


def test_it_gives_the_diary_to_the_player_who_placed_last():
    state = new_game(3)
    state, events = play(
        state, (ALICE, visit(2, 1)), (BOB, visit(2, 2)), (CHARLIE, visit(3)), (ALICE, CARRIAGE_STOP)
    )
    assert state["diary"] == ALICE
    state = new_game(3)
    state, events = play(state, (ALICE, visit(2)), (BOB, visit(3)), (CHARLIE, CARRIAGE_STOP))
    assert state["diary"] == CHARLIE
    assert [e.data for e in events if e.type == "visiting_ended"] == [{"diary": CHARLIE}]


def test_it_refuses_a_police_location_without_call_off_or_lockpick():
    state = with_police_on(new_game(2), 2)
    state = with_tokens(state, ALICE, call_off=0, lockpick=0)
    found = refusal(state, ALICE, visit(2))
    assert found.code == "under_police"
    assert "The Port is under police surveillance" in found.message


def test_it_frees_a_police_location_for_everyone_with_a_call_off():
    state = with_tokens(with_police_on(new_game(2), 2), ALICE, call_off=1)
    stock = dict(state["stock"])
    state, events = act(state, ALICE, visit(2, 1, call_off=True))
    assert state["police"] == []
    assert state["players"][ALICE]["call_off"] == 0
    assert state["stock"]["police"] == stock["police"] + 1
    assert state["stock"]["call_off"] == stock["call_off"] + 1
    # bob needs nothing special to outbid now.
    state, _ = act(state, BOB, visit(2, 2))
    assert state["bids"]["2"]["player"] == BOB


def test_it_refuses_a_call_off_without_a_token_or_without_police():
    state = with_police_on(new_game(2), 2)
    assert refusal(state, ALICE, visit(2, call_off=True)).code == "no_call_off"
    state = with_tokens(new_game(2), ALICE, call_off=1)
    assert refusal(state, ALICE, visit(2, call_off=True)).code == "nothing_to_call_off"


def test_it_lets_a_lockpick_holder_visit_under_police_and_spends_it_reading():
    state = with_tokens(with_police_on(new_game(2), 2), ALICE, lockpick=1)
    state, _ = play(state, (ALICE, visit(2)), (BOB, CARRIAGE_STOP))
    assert state["players"][ALICE]["lockpick"] == 0
    assert state["police"] == ["2"], "a lockpick leaves the police token in place"
    assert state["readings"][ALICE] == ["2"]


def test_it_needs_a_lockpick_for_a_locked_card_whatever_its_police():
    state = new_game(2)
    assert refusal(state, ALICE, visit(7)).code == "locked"
    state = with_tokens(state, ALICE, lockpick=1)
    state, _ = play(state, (ALICE, visit(7)), (BOB, CARRIAGE_STOP))
    assert state["players"][ALICE]["lockpick"] == 0
    assert state["readings"][ALICE] == ["7"]


def test_it_still_needs_a_lockpick_for_a_locked_card_after_a_call_off():
    state = with_tokens(with_police_on(new_game(2), 7), ALICE, call_off=1)
    assert refusal(state, ALICE, visit(7, call_off=True)).code == "locked"


def test_it_lets_a_player_take_watson_before_placing_for_four_carriages():
    state, events = act(new_game(2), ALICE, {"type": "take_watson"})
    assert state["watson"]["holder"] == ALICE
    assert state["players"][ALICE]["carriages"] == 6
    assert state["turn"] == ALICE, "taking Watson does not end the turn"
    assert refusal(state, ALICE, {"type": "take_watson"}).code == "watson_taken"
    state, _ = act(state, ALICE, visit(2))
    found = refusal(state, BOB, {"type": "take_watson"})
    assert found.message == "alice already has Watson this round."


def test_it_refuses_watson_to_a_player_with_fewer_than_four_carriages():
    state = with_tokens(new_game(2), ALICE, carriages=3)
    assert refusal(state, ALICE, {"type": "take_watson"}).code == "not_enough_carriages"


def test_it_always_leaves_a_legal_move_even_without_carriages():
    from games.watson_holmes import rules as engine

    state = with_tokens(new_game(2), ALICE, carriages=0, police=0)
    state = with_police_on(state, 2)
    types = {action["type"] for action in engine.legal_actions(state, ALICE)}
    assert {"carriage_stop", "baker_street"} <= types


def test_it_lists_the_minimal_bid_for_each_location():
    from games.watson_holmes import rules as engine

    state, _ = act(new_game(2), ALICE, visit(2, 3))
    visits = [
        a for a in engine.legal_actions(state, BOB) if a["type"] == "visit" and a["location"] == 2
    ]
    assert {"type": "visit", "location": 2, "carriages": 4} in visits
    # apply accepts any larger bid too.
    state, _ = act(state, BOB, visit(2, 7))
    assert state["bids"]["2"]["carriages"] == 7


def test_it_refuses_the_system_placing_pawns():
    assert refusal(new_game(2), SYSTEM, visit(2)).code == "unknown_player"
