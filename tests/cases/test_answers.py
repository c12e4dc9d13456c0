"""The Baker Street answer checker: every label of tests/data/answers, then the rules.

Pure tests: no database, no Django settings needed.
"""

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.answers import evaluate, load_labels
from cases import answers
from cases.answers import CORRECT, KINDS, UNSURE, WRONG, AnswerKey, judge, normalise

LABELS = load_labels()

PENNINGTON = AnswerKey("person", "Arthur Pennington", accept=("Art Pennington",))
DOYLE = AnswerKey("person", "Margaret Ellen Doyle", reject=("Ellen Doyle",))
HALLOWAY = AnswerKey("person", "Louis Halloway")
TEA_HOUR = AnswerKey("number", "4", accept=("16", "four o'clock"))
WAS_THERE = AnswerKey("yes_no", "yes")


# Labels the checker gets wrong today, on the safe side (never a false accept). They were
# written before the checker saw them and are kept as labelled; strict, so a fix shows here.
KNOWN_MISSES = {
    "person_in_words:paddington_telegram:04": "a possessive in a description: judged unsure",
    "person_in_words:paddington_telegram:05": "a first name and a relation: judged wrong",
    "place_in_words:dispatch_box:09": "a synonym of the place (cloakroom): judged wrong",
    "person_in_words:ashby_cheque:11": "a possessive in a description: judged unsure",
    "place_in_words:left_carriage:10": "near part of a longer answer: judged wrong",
    "text_in_words:boot_heel:01": "a word of the answer moved after it: judged unsure",
    "person_in_words:langham_porter:06": "'looked like' him read as someone connected: wrong",
    "place_in_words:hidden_skiff:03": "exactly half of one word order of the answer: unsure",
    "place_in_words:hidden_skiff:06": "exactly half of one word order of the answer: unsure",
    "place_in_words:tuner_lodgings:07": "'rooms over' the inn read as another place: wrong",
}


def _label_param(label):
    if label.id in KNOWN_MISSES:
        return pytest.param(
            label, marks=pytest.mark.xfail(reason=KNOWN_MISSES[label.id], strict=True)
        )
    return label


@pytest.mark.parametrize(
    "label", [_label_param(label) for label in LABELS], ids=[label.id for label in LABELS]
)
def test_label(label):
    verdict = judge(label.question, label.given)
    assert verdict.outcome == label.expect, (
        f"{label.given!r} for {label.question.answer!r}: expected {label.expect} "
        f"({label.why}), got {verdict.outcome} ({verdict.reason})"
    )


def test_it_has_at_least_400_labels_over_every_kind():
    assert len(LABELS) >= 400
    assert {label.question.kind for label in LABELS} == set(KINDS)
    assert {label.expect for label in LABELS} == {CORRECT, WRONG, UNSURE}


def test_it_never_accepts_a_wrong_or_unsure_label_and_is_at_least_98_percent_right():
    figures = evaluate(LABELS)
    assert [label.id for label in figures.false_accepts] == []
    assert figures.accuracy >= 0.98


def test_it_knows_only_misses_that_are_labels():
    assert set(KNOWN_MISSES) <= {label.id for label in LABELS}


# --- person ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    ["arthur pennington", "Mr. Arthur Pennington", "ÁRTHUR PENNÍNGTON", "Arthur Pennington!"],
)
def test_it_ignores_titles_case_accents_and_punctuation(given):
    assert judge(PENNINGTON, given).outcome == CORRECT


@pytest.mark.parametrize("given", ["Margaret Doyle", "Margaret E. Doyle", "Mrs Margaret Doyle"])
def test_it_lets_a_middle_name_be_left_out_or_given_as_an_initial(given):
    assert judge(DOYLE, given).outcome == CORRECT


def test_it_forgives_one_letter_in_a_long_surname_and_says_so():
    verdict = judge(DOYLE, "Margaret Ellen Doyel")
    assert verdict.outcome == CORRECT
    assert verdict.reason == "Close to 'Margaret Ellen Doyle' (one letter off): accepted"
    assert 0 < verdict.score < 1


