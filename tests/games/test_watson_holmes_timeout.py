"""The server's turn timer: every wait ends."""

from games.base import SYSTEM
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CHARLIE,
    act,
    answers,
    judge,
    new_game,
    play,
    refusal,
    visit,
)

TIMEOUT = {"type": "timeout"}


def test_it_sends_a_player_who_runs_out_of_time_to_the_carriage_stop():
    state, _ = act(new_game(2), SYSTEM, TIMEOUT)
    assert state["pawns"][ALICE] == "carriage_stop" and state["turn"] == BOB


def test_it_skips_watson_when_its_holder_runs_out_of_time():
    state, _ = play(
        new_game(2), (ALICE, {"type": "take_watson"}), (ALICE, visit(2)), (BOB, visit(8))
    )
    assert state["step"] == "watson"
    state, _ = act(state, SYSTEM, TIMEOUT)
    assert state["step"] == "reading" and state["watson"]["read"] is None


def test_it_ends_the_reading_without_judging_a_player_at_221b_who_wrote_nothing():
    state, _ = play(new_game(3), (ALICE, visit(2)), (BOB, BAKER_STREET), (CHARLIE, visit(8)))
    state, events = act(state, SYSTEM, TIMEOUT)
    assert engine.pending_judgement(state) == []
    assert {"type": "not_judged", "player": BOB} in [
        {"type": event.type, **event.data} for event in events
    ]
    # Nobody is left to judge: the next round begins, Bob still in the race.
    assert state["round"] == 2 and state["phase"] == "visiting"
    assert state["players"][BOB]["status"] == "playing" and state["players"][BOB]["attempt"] is None


def test_it_judges_at_a_timeout_only_the_answers_written_at_221b():
    state, _ = play(new_game(3), (ALICE, BAKER_STREET), (BOB, BAKER_STREET), (CHARLIE, visit(8)))
    state, _ = act(state, ALICE, answers())
    state, _ = act(state, SYSTEM, TIMEOUT)
    [pending] = engine.pending_judgement(state)
    assert pending["player"] == ALICE and pending["answers"] == answers()["answers"]
    assert state["solving"]["queue"] == []
    # Bob wrote nothing: too late now, and he is not judged.
    late = refusal(state, BOB, answers())
    assert late.code == "too_late" and "not judged" in late.message
    state, _ = judge(state, ALICE, "correct", "wrong")
    assert state["players"][BOB]["status"] == "playing" and state["round"] == 2


def test_it_refuses_a_timeout_while_only_the_server_is_awaited():
    state, _ = play(new_game(2), (ALICE, BAKER_STREET), (BOB, BAKER_STREET))
    state, _ = play(state, (ALICE, answers()), (BOB, answers("John Doe", "the attic")))
    assert refusal(state, SYSTEM, TIMEOUT).code == "nothing_to_time_out"
    assert refusal(state, ALICE, TIMEOUT).code == "system_only"
