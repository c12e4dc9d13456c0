"""221B Baker Street: writing answers, the solving order, verdicts, elimination, the end."""

from games.base import SYSTEM
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
    answers,
    event_types,
    judge,
    judged,
    new_game,
    play,
    refusal,
    requests_for,
    visit,
    with_character,
    with_tokens,
)


def at_221b(state, *seats, others=CARRIAGE_STOP):
    """Play a visiting phase sending ``seats`` to 221B and the rest to ``others``; all answer."""
    for _ in range(len(state["players"])):
        turn = state["turn"]
        if turn is None:
            break
        state, _ = act(state, turn, BAKER_STREET if turn in seats else others)
    for seat in seats:
        state, _ = act(state, seat, answers(f"answer of {seat}"))
    return state


def test_it_asks_the_server_to_judge_written_answers():
    state = at_221b(new_game(2), ALICE)
    [pending] = engine.pending_judgement(state)
    assert pending["player"] == ALICE and pending["kind"] == "solve"
    assert pending["answers"] == {"culprit": "answer of 0", "place": "the vault"}
    assert pending["action"]["type"] == "judged"
    assert set(pending["action"]["verdicts"]) == {"culprit", "place"}


def test_it_waits_for_every_answer_before_judging():
    state = new_game(2)
    state, _ = play(state, (ALICE, BAKER_STREET), (BOB, BAKER_STREET))
    state, _ = act(state, ALICE, answers())
    assert engine.pending_judgement(state) == []
    assert engine.view(state, None)["waiting_for"] == [BOB]


def test_it_lets_a_player_rewrite_answers_until_judging_begins():
    state = new_game(2)
    state, _ = play(state, (ALICE, BAKER_STREET), (BOB, visit(2)), (ALICE, answers("first")))
    state, _ = act(state, ALICE, answers("second"))
    state, _ = act(state, BOB, DONE)
    assert engine.pending_judgement(state)[0]["answers"]["culprit"] == "second"
    assert refusal(state, ALICE, answers("third")).code == "too_late"


def test_it_refuses_answers_missing_a_question():
    state, _ = act(new_game(2), ALICE, BAKER_STREET)
    found = refusal(state, ALICE, {"type": "answer", "answers": {"culprit": "x"}})
    assert found.code == "bad_answers" and "place" in found.message


def test_it_refuses_answers_from_a_player_elsewhere():
    state, _ = act(new_game(2), ALICE, visit(2))
    assert refusal(state, ALICE, answers()).code == "not_at_baker_street"


def test_it_declares_the_winner_whose_answers_are_all_correct():
    state = at_221b(new_game(2), ALICE)
    state, events = judge(state, ALICE, "correct", "correct")
    assert engine.is_over(state)
    assert engine.outcome(state)["winners"] == [ALICE]
    assert engine.outcome(state)["result"] == "solved"
    assert engine.view(state, BOB)["may_see_solution"] is True


def test_it_eliminates_a_wrong_player_with_the_count_of_right_answers():
    state = at_221b(new_game(3), ALICE)
    state, events = judge(state, ALICE, "correct", "wrong")
    [eliminated] = [e for e in events if e.type == "eliminated"]
    assert eliminated.data == {"player": ALICE, "correct": 1, "questions": 2}
    assert eliminated.audience == "all"
    assert state["players"][ALICE]["status"] == "eliminated"
    assert engine.view(state, BOB)["players"][ALICE]["correct"] == 1
    assert engine.view(state, ALICE)["may_see_solution"] is True
    assert engine.view(state, BOB)["may_see_solution"] is False
    assert not engine.is_over(state)


def test_it_gives_an_eliminated_player_no_more_turns():
    state = at_221b(new_game(3), ALICE)
    state, _ = judge(state, ALICE, "wrong", "wrong")
    # charlie placed last and starts; alice, next clockwise, is skipped.
    assert state["turn"] == CHARLIE
    state, _ = act(state, CHARLIE, CARRIAGE_STOP)
    assert state["turn"] == BOB
    assert engine.legal_actions(state, ALICE) == []
    assert refusal(state, ALICE, CARRIAGE_STOP).code == "not_playing"


