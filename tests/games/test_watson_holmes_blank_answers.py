"""A blank answer is never judged: every move that hands answers to Sherlock refuses one.

Giving answers at 221B, confirming or changing them while waiting after a failure, a
restatement and the Holmes card's answer check: each refuses an empty (or only spaces)
answer with a sentence naming the question, and the question's id in the refusal's
details, so that a page can show the sentence by that box. Nothing is stored, nothing paid.
"""

import pytest

from games.base import SYSTEM
from games.watson_holmes import rules as engine
from tests.games.test_watson_holmes_holmes_card import (
    after_alice_is_eliminated,
    all_three_at_221b,
)
from tests.games.test_watson_holmes_restatement import asked_to_restate_place
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
    visit,
)

BLANKS = ["", " ", "  \t\n "]


def alice_at_221b() -> dict:
    state, _ = play(new_game(2), (ALICE, BAKER_STREET), (BOB, CARRIAGE_STOP))
    return state


def waiting_after_a_failure() -> dict:
    """Alice failed at 221B; Bob and Charlie, who wrote answers, wait to confirm them."""
    state, _ = judge(all_three_at_221b(), ALICE, "wrong", "correct")
    assert engine.view(state, None)["waiting_for"] == [BOB, CHARLIE]
    return state


@pytest.mark.parametrize("blank", BLANKS, ids=repr)
def test_it_refuses_answers_with_a_blank_naming_the_question(blank):
    state = alice_at_221b()
    found = refusal(state, ALICE, answers("Jane Roe", blank))
    assert found.code == "blank_answer"
    assert found.message == (
        "Write an answer to question 2, “Where is it hidden?”, before you give your answers."
    )
    assert found.details == {"question": "place"}
    assert found.to_dict()["details"] == {"question": "place"}


def test_it_names_the_first_blank_question_of_the_case():
    found = refusal(alice_at_221b(), ALICE, answers("", ""))
    assert found.details == {"question": "culprit"}
    assert "question 1, “Who took the ledger?”" in found.message


def test_it_keeps_waiting_for_answers_never_written():
    state = alice_at_221b()
    assert refusal(state, ALICE, answers("", "the vault")).code == "blank_answer"
    assert state["answers"][ALICE] is None
    assert engine.view(state, None)["waiting_for"] == [ALICE]
    assert engine.pending_judgement(state) == []


def test_it_refuses_to_rewrite_written_answers_as_blank():
    # Bob reads a card meanwhile: the judging waits for him, and Alice may rewrite.
    state, _ = play(new_game(2), (ALICE, BAKER_STREET), (BOB, visit(2)))
    state, _ = act(state, ALICE, answers())
    found = refusal(state, ALICE, answers("Jane Roe", " "))
    assert found.code == "blank_answer" and found.message.endswith("confirm your answers.")
    assert state["answers"][ALICE] == answers()["answers"]


def test_it_refuses_to_confirm_blank_answers_while_waiting_after_a_failure():
    state = waiting_after_a_failure()
    found = refusal(state, BOB, answers("", "the attic"))
    assert found.code == "blank_answer" and found.details == {"question": "culprit"}
    assert found.message == (
        "Write an answer to question 1, “Who took the ledger?”, before you confirm your answers."
    )
    assert engine.view(state, None)["waiting_for"] == [BOB, CHARLIE]
    assert state["answers"][BOB] == answers("Bob's guess")["answers"]


@pytest.mark.parametrize("blank", BLANKS, ids=repr)
def test_it_refuses_a_blank_restatement(blank):
    state = asked_to_restate_place()
    found = refusal(state, ALICE, {"type": "restate", "answers": {"place": blank}})
    assert found.code == "blank_answer" and found.details == {"question": "place"}
    assert found.message == (
        "Write an answer to question 2, “Where is it hidden?”, before you give Sherlock "
        "these answers."
    )
    assert engine.view(state, ALICE)["you"]["restatement"] is not None


@pytest.mark.parametrize("blank", BLANKS, ids=repr)
def test_it_refuses_a_holmes_check_of_a_blank_answer_without_taking_the_carriages(blank):
    state = after_alice_is_eliminated()
    check = {"type": "holmes_check", "question": "place", "answer": blank}
    found = refusal(state, BOB, check)
    assert found.code == "blank_answer" and found.details == {"question": "place"}
    assert found.message == (
        "Write an answer to question 2, “Where is it hidden?”, before you ask Sherlock to check it."
    )
    assert state["players"][BOB]["holmes"]["check"] is None
    act(state, BOB, {**check, "answer": "the vault"})


def test_it_lists_no_blank_text_and_applies_what_it_lists():
    for state, seat in [
        (alice_at_221b(), ALICE),
        (asked_to_restate_place(), ALICE),
        (after_alice_is_eliminated(), BOB),
        (waiting_after_a_failure(), BOB),
    ]:
        for action in engine.legal_actions(state, seat):
            texts = list((action.get("answers") or {}).values())
            if action["type"] == "holmes_check":
                texts.append(action["answer"])
            assert all(text.strip() for text in texts), action
            act(state, seat, action)
    assert engine.legal_actions(alice_at_221b(), SYSTEM) == [{"type": "timeout"}]
