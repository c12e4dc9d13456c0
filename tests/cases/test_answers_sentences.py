"""The Baker Street answer checker reads answers written as players write them (issue 21).

Mostly pure tests; the last one judges a stored attempt, to show that the question's text
reaches the checker from the database.
"""

from types import SimpleNamespace

import pytest

import bench.answers
from bench.answers import evaluate, load_labels
from cases import services
from cases.answers import CORRECT, UNSURE, WRONG, AnswerKey, judge
from cases.models import AnswerAttempt
from tests.factories import CaseVersionFactory, QuestionFactory

CRYPT = AnswerKey(
    "place",
    "the crypt of St Peter's Church",
    reject=("the vestry of St Peter's Church",),
    ask="Where were the stolen letters hidden?",
)
LATCH = AnswerKey("person", "Jeremiah Amos Latch", ask="Who put out the lamps in Vauxhall Walk?")
EVENING = "At what hour of the evening did the lamps go out?"


@pytest.mark.parametrize(
    "given",
    [
        "In the crypt of St Peter's Church, Vauxhall",
        "the crypt at St Peter's Church",
        "in the crypt at St Peter's",
        "St Peter's Church crypt",
        "It was hidden in the crypt of St Peter's Church",
        "under St Peter's Church, in the crypt",
        "the crypt of St Peter's Church, Kennington Lane",
    ],
)
def test_it_accepts_the_place_in_a_players_own_words(given):
    assert judge(CRYPT, given).outcome == CORRECT


@pytest.mark.parametrize(
    ("given", "outcome"),
    [
        ("the vicarage next to St Peter's", WRONG),
        ("the crypt of St Peter's Church or the vestry", WRONG),
        ("the vestry of St Peter's Church", WRONG),
        ("the crypt", WRONG),
        ("near the crypt of St Peter's Church", UNSURE),
        ("not the crypt of St Peter's", UNSURE),
    ],
)
def test_it_still_refuses_another_place_two_answers_or_a_negation(given, outcome):
    assert judge(CRYPT, given).outcome == outcome


def test_it_says_when_another_place_stands_beside_the_answer():
    church = AnswerKey("place", "St Peter's Church")
    verdict = judge(church, "the vicarage next to St Peter's")
    assert (verdict.outcome, verdict.reason) == (
        WRONG,
        "Another place, beside the answer: name the place itself",
    )


@pytest.mark.parametrize(
    "given",
    [
        "Jeremiah Latch, the lamplighter",
        "Mr Jeremiah Amos Latch, lamplighter",
        "the lamplighter, Jeremiah Latch",
        "Jeremiah Latch of Vauxhall",
        "Jeremiah Latch put out the lamps",
    ],
)
def test_it_accepts_a_full_name_with_a_description(given):
    assert judge(LATCH, given).outcome == CORRECT


@pytest.mark.parametrize(
    ("given", "outcome"),
    [
        ("Latch, the lamplighter", WRONG),  # a surname and a description
        ("the lamplighter", WRONG),  # a description without a name
        ("Jeremiah Latch's son", WRONG),
        ("the son of Jeremiah Latch", WRONG),
        ("Jeremiah Latch, the lamplighter, or Ned Cole", WRONG),
        ("Jeremiah Latch the younger", UNSURE),
        ("Jeremiah Latch, not the lamplighter", UNSURE),
    ],
)
def test_it_still_refuses_a_surname_someone_else_or_two_people(given, outcome):
    assert judge(LATCH, given).outcome == outcome


def test_it_takes_a_nickname_only_when_the_key_lists_it():
    # Jem is short for James as well as Jeremiah: only the author knows which.
    assert judge(LATCH, "Jem Latch the lamplighter").outcome == WRONG
    listed = AnswerKey("person", "Jeremiah Amos Latch", accept=("Jem Latch",))
    assert judge(listed, "Jem Latch the lamplighter").outcome == CORRECT


def test_it_hears_the_question_in_the_answer_but_not_its_names():
    ask = "Where did the forgers meet after leaving Mortlake?"
    exchange = AnswerKey("place", "the Coal Exchange", ask=ask)
    assert judge(exchange, "the forgers met at the Coal Exchange").outcome == CORRECT
    # Mortlake is capitalised in the question: a name, perhaps a wrong answer, never framing.
    assert judge(exchange, "the Coal Exchange, Mortlake").outcome == UNSURE


@pytest.mark.parametrize(
    ("given", "outcome"),
    [
        ("7 pm", CORRECT),
        ("seven in the evening", CORRECT),
        ("19:00", CORRECT),
        ("I am sure it was 7", CORRECT),  # "am" after "I" is no time of day
        ("7 am", WRONG),
        ("7 a.m.", WRONG),
        ("07:00", WRONG),
        ("seven in the morning", WRONG),
    ],
)
def test_it_holds_an_hour_to_the_questions_evening(given, outcome):
    assert judge(AnswerKey("number", "7", ask=EVENING), given).outcome == outcome


