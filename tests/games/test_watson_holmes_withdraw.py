"""A person leaves the case game: play passes their seat by (rules/withdraw.py)."""

import json

from games.base import SYSTEM, Refusal
from games.watson_holmes import rules as engine
from games.watson_holmes.rules.state import TOKEN_TOTALS
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CHARLIE,
    DONE,
    act,
    answers,
    event_types,
    judge,
    new_game,
    play,
    refusal,
    requests_for,
    token_totals,
    visit,
    with_character,
)


def withdraw(state: dict, seat: int) -> tuple[dict, list]:
    """Withdraw ``seat``, which must be allowed; checks the input state was not touched."""
    before = json.dumps(state, sort_keys=True)
    result = engine.withdraw(state, seat)
    assert not isinstance(result, Refusal), f"refused: {result}"
    assert json.dumps(state, sort_keys=True) == before, "withdraw changed its input state"
    new, _ = result
    assert token_totals(new) == TOKEN_TOTALS, "tokens were lost or made"
    assert engine.legal_actions(new, seat) == []
    assert seat not in engine.waiting_for(new) and engine.turn(new) != seat
    return result


# --- visiting ---------------------------------------------------------------------------


def test_the_turn_passes_on_when_the_player_on_turn_leaves():
    state, events = withdraw(new_game(3), ALICE)
    assert state["turn"] == BOB and engine.waiting_for(state) == [BOB]
    assert state["players"][ALICE]["status"] == "withdrawn"
    assert "withdrew" in event_types(events)
    # Bob and Charlie place their pawns; the round goes on without Alice.
    state, _ = play(state, (BOB, visit(2)), (CHARLIE, visit(8)))
    assert state["phase"] == "investigation" and state["pawns"][ALICE] is None


def test_the_seat_is_skipped_in_every_later_round():
    state, _ = withdraw(new_game(3), BOB)
    state, _ = play(state, (ALICE, visit(2)), (CHARLIE, visit(8)), (ALICE, DONE), (CHARLIE, DONE))
    assert state["round"] == 2
    seen = []
    while state["round"] == 2:
        seen.append(state["turn"])
        state, _ = act(state, state["turn"], {"type": "carriage_stop"})
    assert sorted(seen) == [ALICE, CHARLIE]


def test_the_stake_of_a_leaver_goes_to_the_stock_and_frees_the_card():
    state, _ = play(new_game(3), (ALICE, visit(2, carriages=1)))
    stock = state["stock"]["carriages"]
    held = state["players"][ALICE]["carriages"]
    state, events = withdraw(state, ALICE)
    assert "2" not in state["bids"] and state["pawns"][ALICE] is None
    assert state["stock"]["carriages"] == stock + held + 1
    assert state["players"][ALICE]["carriages"] == 0
    assert "tokens_returned" in event_types(events)
    # The card is free: Bob may go there on foot.
    state, _ = act(state, BOB, visit(2))


def test_a_mary_morstan_guest_keeps_the_card_when_its_holder_leaves():
    state = with_character(new_game(3), BOB, "mary_morstan")
    state, _ = play(state, (ALICE, visit(2)), (BOB, visit(2, character="mary_morstan")))
    state, _ = withdraw(state, ALICE)
    assert state["bids"]["2"]["player"] == BOB and state["bids"]["2"]["guests"] == []


def test_watson_is_free_again_when_its_holder_leaves_while_visiting():
    state, _ = play(new_game(3), (ALICE, {"type": "take_watson"}), (ALICE, visit(2)))
    state, _ = withdraw(state, ALICE)
    assert state["watson"]["holder"] is None
    act(state, BOB, {"type": "take_watson"})


def test_the_last_to_place_leaving_ends_the_visiting_phase():
    state, _ = play(new_game(3), (ALICE, visit(2)), (BOB, visit(8)))
    state, events = withdraw(state, CHARLIE)
    assert "visiting_ended" in event_types(events)
    assert state["phase"] == "investigation" and state["diary"] in (ALICE, BOB)


# --- investigation ----------------------------------------------------------------------


def test_watson_goes_unused_when_its_holder_leaves_before_choosing():
    state, _ = play(
        new_game(3),
        (ALICE, {"type": "take_watson"}),
        (ALICE, visit(2)),
        (BOB, visit(8)),
        (CHARLIE, visit(5)),
    )
    assert state["step"] == "watson"
    state, events = withdraw(state, ALICE)
    assert "watson_unused" in event_types(events)
    assert state["step"] == "reading" and state["readings"][ALICE] == []


def test_a_reader_who_leaves_is_no_longer_awaited():
    state, _ = play(new_game(3), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, visit(5)))
    assert engine.waiting_for(state) == [ALICE, BOB, CHARLIE]
    state, _ = withdraw(state, BOB)
    assert engine.waiting_for(state) == [ALICE, CHARLIE]
    state, _ = play(state, (ALICE, DONE), (CHARLIE, DONE))
    assert state["round"] == 2 and state["phase"] == "visiting"


