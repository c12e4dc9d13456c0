"""The investigation phase: Watson, spent carriages, private reading, tokens, police, income."""

from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BOB,
    CARRIAGE_STOP,
    CHARLIE,
    DONE,
    act,
    card_text,
    event_types,
    make_case,
    new_game,
    play,
    refusal,
    token_totals,
    visit,
    with_police_on,
    with_tokens,
)

TAKE_WATSON = {"type": "take_watson"}


def reading(state, *moves):
    """Play a visiting phase of the given moves; returns the state and events."""
    return play(state, *moves)


def test_it_has_the_watson_holder_read_another_players_card_aloud():
    state, _ = reading(
        new_game(3), (ALICE, TAKE_WATSON), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, visit(5))
    )
    assert state["step"] == "watson"
    assert [
        a["location"] for a in engine.legal_actions(state, ALICE) if a["type"] == "watson_read"
    ] == [8]
    state, events = act(state, ALICE, {"type": "watson_read", "location": 8})
    aloud = [e for e in events if e.type == "watson_read"]
    assert aloud[0].audience == "all" and aloud[0].data["text"] == card_text(8)
    assert engine.view(state, CHARLIE)["watson"]["read"]["text"] == card_text(8)
    assert state["step"] == "reading"


def test_it_refuses_watson_on_a_no_watson_card_or_the_holders_own():
    state, _ = reading(
        new_game(3), (ALICE, TAKE_WATSON), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, visit(5))
    )
    assert refusal(state, ALICE, {"type": "watson_read", "location": 5}).code == "not_watson_target"
    assert refusal(state, ALICE, {"type": "watson_read", "location": 2}).code == "not_watson_target"
    assert refusal(state, BOB, {"type": "watson_read", "location": 8}).code == "not_watson"


def test_it_skips_watson_when_there_is_nothing_to_read_aloud():
    state, events = reading(
        new_game(2), (ALICE, TAKE_WATSON), (ALICE, visit(2)), (BOB, CARRIAGE_STOP)
    )
    assert "watson_unused" in event_types(events)
    assert state["step"] == "reading"


def test_it_returns_watson_for_the_next_round():
    state, _ = reading(
        new_game(3),
        (ALICE, TAKE_WATSON),
        (ALICE, visit(2)),
        (BOB, visit(8)),
        (CHARLIE, CARRIAGE_STOP),
    )
    state, _ = play(
        state, (ALICE, {"type": "watson_read", "location": 8}), (ALICE, DONE), (BOB, DONE)
    )
    assert state["round"] == 2
    assert state["watson"] == {"holder": None, "read": None}


def test_it_spends_the_carriages_on_the_cards():
    state, _ = reading(new_game(2), (ALICE, visit(2, 3)), (BOB, visit(8, 2)))
    assert state["players"][ALICE]["carriages"] == 7
    assert state["players"][BOB]["carriages"] == 8
    assert state["bids"]["2"]["carriages"] == 0 and state["bids"]["2"]["spent"] == 3
    assert state["stock"]["carriages"] == 57 - 20 + 5


def test_it_shows_each_reader_only_their_own_card():
    state, events = reading(new_game(2), (ALICE, visit(2)), (BOB, visit(8)))
    private = [e for e in events if e.type == "card_read"]
    assert {(e.audience, e.data["text"]) for e in private} == {
        ((ALICE,), card_text(2)),
        ((BOB,), card_text(8)),
    }
    assert engine.view(state, ALICE)["you"]["reading"][0]["text"] == card_text(2)
    assert card_text(8) not in str(engine.view(state, ALICE))
    assert card_text(2) not in str(engine.view(state, None))


def test_it_gives_the_token_of_a_card_icon_to_its_reader():
    state = with_tokens(new_game(2), BOB, police=0)
    state, _ = reading(state, (ALICE, visit(3)), (BOB, visit(1)))
    assert state["players"][ALICE]["lockpick"] == 1
    # Scotland Yard gives a police and a call-off token.
    assert state["players"][BOB]["police"] == 1
    assert state["players"][BOB]["call_off"] == 1


def test_it_never_gives_a_second_token_of_a_kind():
    state, _ = reading(new_game(2), (ALICE, visit(1)), (BOB, CARRIAGE_STOP))
    assert state["players"][ALICE]["police"] == 1
    assert token_totals(state)["police"] == 6


def test_it_gives_nothing_when_the_stock_is_empty():
    state = with_tokens(new_game(3), BOB, lockpick=1)
    state = with_tokens(state, CHARLIE, lockpick=1)
    state, events = reading(
        state, (ALICE, visit(3)), (BOB, CARRIAGE_STOP), (CHARLIE, CARRIAGE_STOP)
    )
    assert state["stock"]["lockpick"] == 0
    assert state["players"][ALICE]["lockpick"] == 0


def test_it_gives_the_number_of_carriages_on_a_carriages_icon():
    state, _ = reading(new_game(2), (ALICE, visit(4)), (BOB, CARRIAGE_STOP))
    assert state["players"][ALICE]["carriages"] == 13


def test_it_lets_a_reader_put_their_police_token_on_the_card_they_read():
    state, _ = reading(new_game(2), (ALICE, visit(2)), (BOB, visit(8)))
    state, events = act(state, ALICE, {"type": "place_police", "location": 2})
    assert state["police"] == ["2"]
    assert state["players"][ALICE]["police"] == 0
    assert refusal(state, BOB, {"type": "place_police", "location": 2}).code == "not_your_card"
    found = refusal(state, ALICE, {"type": "place_police", "location": 2})
    assert found.code == "no_police_token"


