"""Judging a written attempt: queued after commit, stored once, near misses counted."""

import pytest

from cases import services
from cases.models import AnswerAttempt, NearMiss
from tests.factories import CaseVersionFactory, QuestionFactory


@pytest.fixture
def version(db):
    version = CaseVersionFactory()
    QuestionFactory(
        version=version,
        key="culprit",
        position=0,
        kind="person",
        answer="Walter Finch",
        accept=["Wally Finch"],
        reject=["Agnes Finch"],
    )
    QuestionFactory(
        version=version, key="hour", position=1, kind="number", answer="4", accept=[], reject=[]
    )
    return version


def test_it_says_why_an_answer_is_wrong(version):
    attempt = AnswerAttempt.objects.create(
        version=version, answers={"culprit": "Finch", "hour": "4"}
    )
    judged = services.answer_attempt_judge(attempt_id=attempt.pk)
    assert judged.verdicts["culprit"]["verdict"] == "wrong"
    assert "full name" in judged.verdicts["culprit"]["reason"].lower()


def test_it_stores_the_verdict_once_when_judged_twice(version):
    attempt = AnswerAttempt.objects.create(
        version=version, answers={"culprit": "Agnes Finch", "hour": "5"}
    )
    first = services.answer_attempt_judge(attempt_id=attempt.pk)
    second = services.answer_attempt_judge(attempt_id=attempt.pk)
    assert first.judged_at == second.judged_at
    assert first.verdicts == second.verdicts
    assert sorted(NearMiss.objects.values_list("count", flat=True)) == [1, 1]


def test_it_counts_near_misses_under_their_normalised_form(version):
    for given in ["Agnes Finch", "agnes  FINCH", "Mrs Agnes Finch."]:
        attempt = AnswerAttempt.objects.create(
            version=version, answers={"culprit": given, "hour": "4"}
        )
        services.answer_attempt_judge(attempt_id=attempt.pk)
    near_miss = NearMiss.objects.get(question__key="culprit")
    assert near_miss.count == 3
    assert near_miss.example == "Agnes Finch"
    assert near_miss.verdict == "wrong"


def test_it_keeps_no_near_miss_for_right_or_blank_answers(version):
    attempt = AnswerAttempt.objects.create(
        version=version, answers={"culprit": "Wally Finch", "hour": ""}
    )
    judged = services.answer_attempt_judge(attempt_id=attempt.pk)
    assert judged.verdicts["hour"]["verdict"] == "wrong"
    assert not NearMiss.objects.exists()


def test_it_judges_only_the_questions_answered(version):
    attempt = AnswerAttempt.objects.create(version=version, answers={"hour": "4"})
    judged = services.answer_attempt_judge(attempt_id=attempt.pk)
    assert set(judged.verdicts) == {"hour"}
