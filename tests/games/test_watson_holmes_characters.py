"""The eight character cards, discarding, and Wiggins's copies."""

import pytest

from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CARRIAGE_STOP,
    CHARLIE,
    DAVE,
    DONE,
    act,
    card_text,
    judge,
    make_case,
    new_game,
    play,
    refusal,
    visit,
    with_character,
    with_police_on,
    with_tokens,
)


def use(name, **extra):
    return {"type": "character", "character": name, **extra}


def test_it_keeps_a_character_hidden_until_used():
    state = with_character(new_game(2), ALICE, "lestrade")
    assert engine.view(state, BOB)["players"][ALICE]["character"] is None
    assert engine.view(state, ALICE)["you"]["character"] == "lestrade"
    state, events = act(state, ALICE, use("lestrade"))
    assert engine.view(state, BOB)["players"][ALICE]["character"] == "lestrade"
    assert events[0].audience == "all"


def test_it_lets_a_character_be_discarded_for_three_carriages_without_revealing_it():
    state = with_character(new_game(2), ALICE, "irene_adler")
    state, _ = act(state, ALICE, {"type": "discard_character"})
    assert state["players"][ALICE]["carriages"] == 13
    assert engine.view(state, BOB)["players"][ALICE]["character"] is None
    assert refusal(state, ALICE, use("irene_adler")).code == "character_discarded"
    assert refusal(state, ALICE, {"type": "discard_character"}).code == "character_used"


def test_it_uses_each_character_once_per_game():
    state = with_character(new_game(2), ALICE, "lestrade")
    state, _ = act(state, ALICE, use("lestrade"))
    assert refusal(state, ALICE, use("lestrade")).code == "character_used"
    assert refusal(state, ALICE, {"type": "discard_character"}).code == "character_used"


def test_it_refuses_a_character_the_player_does_not_hold():
    state = with_character(new_game(2), ALICE, "billy")
    found = refusal(state, ALICE, use("lestrade"))
    assert found.code == "character_not_held"
    assert refusal(state, ALICE, use("moriarty")).code == "unknown_character"


# --- Toby ---------------------------------------------------------------------------------


def test_it_lets_toby_hold_a_location_as_two_carriages():
    state = with_character(new_game(2), ALICE, "toby")
    state, _ = act(state, ALICE, visit(2, character="toby"))
    assert state["players"][ALICE]["carriages"] == 10
    assert state["bids"]["2"]["token"] == "toby"
    found = refusal(state, BOB, visit(2, 2))
    assert found.message == (
        "The Port is held by alice's Toby token (worth 2 carriages); you need at least "
        "3 carriages to outbid."
    )
    state, _ = act(state, BOB, visit(2, 3))
    assert state["players"][ALICE]["carriages"] == 10, "Toby goes home, no fee"
    assert state["bids"]["2"]["token"] is None


def test_it_lets_toby_be_used_every_round_but_never_with_carriages():
    state = with_character(new_game(2), ALICE, "toby")
    assert refusal(state, ALICE, visit(2, 1, character="toby")).code == "toby_alone"
    state, _ = play(state, (ALICE, visit(2, character="toby")), (BOB, CARRIAGE_STOP), (ALICE, DONE))
    state, _ = act(state, BOB, CARRIAGE_STOP)
    state, _ = act(state, ALICE, visit(8, character="toby"))
    assert state["bids"]["8"]["token"] == "toby"


def test_it_lets_toby_outbid_a_single_carriage():
    state = with_character(new_game(2), BOB, "toby")
    state, _ = act(state, ALICE, visit(2, 1))
    state, _ = act(state, BOB, visit(2, character="toby"))
    assert state["bids"]["2"]["player"] == BOB
    state = with_character(new_game(2), BOB, "toby")
    state, _ = act(state, ALICE, visit(2, 2))
    assert refusal(state, BOB, visit(2, character="toby")).code == "bid_too_low"


# --- Mrs Hudson (see also test_watson_holmes_solving) ----------------------------------------


def test_it_refuses_mrs_hudson_away_from_221b():
    state = with_character(new_game(2), ALICE, "mrs_hudson")
    assert refusal(state, ALICE, use("mrs_hudson")).code == "not_at_baker_street"
    state, _ = act(state, ALICE, BAKER_STREET)
    state, _ = act(state, ALICE, use("mrs_hudson"))
    assert state["effects"]["hudson"] == [ALICE]


# --- Irene Adler ------------------------------------------------------------------------------


def can_write_notes(state: dict, seat: int) -> bool:
    return engine.view(state, seat)["you"]["can_write_notes"]