def test_a_player_at_221b_who_owes_answers_leaves_and_is_never_judged():
    state, _ = play(new_game(3), (ALICE, visit(2)), (BOB, BAKER_STREET), (CHARLIE, visit(8)))
    assert BOB in engine.waiting_for(state)
    state, _ = withdraw(state, BOB)
    state, _ = play(state, (ALICE, DONE), (CHARLIE, DONE))
    assert engine.pending_judgement(state) == []
    assert state["players"][BOB]["attempt"] is None and state["round"] == 2


def test_the_carriage_stop_pays_nobody_who_left():
    state, _ = play(
        new_game(3), (ALICE, visit(2)), (BOB, {"type": "carriage_stop"}), (CHARLIE, visit(8))
    )
    state, events = withdraw(state, BOB)
    state, events = play(state, (ALICE, DONE), (CHARLIE, DONE))
    assert state["players"][BOB]["carriages"] == 0
    assert all(event.data.get("player") != BOB for event in events)


# --- solving ----------------------------------------------------------------------------


def _two_at_baker_street():
    state, _ = play(
        new_game(3),
        (ALICE, BAKER_STREET),
        (BOB, BAKER_STREET),
        (CHARLIE, visit(8)),
        (ALICE, answers()),
        (BOB, answers()),
        (CHARLIE, DONE),
    )
    return state


def test_a_player_being_judged_who_leaves_takes_their_attempt_with_them():
    state = _two_at_baker_street()
    assert set(requests_for(state)) == {ALICE, BOB}  # equal carriages: judged together
    state, _ = withdraw(state, ALICE)
    assert set(requests_for(state)) == {BOB}
    state, events = judge(state, BOB, "correct", "correct")
    assert state["phase"] == "over" and state["result"]["winners"] == [BOB]


def test_a_player_awaited_after_a_failure_who_leaves_lets_the_judging_go_on():
    state, _ = play(new_game(3), (ALICE, BAKER_STREET), (BOB, BAKER_STREET), (CHARLIE, visit(8)))
    # One carriage more than Bob: Alice is judged first, alone.
    state["players"][ALICE]["carriages"] += 1
    state["stock"]["carriages"] -= 1
    state, _ = play(state, (ALICE, answers()), (BOB, answers()), (CHARLIE, DONE))
    assert set(requests_for(state)) == {ALICE}
    state, _ = judge(state, ALICE, "wrong", "wrong")
    assert engine.waiting_for(state) == [BOB]  # Bob may rewrite after Alice's failure
    state, _ = withdraw(state, BOB)
    # Nobody is left at 221B: the round ends, and Charlie plays on alone.
    assert state["round"] == 2 and state["turn"] == CHARLIE


# --- the end, rulings, refusals ---------------------------------------------------------


def test_the_game_ends_with_no_winner_when_everyone_has_left():
    state, _ = withdraw(new_game(2), ALICE)
    state, events = withdraw(state, BOB)
    assert engine.is_over(state)
    assert engine.outcome(state)["winners"] == []
    assert "game_over" in event_types(events)


def test_a_solo_player_who_leaves_ends_the_game():
    state, _ = withdraw(new_game(1), ALICE)
    assert engine.is_over(state) and engine.outcome(state)["winners"] == []


def test_an_unsure_check_nobody_can_rule_on_counts_as_wrong():
    state = _two_at_baker_street()
    state, _ = judge(state, ALICE, "wrong", "wrong")
    state, _ = judge(state, BOB, "wrong", "wrong")
    # Round 2: Charlie plays on; Alice and Bob are Sherlock's voices.
    state, _ = act(state, CHARLIE, {"type": "holmes_check", "question": "culprit", "answer": "x"})
    [pending] = engine.pending_judgement(state)
    state, _ = act(state, SYSTEM, {**pending["action"], "verdicts": {"culprit": "unsure"}})
    assert engine.waiting_for(state) == [ALICE, BOB, CHARLIE]
    state, _ = withdraw(state, ALICE)
    assert refusal(state, ALICE, {"type": "rule", "request": 1, "verdict": "wrong"})
    state, events = withdraw(state, BOB)
    assert "holmes_check_answered" in event_types(events)
    assert state["players"][CHARLIE]["holmes"]["check"]["verdict"] == "wrong"
    assert engine.waiting_for(state) == [CHARLIE]


def test_leaving_twice_or_after_the_end_is_refused():
    state, _ = withdraw(new_game(3), ALICE)
    assert engine.withdraw(state, ALICE).code == "already_left"
    assert engine.withdraw(state, 9).code == "unknown_player"
    over, _ = withdraw(state, BOB)
    over, _ = withdraw(over, CHARLIE)
    assert engine.withdraw(over, CHARLIE).code == "game_over"


def test_the_leaver_keeps_their_own_past_and_the_others_see_only_that_they_left():
    state, _ = play(new_game(3), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, visit(5)))
    state, _ = withdraw(state, ALICE)
    own = engine.view(state, ALICE)
    assert own["you"]["reading"][0]["number"] == 2  # what Alice read stays hers
    other = json.dumps(engine.view(state, BOB))
    assert own["you"]["reading"][0]["text"] not in other
    assert engine.view(state, BOB)["players"][ALICE]["left"] is True
    assert engine.view(state, None)["players"][ALICE]["status"] == "withdrawn"