def test_it_does_not_forgive_a_changed_letter_in_a_short_name():
    ada = AnswerKey("person", "Ada Lee")
    assert judge(ada, "Ida Lee").outcome == WRONG
    assert judge(ada, "Ada Lea").outcome == WRONG


def test_it_is_unsure_when_a_first_name_changes_at_its_end():
    # Louis and Louise Halloway could be brother and sister.
    assert judge(HALLOWAY, "Louise Halloway").outcome == UNSURE
    assert judge(HALLOWAY, "Luois Halloway").outcome == CORRECT  # two letters swapped


def test_it_rejects_a_relative_with_the_same_surname():
    verdict = judge(PENNINGTON, "Edith Pennington")
    assert verdict.outcome == WRONG
    assert verdict.reason == "Not the person we are looking for: another first name"


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("Pennington", "Only a surname: give the full name, first name and surname"),
        ("Mr Pennington", "Only a surname: give the full name, first name and surname"),
        ("Arthur", "Only a first name: the full name is required"),
        ("A. Pennington", "Initials are not enough: the full name is required"),
        ("the gardener", "A description, not a name: the full name is required"),
        ("Arthur or Edith Pennington", "Two people at once: name only one"),
        ("Arthur and Edith Pennington", "Two people at once: name only one"),
        ("Arthur Pennington's wife", "Someone connected to the answer, not the answer itself"),
    ],
)
def test_it_explains_why_a_name_is_not_enough(given, reason):
    verdict = judge(PENNINGTON, given)
    assert (verdict.outcome, verdict.reason) == (WRONG, reason)


FENN = AnswerKey("person", "Harold Fenn", reject=("Mrs Fenn", "Martha Fenn"))
CRANE = AnswerKey("person", "Silas Crane", ask="Who cut the pendulum rod?")
SILAS_JAMES_CRANE = AnswerKey("person", "Silas James Crane")


@pytest.mark.parametrize("given", ["Mr Fenn", "Mrs Fenn", "Fenn", "fenn!", "It was Mr Fenn"])
def test_it_says_a_surname_alone_lacks_the_first_name_even_as_a_reject_form(given):
    # "Mrs Fenn" is refused, and without its title it is the surname "fenn": "Mr Fenn" was
    # called "Not the person we are looking for", though Fenn is the person.
    verdict = judge(FENN, given)
    assert verdict.outcome == WRONG
    assert verdict.reason == answers.ONLY_A_SURNAME
    assert verdict.reason == "Only a surname: give the full name, first name and surname"


def test_it_words_a_surname_alone_the_same_with_or_without_reject_forms():
    plain = AnswerKey("person", "Harold Fenn")
    refusing = AnswerKey("person", "Harold Fenn", reject=("Fenn",))
    for key in (plain, refusing, FENN):
        assert (judge(key, "Mr Fenn").outcome, judge(key, "Mr Fenn").reason) == (
            WRONG,
            answers.ONLY_A_SURNAME,
        )


def test_it_still_calls_another_persons_surname_not_the_person():
    key = AnswerKey("person", "Harold Fenn", reject=("Mr Crane",))
    verdict = judge(key, "Crane")
    assert (verdict.outcome, verdict.reason) == (WRONG, "Not the person we are looking for")


@pytest.mark.parametrize("given", ["Mr Fenn", "Mrs Fenn", "Harold (Martha) Fenn", "Martha Fenn"])
def test_it_never_quotes_the_key_or_a_reject_form_in_a_reason(given):
    reason = judge(FENN, given).reason.lower()
    assert "fenn" not in reason and "harold" not in reason and "martha" not in reason