def test_it_lets_irene_adler_stop_everyone_else_writing_during_the_investigation():
    state = with_character(new_game(3), ALICE, "irene_adler")
    state, _ = act(state, ALICE, use("irene_adler"))
    assert can_write_notes(state, BOB)  # not yet: the visiting phase is free
    state, _ = play(state, (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, BAKER_STREET))
    assert state["phase"] == "investigation"
    assert can_write_notes(state, BOB) is False
    assert can_write_notes(state, ALICE) is True  # Irene's own player
    assert can_write_notes(state, CHARLIE) is True  # 221B is not affected
    state, _ = play(state, (ALICE, DONE), (BOB, DONE))
    state, _ = act(state, CHARLIE, {"type": "answer", "answers": {"culprit": "a", "place": "b"}})
    assert state["phase"] == "investigation"  # judging charlie
    assert can_write_notes(state, BOB) is False
    state, _ = judge(state, CHARLIE, "wrong", "wrong")
    assert state["phase"] == "visiting" and state["round"] == 2
    assert all(can_write_notes(state, seat) for seat in (ALICE, BOB, CHARLIE))


def test_it_only_reveals_irene_adler_during_a_visiting_phase():
    state = with_character(new_game(2), ALICE, "irene_adler")
    state, _ = play(state, (ALICE, visit(2)), (BOB, visit(8)))
    assert refusal(state, ALICE, use("irene_adler")).code == "wrong_phase"


# --- Wiggins ----------------------------------------------------------------------------------


def test_it_lets_wiggins_copy_a_character_another_player_revealed():
    state = with_character(with_character(new_game(4), ALICE, "lestrade"), BOB, "wiggins")
    state = with_tokens(state, BOB, police=0)
    assert refusal(state, BOB, use("lestrade")).code == "character_not_revealed"
    state, _ = act(state, ALICE, use("lestrade"))
    state, events = act(state, BOB, use("lestrade"))
    assert events[0].data == {"player": BOB, "character": "wiggins", "acts_as": "lestrade"}
    assert (state["players"][BOB]["police"], state["players"][BOB]["call_off"]) == (1, 1)
    assert refusal(state, BOB, use("lestrade")).code == "character_used"


def test_it_refuses_wiggins_named_for_itself():
    # Wiggins has no action of its own: naming it would only reveal and waste the card.
    state = with_character(new_game(4), BOB, "wiggins")
    found = refusal(state, BOB, use("wiggins"))
    assert found.code == "wiggins_copies"
    assert state["players"][BOB]["character_state"] == "hidden"


def test_it_lets_wiggins_copy_toby_with_its_own_token():
    state = with_character(with_character(new_game(4), ALICE, "toby"), BOB, "wiggins")
    state, _ = play(state, (ALICE, visit(2, character="toby")), (BOB, visit(8, character="toby")))
    assert state["bids"]["8"]["token"] == "wiggins"


def test_it_has_the_original_mrs_hudson_judged_before_wiggins_copy():
    state = with_character(with_character(new_game(4), ALICE, "mrs_hudson"), DAVE, "wiggins")
    state, _ = play(
        state,
        (ALICE, BAKER_STREET),
        (BOB, CARRIAGE_STOP),
        (CHARLIE, CARRIAGE_STOP),
        (DAVE, BAKER_STREET),
    )
    state, _ = play(state, (ALICE, use("mrs_hudson")), (DAVE, use("mrs_hudson")))
    assert state["effects"]["hudson"] == [ALICE, DAVE]


# --- Mycroft Holmes ---------------------------------------------------------------------------


def test_it_lets_mycroft_read_one_more_card_nobody_visits():
    state = with_character(new_game(2), ALICE, "mycroft")
    state, _ = act(state, ALICE, use("mycroft"))
    state, _ = play(state, (ALICE, visit(2)), (BOB, visit(8)))
    read = {"type": "mycroft_read", "location": 8}
    assert refusal(state, ALICE, read).code == "not_readable"
    assert refusal(state, ALICE, {"type": "mycroft_read", "location": 5}).code == "not_readable"
    state, events = act(state, ALICE, {"type": "mycroft_read", "location": 3})
    texts = [e.data["text"] for e in events if e.type == "card_read"]
    assert texts == [card_text(3)]
    assert state["players"][ALICE]["lockpick"] == 0, "an extra card gives no token"
    assert refusal(state, ALICE, {"type": "mycroft_read", "location": 4}).code == "no_mycroft"
    assert card_text(3) not in str(engine.view(state, BOB))


def test_it_waits_for_a_mycroft_player_at_the_carriage_stop():
    state = with_character(new_game(2), ALICE, "mycroft")
    state, _ = act(state, ALICE, use("mycroft"))
    state, _ = play(state, (ALICE, CARRIAGE_STOP), (BOB, CARRIAGE_STOP))
    assert state["phase"] == "investigation"
    state, _ = act(state, ALICE, {"type": "mycroft_read", "location": 2})
    state, _ = act(state, ALICE, DONE)
    assert state["round"] == 2


