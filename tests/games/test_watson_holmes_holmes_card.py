"""The Holmes card: answer consultation and answer check, once each per player."""

from games.base import SYSTEM
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CARRIAGE_STOP,
    CHARLIE,
    act,
    answers,
    judge,
    new_game,
    play,
    refusal,
    requests_for,
    with_tokens,
)

CONSULT_ALICE = {"type": "holmes_consult", "target": ALICE}
CHECK = {"type": "holmes_check", "question": "culprit", "answer": "Jane Roe"}


def after_alice_is_eliminated(players=3):
    """alice tried 221B with one answer right and was eliminated; round 2 starts."""
    state = new_game(players)
    moves = [(ALICE, BAKER_STREET)] + [(seat, CARRIAGE_STOP) for seat in range(1, players)]
    state, _ = play(state, *moves, (ALICE, answers("John Doe", "the attic")))
    request = requests_for(state)[ALICE]
    verdicts = {"culprit": "wrong", "place": "correct"}
    state, _ = act(state, SYSTEM, {"type": "judged", "request": request, "verdicts": verdicts})
    return state


def test_it_keeps_the_holmes_card_until_someone_is_eliminated():
    found = refusal(new_game(3), BOB, CONSULT_ALICE)
    assert found.code == "holmes_unavailable"
    assert engine.view(new_game(3), BOB)["holmes_available"] is False
    assert engine.view(after_alice_is_eliminated(), BOB)["holmes_available"] is True


def test_it_shows_a_consultation_only_to_the_player_who_paid_for_it():
    state = after_alice_is_eliminated()
    assert "John Doe" not in str(engine.view(state, BOB))
    state, events = act(state, BOB, CONSULT_ALICE)
    assert state["players"][BOB]["carriages"] == 13 - 3
    result = engine.view(state, BOB)["you"]["holmes"]["consult"]
    assert result == {
        "target": ALICE,
        "answers": {"culprit": "John Doe", "place": "the attic"},
        "correct": 1,
    }
    assert "John Doe" not in str(engine.view(state, CHARLIE))
    assert [e.audience for e in events if e.type == "consultation"] == [(BOB,)]


def test_it_allows_each_holmes_action_once_per_player():
    state, _ = act(after_alice_is_eliminated(), BOB, CONSULT_ALICE)
    assert refusal(state, BOB, CONSULT_ALICE).code == "holmes_used"
    state, _ = act(state, CHARLIE, CONSULT_ALICE)
    state, _ = act(state, BOB, CHECK)
    assert refusal(state, BOB, CHECK).code == "holmes_used"


def test_it_refuses_the_holmes_card_without_three_carriages():
    state = with_tokens(after_alice_is_eliminated(), BOB, carriages=2)
    found = refusal(state, BOB, CHECK)
    assert found.code == "not_enough_carriages"


def test_it_refuses_the_holmes_card_to_an_eliminated_player():
    assert refusal(after_alice_is_eliminated(), ALICE, CHECK).code == "not_playing"


def test_it_refuses_to_consult_a_player_still_in_the_game():
    found = refusal(after_alice_is_eliminated(), BOB, {"type": "holmes_consult", "target": CHARLIE})
    assert found.code == "not_eliminated" and "alice" in found.message


def test_it_has_an_answer_check_judged_and_tells_only_the_asker():
    state, _ = act(after_alice_is_eliminated(), BOB, CHECK)
    [pending] = engine.pending_judgement(state)
    assert pending["kind"] == "check" and pending["answers"] == {"culprit": "Jane Roe"}
    state, events = act(
        state,
        SYSTEM,
        {"type": "judged", "request": pending["request"], "verdicts": {"culprit": "correct"}},
    )
    assert engine.view(state, BOB)["you"]["holmes"]["check"]["verdict"] == "correct"
    results = [e for e in events if e.type == "check_result"]
    assert results[0].audience == (BOB,)
    assert "Jane Roe" not in str(engine.view(state, CHARLIE))


def test_it_lets_the_eliminated_players_rule_when_the_checker_is_unsure():
    state, _ = act(after_alice_is_eliminated(), BOB, CHECK)
    request = engine.pending_judgement(state)[0]["request"]
    state, events = act(
        state, SYSTEM, {"type": "judged", "request": request, "verdicts": {"culprit": "unsure"}}
    )
    assert engine.pending_judgement(state) == []
    [ruling] = engine.view(state, ALICE)["you"]["rulings"]
    assert ruling["answer"] == "Jane Roe"
    assert engine.view(state, CHARLIE)["you"]["rulings"] == []
    rule = {"type": "rule", "request": request, "verdict": "wrong"}
    assert refusal(state, CHARLIE, rule).code == "not_eliminated"
    state, _ = act(state, ALICE, rule)
    assert state["players"][BOB]["holmes"]["check"]["verdict"] == "wrong"