@pytest.mark.parametrize(
    "given",
    [
        "Mr Silas Crane, clerk",
        "Mr. Silas Crane, the clerk at the bank",
        "Mr Silas Crane, the bank clerk",
        "Dr. Silas Crane, clerk at the bank",
        "MR SILAS CRANE, A CLERK",
        "Mr Silas (J.) Crane, the clerk",
    ],
)
def test_it_accepts_a_title_the_full_name_and_a_description_after_a_comma(given):
    assert judge(CRANE, given).outcome == CORRECT


@pytest.mark.parametrize(
    ("key", "given"),
    [
        (FENN, "Harold (Harry) Fenn"),
        (FENN, 'Harold "Harry" Fenn'),
        (FENN, "Harold \u201cHarry\u201d Fenn"),
        (FENN, "Harold ( Harry ) Fenn"),
        (FENN, "Mr Harold (Harry) Fenn"),
        (FENN, "Harold (H.) Fenn"),
        (CRANE, "Silas (J.) Crane"),
        (CRANE, "Silas (Jim) Crane"),
        (SILAS_JAMES_CRANE, "Silas (J.) Crane"),
        (SILAS_JAMES_CRANE, "Silas (James) Crane"),
        (AnswerKey("person", "Lucien de la Roche"), "Lucien (Luc) de la Roche"),
    ],
)
def test_it_accepts_the_full_name_with_a_nickname_or_initial_in_brackets_or_quotes(key, given):
    assert judge(key, given).outcome == CORRECT


@pytest.mark.parametrize(
    ("given", "outcome"),
    [
        ("Harold (Martha) Fenn", WRONG),  # "Martha Fenn" is refused
        ("Harold (Marta) Fenn", UNSURE),  # a letter from a refused form: as without brackets
    ],
)
def test_it_refuses_a_bracketed_word_that_makes_a_reject_form_with_the_surname(given, outcome):
    assert judge(FENN, given).outcome == outcome


def test_it_refuses_a_bracketed_nickname_the_key_refuses():
    key = AnswerKey("person", "Harold Fenn", reject=("Harry Fenn",))
    assert judge(key, "Harold (Harry) Fenn").outcome == WRONG


@pytest.mark.parametrize(
    ("key", "given"),
    [
        (FENN, "Harold (Harry Boy) Fenn"),  # two words: a middle name or a story
        (FENN, "Harold [Harry] Fenn"),
        (FENN, "Harold (not) Fenn"),
        (FENN, "Harold (Jr.) Fenn"),
        (FENN, "Harold (Harry) (H.) Fenn"),
        (FENN, "Harold Fenn (Martha), the clerk"),  # not between the names
        (FENN, "Martha (Harold) Fenn"),
        (SILAS_JAMES_CRANE, "Silas (R.) Crane"),  # against the middle name the key knows
        (SILAS_JAMES_CRANE, "Silas (Jim) Crane"),
    ],
)
def test_it_reads_other_words_in_brackets_as_it_did(key, given):
    unbracketed = given.replace("(", " ").replace(")", " ").replace("[", " ").replace("]", " ")
    verdict = judge(key, given)
    assert verdict.outcome != CORRECT
    assert verdict.outcome == judge(key, unbracketed).outcome


def test_it_normalises_a_nickname_in_brackets_or_quotes_to_one_form_of_its_own():
    forms = {
        normalise("person", text)
        for text in ("Harold (Harry) Fenn", 'Harold "Harry" Fenn', "Mr Harold ( Harry. ) Fenn")
    }
    assert forms == {"harold (harry) fenn"}
    assert normalise("person", "Silas (J.) Crane") == "silas (j) crane"
    # Judged otherwise than these, so grouped apart from them.
    assert normalise("person", "Harold Harry Fenn") == "harold harry fenn"
    assert normalise("person", "Harold Fenn") == "harold fenn"
    # Words that are no nickname stay as they were.
    assert normalise("person", "Harold (not) Fenn") == "harold not fenn"