@pytest.mark.parametrize("number", [1, 3, 4])
def test_it_gives_no_token_for_the_icons_of_mycrofts_extra_card(number):
    # Scotland Yard (police, call-off), the Pawnbroker (lockpick), the Cab Office (carriages).
    state = with_tokens(with_character(new_game(2), ALICE, "mycroft"), ALICE, police=0)
    state, _ = act(state, ALICE, use("mycroft"))
    state, _ = play(state, (ALICE, CARRIAGE_STOP), (BOB, visit(2)))
    before = dict(state["stock"])
    state, events = act(state, ALICE, {"type": "mycroft_read", "location": number})
    assert state["stock"] == before
    assert "tokens_gained" not in [event.type for event in events]


def test_it_moves_nobody_to_the_zone_of_mycrofts_extra_card():
    zones = {"start": "city", "travel_cost": 2, "names": {"city": "London", "country": "Surrey"}}
    case = make_case(zones=zones, zone_of={8: "country"})
    state = with_character(new_game(2, case=case), ALICE, "mycroft")
    state, _ = act(state, ALICE, use("mycroft"))
    state, _ = play(state, (ALICE, CARRIAGE_STOP), (BOB, visit(2)))
    state, _ = act(state, ALICE, {"type": "mycroft_read", "location": 8})
    assert state["players"][ALICE]["zone"] == "city"


def test_it_refuses_police_on_mycrofts_extra_card():
    state = with_character(new_game(2), ALICE, "mycroft")
    state, _ = act(state, ALICE, use("mycroft"))
    state, _ = play(state, (ALICE, visit(2)), (BOB, visit(8)))
    state, _ = act(state, ALICE, {"type": "mycroft_read", "location": 3})
    found = refusal(state, ALICE, {"type": "place_police", "location": 3})
    assert found.code == "not_your_card"
    listed = [a for a in engine.legal_actions(state, ALICE) if a["type"] == "place_police"]
    assert listed == [{"type": "place_police", "location": 2}]


# --- Inspector Lestrade ------------------------------------------------------------------------


def test_it_lets_lestrade_take_a_police_and_a_call_off_within_the_limits():
    state = with_character(new_game(2), ALICE, "lestrade")
    state, _ = act(state, ALICE, use("lestrade"))
    assert (state["players"][ALICE]["police"], state["players"][ALICE]["call_off"]) == (1, 1)
    assert state["stock"]["police"] == 4 and state["stock"]["call_off"] == 5


# --- Mary Morstan -----------------------------------------------------------------------------


def test_it_lets_mary_morstan_join_a_held_location_and_both_read_it():
    state = with_character(new_game(2), BOB, "mary_morstan")
    state, _ = act(state, ALICE, visit(2, 5))
    assert refusal(state, BOB, visit(8, character="mary_morstan")).code == "nobody_there"
    state, events = act(state, BOB, visit(2, character="mary_morstan"))
    assert state["bids"]["2"]["player"] == ALICE, "the holder keeps it"
    assert state["bids"]["2"]["guests"] == [BOB]
    assert state["players"][BOB]["carriages"] == 10
    readers = {e.audience for e in events if e.type == "card_read"}
    assert readers == {(ALICE,), (BOB,)}


# --- Billy the page -----------------------------------------------------------------------------


def test_it_lets_billy_visit_under_police_or_locked_without_tokens_all_round():
    state = with_character(new_game(3), ALICE, "billy")
    state = with_police_on(state, 2)
    assert refusal(state, ALICE, visit(8, character="billy")).code == "billy_not_needed"
    state, _ = act(state, ALICE, visit(2, 1, character="billy"))
    assert refusal(state, BOB, visit(2, 2)).code == "under_police"
    state = with_tokens(state, BOB, lockpick=1)
    state, _ = play(state, (BOB, visit(2, 2)), (CHARLIE, CARRIAGE_STOP))
    # Outbid, alice still enjoys Billy this round: the locked Strongroom is open to her.
    state, _ = act(state, ALICE, visit(7))
    assert state["readings"] == [["7"], ["2"], []]
    assert state["players"][BOB]["lockpick"] == 0, "bob's lockpick is spent"
    assert state["stock"]["lockpick"] == 2


def test_it_lists_a_call_off_with_billy_on_a_locked_card_under_police():
    # Billy gets past the lock; the call-off also frees the card for everyone.
    state = with_police_on(with_character(new_game(2), ALICE, "billy"), 7)
    state = with_tokens(state, ALICE, call_off=1)
    both = {"type": "visit", "location": 7, "carriages": 0, "call_off": True, "character": "billy"}
    assert both in engine.legal_actions(state, ALICE)
    state, _ = act(state, ALICE, both)
    assert state["police"] == [] and state["players"][ALICE]["call_off"] == 0