def test_it_refuses_police_on_cards_that_give_tokens_or_forbid_it():
    state, _ = reading(new_game(2), (ALICE, visit(1)), (BOB, visit(6)))
    assert (
        refusal(state, ALICE, {"type": "place_police", "location": 1}).code == "police_not_allowed"
    )
    assert refusal(state, BOB, {"type": "place_police", "location": 6}).code == "police_not_allowed"


def test_it_refuses_police_on_a_card_that_already_has_one():
    state = with_tokens(with_police_on(new_game(2), 2), ALICE, lockpick=1)
    state, _ = reading(state, (ALICE, visit(2)), (BOB, CARRIAGE_STOP))
    assert refusal(state, ALICE, {"type": "place_police", "location": 2}).code == "already_police"


def test_it_refuses_police_once_the_reader_is_done():
    state, _ = reading(new_game(3), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, CARRIAGE_STOP))
    state, _ = act(state, ALICE, DONE)
    assert refusal(state, ALICE, {"type": "place_police", "location": 2}).code == "already_done"


def test_it_pays_the_carriage_stop_three_carriages_after_reading():
    state, _ = reading(new_game(2), (ALICE, visit(2)), (BOB, CARRIAGE_STOP))
    assert state["players"][BOB]["carriages"] == 10, "paid only when reading ends"
    state, events = act(state, ALICE, DONE)
    assert state["players"][BOB]["carriages"] == 13
    assert "carriage_stop_income" in event_types(events)


def test_it_ends_the_round_when_every_reader_is_done():
    state, _ = reading(new_game(2), (ALICE, visit(2)), (BOB, visit(8)))
    state, _ = act(state, BOB, DONE)
    assert state["round"] == 1 and state["phase"] == "investigation"
    state, events = act(state, ALICE, DONE)
    assert state["round"] == 2 and state["phase"] == "visiting"
    assert "round_started" in event_types(events)


def test_it_hides_the_text_again_after_the_round():
    state, _ = reading(new_game(2), (ALICE, visit(2)), (BOB, CARRIAGE_STOP))
    state, _ = act(state, ALICE, DONE)
    assert card_text(2) not in str(engine.view(state, ALICE))


def test_it_keeps_the_texts_a_player_read_with_the_casebook_house_rule():
    state, _ = reading(new_game(2, casebook=True), (ALICE, visit(2)), (BOB, CARRIAGE_STOP))
    state, _ = act(state, ALICE, DONE)
    you = engine.view(state, ALICE)["you"]
    assert [entry["text"] for entry in you["casebook"]] == [card_text(2)]
    assert engine.view(state, BOB)["you"]["casebook"] == []


# --- gains from a short stock: in turn from the Diary, clockwise ------------------------------

TWO_LOCKPICK_CARDS = [
    (2, "The Port", ["lockpick"]),
    (3, "Pawnbroker", ["lockpick"]),
    (8, "Tavern", []),
]


def test_it_hands_out_icon_tokens_from_a_short_stock_from_the_diary_clockwise():
    state = new_game(3, case=make_case(locations=TWO_LOCKPICK_CARDS))
    state = with_tokens(state, CHARLIE, lockpick=1)  # one lockpick left in the stock
    # bob takes the Port from alice, so his card was placed first; alice places last,
    # takes the Diary and is the first to gain.
    state, _ = reading(
        state,
        (ALICE, visit(2, 1)),
        (BOB, visit(2, 2)),
        (CHARLIE, CARRIAGE_STOP),
        (ALICE, visit(3)),
    )
    assert state["diary"] == ALICE
    assert (state["players"][ALICE]["lockpick"], state["players"][BOB]["lockpick"]) == (1, 0)


def test_it_pays_the_carriage_stop_from_a_short_stock_from_the_diary_clockwise():
    state = with_tokens(new_game(3), BOB, carriages=34)
    assert state["stock"]["carriages"] == 3
    state, _ = reading(state, (ALICE, CARRIAGE_STOP), (BOB, visit(2)), (CHARLIE, CARRIAGE_STOP))
    assert state["diary"] == CHARLIE, "charlie placed last"
    state, _ = act(state, BOB, DONE)
    assert (state["players"][CHARLIE]["carriages"], state["players"][ALICE]["carriages"]) == (
        13,
        10,
    )


def test_it_returns_the_carriages_on_the_cards_to_the_stock_before_anyone_gains():
    state = with_tokens(new_game(2), BOB, carriages=47)
    assert state["stock"]["carriages"] == 0
    state, _ = reading(state, (ALICE, visit(4)), (BOB, visit(2, 3)))
    assert state["players"][ALICE]["carriages"] == 13, "the Cab Office pays from bob's 3"


def test_it_spends_every_lockpick_before_anyone_gains_one():
    state = with_tokens(with_police_on(new_game(3), 2), BOB, lockpick=1)
    state = with_tokens(state, CHARLIE, lockpick=1)
    assert state["stock"]["lockpick"] == 0
    # charlie places last and holds the Diary: alice comes before bob, clockwise.
    state, _ = reading(state, (ALICE, visit(3)), (BOB, visit(2)), (CHARLIE, CARRIAGE_STOP))
    assert state["players"][BOB]["lockpick"] == 0, "spent to read under police"
    assert state["players"][ALICE]["lockpick"] == 1, "the Pawnbroker gives bob's spent one"