def test_it_judges_the_player_holding_most_carriages_first():
    state = with_tokens(new_game(3), BOB, carriages=12)
    state = at_221b(state, ALICE, BOB, CHARLIE)
    assert list(requests_for(state)) == [BOB]
    state, _ = judge(state, BOB, "wrong", "wrong")
    # After a failure, those still waiting confirm (or rewrite) their answers first.
    state, _ = play(state, (ALICE, answers("answer of 0")), (CHARLIE, answers("answer of 2")))
    assert sorted(requests_for(state)) == [ALICE, CHARLIE], "equal counts are judged together"


def test_it_declares_several_winners_judged_together():
    state = at_221b(new_game(3), ALICE, BOB)
    state, _ = judge(state, ALICE, "correct", "correct")
    assert not engine.is_over(state), "bob's verdict is still to come"
    state, _ = judge(state, BOB, "correct", "correct")
    assert engine.outcome(state)["winners"] == [ALICE, BOB]
    assert engine.outcome(state)["places"] == {"0": 1, "1": 1}


def test_it_stops_judging_once_someone_has_won():
    state = with_tokens(new_game(3), BOB, carriages=12)
    state = at_221b(state, ALICE, BOB)
    state, _ = judge(state, BOB, "correct", "correct")
    assert engine.is_over(state)
    assert state["players"][ALICE]["status"] == "playing"


def test_it_plays_on_for_second_places_when_the_table_wants():
    state = with_tokens(new_game(3, play_on=True), BOB, carriages=12)
    state = at_221b(state, ALICE, BOB)
    state, _ = judge(state, BOB, "correct", "correct")
    assert not engine.is_over(state)
    state, _ = judge(state, ALICE, "correct", "correct")
    assert state["players"][ALICE]["place"] == 2
    state = at_221b(state, CHARLIE)
    state, _ = judge(state, CHARLIE, "wrong", "correct")
    assert engine.outcome(state)["places"] == {"0": 2, "1": 1}
    assert engine.outcome(state)["result"] == "solved"


def test_it_makes_everyone_lose_when_everyone_is_eliminated():
    state = at_221b(new_game(2), ALICE, BOB)
    state, _ = judge(state, ALICE, "wrong", "wrong")
    state, events = judge(state, BOB, "correct", "wrong")
    assert engine.outcome(state)["result"] == "everyone_lost"
    assert engine.outcome(state)["winners"] == []
    assert "game_over" in event_types(events)


def test_it_gives_the_last_player_min_carriages_4_more_rounds_then_forces_221b():
    state = at_221b(new_game(2), ALICE)
    state, events = judge(state, ALICE, "wrong", "wrong")
    assert [e.data for e in events if e.type == "last_player"] == [{"player": BOB, "rounds": 4}]
    for _ in range(4):
        state, _ = act(state, BOB, CARRIAGE_STOP)
    assert refusal(state, BOB, CARRIAGE_STOP).code == "must_solve"
    assert [
        a["type"]
        for a in engine.legal_actions(state, BOB)
        if a["type"] in ("visit", "carriage_stop")
    ] == []
    state, _ = play(state, (BOB, BAKER_STREET), (BOB, answers()))
    state, _ = judge(state, BOB, "correct", "wrong")
    assert engine.outcome(state)["result"] == "everyone_lost"


def test_it_counts_the_last_players_rounds_from_their_carriages():
    state = with_tokens(new_game(2), BOB, carriages=2)
    state = at_221b(state, ALICE, others=visit(2))
    state, _ = act(state, BOB, DONE)
    state, events = judge(state, ALICE, "wrong", "wrong")
    assert state["last_player"] == {"seat": BOB, "rounds_left": 2}


def test_it_lets_the_last_player_win():
    state = at_221b(new_game(2), ALICE)
    state, _ = judge(state, ALICE, "wrong", "wrong")
    state = at_221b(state, BOB)
    state, _ = judge(state, BOB, "correct", "correct")
    assert engine.outcome(state)["winners"] == [BOB]


