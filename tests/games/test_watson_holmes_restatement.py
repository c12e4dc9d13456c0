"""221B Baker Street: an unsure verdict is a question, not a loss.

When the checker is unsure of an answer in a first attempt, the player is asked to say it
more plainly; only a second unsure counts as wrong. The rest of the table waits as for a
judging; the table's timer ends the wait.
"""

from games.base import SYSTEM
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CARRIAGE_STOP,
    act,
    answers,
    event_types,
    judge,
    new_game,
    play,
    refusal,
    requests_for,
)

TIMEOUT = {"type": "timeout"}


def alice_at_221b(players: int = 2, **options) -> dict:
    """Alice alone at 221B with her answers written; the others went to the Carriage Stop."""
    state = new_game(players, **options)
    moves = [(ALICE, BAKER_STREET)] + [(seat, CARRIAGE_STOP) for seat in range(1, players)]
    state, _ = play(state, *moves)
    state, _ = act(state, ALICE, answers("Jem Latch, the lamplighter", "the crypt"))
    return state


def restate(place: str) -> dict:
    return {"type": "restate", "answers": {"place": place}}


def judge_restated(state: dict, seat: int, **verdicts: str) -> tuple[dict, list]:
    request = requests_for(state)[seat]
    return act(state, SYSTEM, {"type": "judged", "request": request, "verdicts": verdicts})


def asked_to_restate_place(players: int = 2, **options) -> dict:
    state, events = judge(alice_at_221b(players, **options), ALICE, "correct", "unsure")
    assert "restatement_asked" in event_types(events)
    return state


def test_it_asks_again_for_an_answer_judged_unsure():
    state = asked_to_restate_place()
    assert not engine.is_over(state)
    assert state["players"][ALICE]["status"] == "playing"
    restatement = engine.view(state, ALICE)["you"]["restatement"]
    [asked] = restatement["questions"]
    assert asked["id"] == "place" and asked["number"] == 2
    assert asked["prompt"] == (
        "Sherlock is not sure what you mean by your answer to question 2: "
        "give the place's name alone."
    )
    assert {"type": "restate", "answers": {"place": "?"}} in engine.legal_actions(state, ALICE)


def test_it_does_not_tell_the_player_how_near_the_first_answer_came():
    state = asked_to_restate_place()
    alice = engine.view(state, ALICE)["you"]
    # Neither the verdicts so far nor the checker's reasons are shown while she restates.
    assert alice["attempt"] is None
    assert "correct" not in str(alice["restatement"]) and "reason" not in alice["restatement"]


def test_it_waits_for_the_restating_player_as_for_a_judging():
    state = asked_to_restate_place(2)
    assert engine.waiting_for(state) == [ALICE]
    assert engine.pending_judgement(state) == []
    bob = engine.view(state, BOB)
    assert bob["you"]["restatement"] is None
    assert "the crypt" not in str(bob) and "Latch" not in str(bob)


def test_it_wins_with_a_correct_restatement():
    state = asked_to_restate_place()
    state, events = act(state, ALICE, restate("St Peter's crypt"))
    assert event_types(events) == ["answers_restated", "your_restatement"]
    [pending] = engine.pending_judgement(state)
    # Only the restated answer is judged again.
    assert pending["kind"] == "restate" and pending["answers"] == {"place": "St Peter's crypt"}
    state, events = act(
        state,
        SYSTEM,
        {"type": "judged", "request": pending["request"], "verdicts": {"place": "correct"}},
    )
    assert engine.is_over(state) and state["result"]["winners"] == [ALICE]
    [attempt] = engine.view(state, BOB)["attempts"]
    place = attempt["answers"][1]
    assert place["answer"] == "St Peter's crypt" and place["first_answer"] == "the crypt"
    assert place["verdict"] == "correct"


def test_it_counts_a_second_unsure_as_wrong():
    state = asked_to_restate_place()
    state, _ = act(state, ALICE, restate("somewhere under the church"))
    request = requests_for(state)[ALICE]
    state, events = act(
        state,
        SYSTEM,
        {
            "type": "judged",
            "request": request,
            "verdicts": {"place": "unsure"},
            "reasons": {"place": "The answer is there among other words."},
        },
    )
    assert "eliminated" in event_types(events)
    attempt = engine.view(state, ALICE)["you"]["attempt"]
    assert attempt["verdicts"] == {"culprit": "correct", "place": "wrong"}
    assert attempt["reasons"]["place"] == (
        "Still not plain after restating, so it counts as wrong. "
        "The answer is there among other words."
    )
    assert attempt["correct"] == 1


def test_it_asks_about_every_unsure_answer_at_once_and_only_once():
    state = alice_at_221b()
    state, _ = judge(state, ALICE, "unsure", "unsure")
    asked = engine.view(state, ALICE)["you"]["restatement"]["questions"]
    assert [q["id"] for q in asked] == ["culprit", "place"]
    state, _ = act(
        state, ALICE, {"type": "restate", "answers": {"culprit": "Jeremiah Latch", "place": "x"}}
    )
    state, _ = judge_restated(state, ALICE, culprit="correct", place="unsure")
    assert state["players"][ALICE]["status"] == "eliminated"
    assert engine.view(state, ALICE)["you"]["restatement"] is None