def test_it_lets_a_player_waiting_at_221b_use_holmes_and_change_the_order():
    state = after_alice_is_eliminated()
    state = with_tokens(state, BOB, carriages=12)
    state = with_tokens(state, CHARLIE, carriages=11)
    # bob went last, so he holds the Diary; both go to 221B.
    state, _ = play(state, (CHARLIE, BAKER_STREET), (BOB, BAKER_STREET))
    state, _ = act(state, BOB, CONSULT_ALICE)
    state, _ = play(state, (BOB, answers()), (CHARLIE, answers()))
    assert list(requests_for(state)) == [CHARLIE], "bob fell to 9 carriages, behind charlie"


# --- waiting at 221B after another player failed (the rulebook's note) ------------------------


def all_three_at_221b(play_on=False):
    """alice (13 carriages), bob (11) and charlie (10) at 221B; alice is judged first."""
    state = new_game(3, play_on=play_on)
    for seat, carriages in ((ALICE, 13), (BOB, 11), (CHARLIE, 10)):
        state = with_tokens(state, seat, carriages=carriages)
    state, _ = play(state, (ALICE, BAKER_STREET), (BOB, BAKER_STREET), (CHARLIE, BAKER_STREET))
    state, _ = play(
        state,
        (ALICE, answers("Alice's guess")),
        (BOB, answers("Bob's guess")),
        (CHARLIE, answers("Charlie's guess")),
    )
    assert list(requests_for(state)) == [ALICE]
    return state


def test_it_gives_the_players_waiting_at_221b_a_moment_after_a_failure():
    state, _ = judge(all_three_at_221b(), ALICE, "wrong", "correct")
    assert engine.pending_judgement(state) == [], "nobody is called before they had their say"
    assert engine.view(state, None)["waiting_for"] == [BOB, CHARLIE]
    listed = {a["type"] for a in engine.legal_actions(state, CHARLIE)}
    assert {"answer", "holmes_consult", "holmes_check"} <= listed


def test_it_lets_a_player_waiting_at_221b_consult_then_rewrite_their_answers():
    state, _ = judge(all_three_at_221b(), ALICE, "wrong", "correct")
    state, _ = act(state, CHARLIE, CONSULT_ALICE)
    state, _ = act(state, CHARLIE, answers("Charlie's second thought"))
    state, _ = act(state, BOB, answers("Bob's guess"))
    # bob (11) is judged before charlie (7 after paying); charlie's new answers stand.
    assert list(requests_for(state)) == [BOB]
    state, _ = judge(state, BOB, "wrong", "wrong")
    state, _ = play(state, (CHARLIE, answers("Charlie's second thought")))
    [pending] = engine.pending_judgement(state)
    assert pending["player"] == CHARLIE
    assert pending["answers"]["culprit"] == "Charlie's second thought"


def test_it_counts_what_a_waiting_player_pays_in_the_order_of_the_attempts():
    state, _ = judge(all_three_at_221b(), ALICE, "wrong", "correct")
    state, _ = act(state, BOB, CONSULT_ALICE)  # bob falls from 11 to 8 carriages
    state, _ = play(state, (BOB, answers("Bob's guess")), (CHARLIE, answers("Charlie's guess")))
    assert list(requests_for(state)) == [CHARLIE], "charlie's 10 now come before bob's 8"


def test_it_refuses_to_rewrite_answers_once_the_players_group_is_called():
    state, _ = judge(all_three_at_221b(), ALICE, "wrong", "correct")
    state, _ = play(state, (BOB, answers("Bob's guess")), (CHARLIE, answers("Charlie's guess")))
    assert list(requests_for(state)) == [BOB]
    assert refusal(state, BOB, answers("too late")).code == "too_late"
    state, _ = act(state, CHARLIE, answers("still waiting, still allowed"))
    state, _ = judge(state, BOB, "wrong", "wrong")
    state, _ = act(state, CHARLIE, answers("still waiting, still allowed"))
    assert engine.pending_judgement(state)[0]["answers"]["culprit"] == (
        "still waiting, still allowed"
    )


def test_it_calls_the_next_group_with_the_written_answers_when_the_time_runs_out():
    state, _ = judge(all_three_at_221b(), ALICE, "wrong", "correct")
    state, _ = act(state, SYSTEM, {"type": "timeout"})
    [pending] = engine.pending_judgement(state)
    assert (pending["player"], pending["answers"]["culprit"]) == (BOB, "Bob's guess")


def test_it_calls_the_next_group_at_once_after_a_play_on_win():
    state, _ = judge(all_three_at_221b(play_on=True), ALICE, "correct", "correct")
    assert list(requests_for(state)) == [BOB], "a win teaches the others nothing"