def test_it_plays_solo_until_221b_and_scores_rounds_and_carriages():
    state = new_game(1)
    state, _ = act(state, ALICE, CARRIAGE_STOP)
    assert state["round"] == 2 and state["players"][ALICE]["carriages"] == 13
    state = at_221b(state, ALICE)
    state, _ = judge(state, ALICE, "correct", "correct")
    outcome = engine.outcome(state)
    assert (outcome["winners"], outcome["rounds"], outcome["carriages"]) == ([ALICE], 2, [13])


def test_it_makes_a_wrong_solo_player_lose():
    state = at_221b(new_game(1), ALICE)
    state, _ = judge(state, ALICE, "wrong", "correct")
    assert engine.outcome(state)["result"] == "everyone_lost"


def test_it_passes_the_diary_on_when_its_holder_is_eliminated():
    state = new_game(3)
    state, _ = play(state, (ALICE, CARRIAGE_STOP), (BOB, CARRIAGE_STOP), (CHARLIE, BAKER_STREET))
    state, _ = act(state, CHARLIE, answers())
    state, _ = judge(state, CHARLIE, "wrong", "wrong")
    assert state["diary"] == ALICE and state["turn"] == ALICE


def test_it_refuses_verdicts_from_a_player_and_malformed_verdicts():
    state = at_221b(new_game(2), ALICE)
    request = requests_for(state)[ALICE]
    assert refusal(state, BOB, judged(request, "correct", "correct")).code == "system_only"
    bad = {"type": "judged", "request": request, "verdicts": {"culprit": "correct"}}
    assert refusal(state, SYSTEM, bad).code == "bad_verdicts"
    bad = judged(request, "correct", "maybe")
    assert refusal(state, SYSTEM, bad).code == "bad_verdicts"
    assert refusal(state, SYSTEM, judged(999, "correct", "correct")).code == "unknown_request"


def test_it_judges_toby_at_221b_as_two_more_carriages():
    state = with_character(new_game(3), CHARLIE, "toby")
    state = with_tokens(state, ALICE, carriages=11)
    state, _ = play(state, (ALICE, BAKER_STREET), (BOB, CARRIAGE_STOP))
    state, _ = act(state, CHARLIE, {"type": "baker_street", "character": "toby"})
    state, _ = play(state, (ALICE, answers()), (CHARLIE, answers()))
    assert list(requests_for(state)) == [CHARLIE]


def test_it_lets_mrs_hudson_jump_the_rest_of_the_queue():
    state = with_character(new_game(4), DAVE, "mrs_hudson")
    state = with_tokens(state, DAVE, carriages=1)
    state = with_tokens(state, ALICE, carriages=12)
    state = at_221b(state, ALICE, BOB, DAVE)
    assert list(requests_for(state)) == [ALICE]
    state, _ = act(state, DAVE, {"type": "character", "character": "mrs_hudson"})
    state, _ = judge(state, ALICE, "wrong", "wrong")
    state, _ = play(state, (BOB, answers("answer of 1")), (DAVE, answers("answer of 3")))
    assert list(requests_for(state)) == [DAVE], "dave goes before bob's 10 carriages"
    assert refusal(state, DAVE, {"type": "character", "character": "mrs_hudson"}).code in (
        "character_used",
        "too_late",
    )


def test_it_puts_mrs_hudson_first_when_used_before_judging():
    state = with_character(new_game(4), DAVE, "mrs_hudson")
    state = with_tokens(state, DAVE, carriages=1)
    state, _ = play(
        state,
        (ALICE, BAKER_STREET),
        (BOB, visit(2)),
        (CHARLIE, CARRIAGE_STOP),
        (DAVE, BAKER_STREET),
    )
    state, _ = act(state, DAVE, {"type": "character", "character": "mrs_hudson"})
    state, _ = play(state, (ALICE, answers()), (DAVE, answers()), (BOB, DONE))
    assert list(requests_for(state)) == [DAVE]