def test_it_ends_the_wait_for_a_restatement_when_the_timer_runs_out():
    state = asked_to_restate_place()
    state, events = act(state, SYSTEM, TIMEOUT)
    assert "eliminated" in event_types(events)
    attempt = state["players"][ALICE]["attempt"]
    assert attempt["verdicts"]["place"] == "wrong"
    assert "timer" in attempt["reasons"]["place"]


def test_it_lets_only_the_asked_questions_be_restated():
    state = asked_to_restate_place()
    found = refusal(state, ALICE, {"type": "restate", "answers": {"culprit": "Jem Latch"}})
    assert found.code == "bad_answers"
    assert found.message == "Restate exactly the answers Sherlock asked about: place."
    both = {"type": "restate", "answers": {"culprit": "Jem Latch", "place": "the crypt"}}
    assert refusal(state, ALICE, both).code == "bad_answers"


def test_it_refuses_a_restatement_nobody_asked_for():
    state = alice_at_221b()
    found = refusal(state, ALICE, restate("the crypt"))
    assert found.code == "nothing_to_restate"
    assert found.message == "Sherlock has not asked you to restate any answer."
    state = asked_to_restate_place()
    assert refusal(state, BOB, restate("the crypt")).code in ("nothing_to_restate", "not_playing")


def test_it_refuses_a_restatement_that_is_not_text_or_too_long():
    state = asked_to_restate_place()
    assert refusal(state, ALICE, restate(12)).code == "malformed_action"
    found = refusal(state, ALICE, restate("x" * 501))
    assert found.code == "too_long" and "500 characters" in found.message


def test_it_refuses_a_second_restatement():
    state = asked_to_restate_place()
    state, _ = act(state, ALICE, restate("the crypt of St Peter's"))
    assert refusal(state, ALICE, restate("the crypt again")).code == "nothing_to_restate"


def test_it_refuses_verdicts_on_questions_that_were_not_restated():
    state = asked_to_restate_place()
    state, _ = act(state, ALICE, restate("the crypt of St Peter's"))
    request = requests_for(state)[ALICE]
    both = {"culprit": "correct", "place": "correct"}
    found = refusal(state, SYSTEM, {"type": "judged", "request": request, "verdicts": both})
    assert found.code == "bad_verdicts" and "place" in found.message


def test_it_refuses_reasons_that_are_not_sentences():
    state = alice_at_221b()
    request = requests_for(state)[ALICE]
    action = {
        "type": "judged",
        "request": request,
        "verdicts": {"culprit": "correct", "place": "correct"},
        "reasons": {"culprit": 3},
    }
    assert refusal(state, SYSTEM, action).code == "bad_reasons"
    action["reasons"] = {"motive": "no such question"}
    assert refusal(state, SYSTEM, action).code == "bad_reasons"


def test_it_keeps_the_others_waiting_until_the_restated_attempt_is_judged():
    # Alice and Bob at 221B with equal carriages are judged together; Alice must restate.
    state = new_game(2)
    state, _ = play(
        state,
        (ALICE, BAKER_STREET),
        (BOB, BAKER_STREET),
        (ALICE, answers("Jem Latch", "the crypt")),
        (BOB, answers("Jane Roe", "the vault")),
    )
    assert set(requests_for(state)) == {ALICE, BOB}
    state, _ = judge(state, BOB, "correct", "correct")
    assert not engine.is_over(state), "Bob's win waits for Alice's verdicts in the same group"
    state, _ = judge(state, ALICE, "unsure", "correct")
    assert not engine.is_over(state)
    state, _ = act(state, ALICE, {"type": "restate", "answers": {"culprit": "Jeremiah Latch"}})
    state, _ = judge_restated(state, ALICE, culprit="correct")
    assert engine.is_over(state)
    assert sorted(state["result"]["winners"]) == [ALICE, BOB]


def test_it_shows_an_eliminated_player_each_verdict_and_reason_but_not_the_others():
    state = alice_at_221b(3)
    request = requests_for(state)[ALICE]
    state, _ = act(
        state,
        SYSTEM,
        {
            "type": "judged",
            "request": request,
            "verdicts": {"culprit": "correct", "place": "wrong"},
            "reasons": {"culprit": "Matches the answer.", "place": "Names another place."},
        },
    )
    alice = engine.view(state, ALICE)
    assert alice["you"]["attempt"]["reasons"] == {
        "culprit": "Matches the answer.",
        "place": "Names another place.",
    }
    for viewer in (BOB, None):
        seen = engine.view(state, viewer)
        assert seen["attempts"] is None
        assert "Names another place" not in str(seen) and "the crypt" not in str(seen)