@pytest.mark.parametrize(
    ("key", "given", "outcome"),
    [
        (CRANE, "Silas Krane", UNSURE),  # the first letter changed
        (CRANE, "Silus Crane", UNSURE),  # the first name changed
        (CRANE, "Silas Crain", WRONG),  # two changes in a short surname
        (CRANE, "Silas Cranne", CORRECT),
        (HALLOWAY, "Louise Halloway", UNSURE),
        (PENNINGTON, "Arthur Penington", CORRECT),
        (FENN, "Harold Fen", WRONG),
    ],
)
def test_it_keeps_a_full_name_a_letter_or_two_off_as_it_was(key, given, outcome):
    assert judge(key, given).outcome == outcome


@pytest.mark.parametrize(
    ("key", "given", "without"),
    [
        (CRANE, "Silas (J.) Krane", "Silas Krane"),
        (CRANE, "Silus (J.) Crane", "Silus Crane"),
        (CRANE, "Silas (J.) Crain", "Silas Crain"),
        (CRANE, "Silas (Jim) Cranne", "Silas Cranne"),
        (HALLOWAY, "Louise (Lou) Halloway", "Louise Halloway"),
        (PENNINGTON, "Arthur (Art) Penington", "Arthur Penington"),
        (FENN, "Harold (Harry) Fen", "Harold Fen"),
    ],
)
def test_it_judges_a_name_a_letter_off_with_a_nickname_as_the_name_alone(key, given, without):
    # Unsure stays unsure (at 221B the player is asked to restate), wrong stays wrong.
    assert judge(key, given).outcome == judge(key, without).outcome


def test_it_lets_a_reject_form_beat_typo_tolerance():
    assert judge(DOYLE, "Ellen Doyle").outcome == WRONG
    louis = AnswerKey("person", "Louis Halloway", reject=("Louise Halloway",))
    # "Louisa" is one letter from the answer and one from the reject form: reject wins.
    assert judge(louis, "Louisa Halloway").outcome == WRONG


@pytest.mark.parametrize(
    "given",
    ["I think it was Arthur Pennington", "It was Arthur Pennington.", "Arthur Pennington did it"],
)
def test_it_reads_the_name_inside_a_plain_sentence(given):
    assert judge(PENNINGTON, given).outcome == CORRECT


def test_it_is_unsure_about_unknown_extra_words_or_a_negation():
    assert judge(PENNINGTON, "Arthur Pennington, with a forged pen").outcome == UNSURE
    assert judge(PENNINGTON, "not Arthur Pennington").outcome == UNSURE


def test_it_is_unsure_about_a_name_written_in_another_script():
    # Transliteration is lossy and a Cyrillic "А" looks like a Latin "A".
    assert judge(PENNINGTON, "Артур Пеннингтон").outcome == UNSURE
    assert judge(PENNINGTON, "Аrthur Pennington").outcome == UNSURE
    assert judge(PENNINGTON, "阿瑟·彭宁顿").outcome == WRONG


@pytest.mark.parametrize(
    "given",
    [
        "<b>Arthur Pennington</b>",
        "Arthur&nbsp;Pennington",
        " \tArthur\u200b Pennington\n",
        "🎩 Art Pennington",
    ],
)
def test_it_ignores_html_whitespace_junk_and_emoji(given):
    assert judge(PENNINGTON, given).outcome == CORRECT


def test_it_refuses_empty_and_overlong_answers():
    assert judge(PENNINGTON, "").reason == "No answer given"
    assert judge(PENNINGTON, None).outcome == WRONG
    essay = "Arthur Pennington " * 20
    assert judge(PENNINGTON, essay).reason.startswith("Too long")


# --- place and text ------------------------------------------------------------------------


def test_it_ignores_articles_and_forgives_a_typo_in_a_long_word():
    exchange = AnswerKey("place", "the Coal Exchange", reject=("Corn Exchange",))
    assert judge(exchange, "in the Coal Exchnage").outcome == CORRECT
    assert judge(exchange, "Cole Exchange").outcome == WRONG  # short words must be exact
    assert judge(exchange, "Corn Exchange").outcome == WRONG