def test_it_explains_an_hour_in_the_wrong_half_of_the_day():
    verdict = judge(AnswerKey("number", "7", ask=EVENING), "7 am")
    assert verdict.reason == "Not the hour we are looking for: morning and evening count"


def test_it_reads_no_half_of_the_day_without_the_question_text():
    # Backward compatible: a key without its question judges as before.
    assert judge(AnswerKey("number", "7"), "7 am").outcome == CORRECT
    assert judge(AnswerKey("number", "7"), "19:00").outcome == WRONG


def test_it_reads_no_clock_in_a_count_of_hours():
    asleep = AnswerKey("number", "7", ask="How many hours did the Colonel sleep?")
    assert judge(asleep, "19").outcome == WRONG
    assert judge(asleep, "seven hours").outcome == CORRECT


def test_it_takes_the_question_text_from_any_object_with_an_ask():
    question = SimpleNamespace(kind="number", answer="7", accept=[], reject=[], ask=EVENING)
    assert judge(question, "7 am").outcome == WRONG


# --- The labelled set and the bench -----------------------------------------------------------


def test_it_has_at_least_200_labels_written_in_players_words():
    new = [label for label in load_labels() if "_in_words" in label.id or "hours" in label.id]
    assert len(new) >= 200


def test_it_judges_under_3_percent_of_the_right_answers_unsure():
    figures = evaluate(load_labels())
    assert figures.false_accepts == []
    assert figures.accuracy >= 0.98
    assert figures.unsure_share_of_correct < 0.03


def test_it_refuses_a_label_whose_reason_was_cut_by_a_comma(tmp_path):
    (tmp_path / "person.yaml").write_text(
        "- id: q\n  kind: person\n  answer: Ada Lee\n  judgments:\n"
        "    - {given: Ada Lee, expect: correct, why: the answer, as written}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="person:q:01"):
        load_labels(tmp_path)


def test_the_bench_prints_false_accepts_accuracy_and_unsure_share(monkeypatch, capsys):
    monkeypatch.setattr(bench.answers, "TIMED_SECONDS", 0.01)
    bench.answers.main()
    printed = capsys.readouterr().out
    assert "false accepts   0" in printed
    assert "accuracy" in printed
    assert "correct judged unsure" in printed
    assert "judgments/s" in printed


# --- From the database -------------------------------------------------------------------------


def test_it_judges_a_stored_attempt_against_the_questions_evening(db):
    version = CaseVersionFactory()
    QuestionFactory(version=version, key="hour", position=0, kind="number", answer="7", ask=EVENING)
    wrong = AnswerAttempt.objects.create(version=version, answers={"hour": "7 am"})
    right = AnswerAttempt.objects.create(version=version, answers={"hour": "19:00"})
    assert services.answer_attempt_judge(attempt_id=wrong.pk).verdicts["hour"]["verdict"] == WRONG
    assert services.answer_attempt_judge(attempt_id=right.pk).verdicts["hour"]["verdict"] == CORRECT


def test_it_doubts_a_description_that_is_only_the_questions_own_words():
    # The night porter is the one who was drugged: describing the answer so may be a slip.
    drugged = AnswerKey("person", "Ignatius Pole", ask="Who drugged the night porter?")
    assert judge(drugged, "Ignatius Pole, the night porter").outcome == UNSURE
    assert judge(drugged, "Ignatius Pole drugged the porter").outcome == CORRECT
    ulster = AnswerKey("person", "Rupert Vellacott", ask="Who was the man in the grey ulster?")
    assert judge(ulster, "Rupert Vellacott, the man in the grey ulster").outcome == CORRECT


@pytest.mark.parametrize(
    ("answer", "given"),
    [("Greek Street", "Greek Street, Dean Street"), ("Bethnal Green", "Hackney, Bethnal Green")],
)
def test_it_takes_a_second_street_or_district_for_a_second_answer(answer, given):
    verdict = judge(AnswerKey("place", answer), given)
    assert verdict.outcome == WRONG
    assert judge(AnswerKey("place", answer), f"{answer}, London").outcome == CORRECT


def test_it_tells_midnight_from_noon():
    struck = AnswerKey("number", "12", ask="At what hour of the night did the clock strike?")
    assert judge(struck, "midnight").outcome == CORRECT
    assert judge(struck, "noon").outcome == WRONG
    assert judge(struck, "12 pm").outcome == WRONG