def test_it_reads_street_abbreviations():
    lane = AnswerKey("place", "St Olave's Lane")
    assert judge(lane, "Saint Olaves Ln.").outcome == CORRECT


# --- number ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "outcome"),
    [
        ("4", CORRECT),
        ("four", CORRECT),
        ("4.0", CORRECT),
        ("The answer is 4 o'clock", CORRECT),
        ("16:00", CORRECT),
        ("5", WRONG),
        ("3 or 4", WRONG),
        ("nearly four", UNSURE),
        ("not 4", UNSURE),
    ],
)
def test_it_reads_numbers_in_digits_words_and_sentences(given, outcome):
    assert judge(TEA_HOUR, given).outcome == outcome


@pytest.mark.parametrize(
    ("answer", "given"),
    [(21, "twenty-one"), (1500, "fifteen hundred"), (1500, "1,500"), (12, "a dozen")],
)
def test_it_reads_number_words(answer, given):
    assert judge(AnswerKey("number", answer), given).outcome == CORRECT


# --- yes_no ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "outcome"),
    [
        ("yes", CORRECT),
        ("y", CORRECT),
        ("yeah", CORRECT),
        ("indeed", CORRECT),
        ("no", WRONG),
        ("nope", WRONG),
        ("not at all", WRONG),
        ("certainly not", WRONG),
        ("maybe", WRONG),
        ("yes and no", UNSURE),
        ("he was at the inn", UNSURE),
    ],
)
def test_it_reads_the_common_forms_of_yes_and_no(given, outcome):
    assert judge(WAS_THERE, given).outcome == outcome


# --- the module's contract ---------------------------------------------------------------


def test_it_accepts_any_object_with_kind_answer_accept_and_reject():
    question = SimpleNamespace(kind="person", answer="Arthur Pennington", accept=[], reject=None)
    assert judge(question, "Arthur Pennington").is_correct


def test_it_raises_for_an_unknown_kind():
    with pytest.raises(ValueError, match="unknown answer kind"):
        judge(AnswerKey("colour", "red"), "red")


def test_it_never_quotes_the_answer_in_a_wrong_or_unsure_reason():
    for label in LABELS:
        if label.question.kind not in ("person", "place", "text"):
            continue  # "Both yes and no" must name yes and no
        verdict = judge(label.question, label.given)
        if verdict.outcome != CORRECT:
            assert label.question.answer not in verdict.reason, label.id


def test_it_scores_between_zero_and_one():
    for label in LABELS:
        verdict = judge(label.question, label.given)
        assert 0.0 <= verdict.score <= 1.0, label.id


def test_it_normalises_answers_that_it_cannot_tell_apart_to_the_same_form():
    assert normalise("person", "Mr. Arthur PENNINGTON!") == normalise("person", "arthur pennington")
    assert normalise("place", "at the Coal Exchange") == "coal exchange"
    assert normalise("number", "four o'clock") == normalise("number", "4.0") == "4"
    assert normalise("yes_no", "Nope.") == "no"


def test_it_imports_no_django():
    tree = ast.parse(Path(answers.__file__).read_text(encoding="utf-8"))
    imported = [
        name
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [node.module]
            if isinstance(node, ast.ImportFrom)
            else [alias.name for alias in node.names]
        )
    ]
    assert not [name for name in imported if name and name.startswith("django")]


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(KINDS), text=st.text(max_size=300))
def test_it_judges_any_text_without_raising(kind, text):
    key = {
        "person": PENNINGTON,
        "place": AnswerKey("place", "the Coal Exchange"),
        "text": AnswerKey("text", "strychnine"),
        "number": TEA_HOUR,
        "yes_no": WAS_THERE,
    }[kind]
    verdict = judge(key, text)
    assert verdict.outcome in (CORRECT, WRONG, UNSURE)
    assert isinstance(normalise(kind, text), str)
