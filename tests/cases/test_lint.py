"""The case linter on in-memory case data (no database), and the sample cases."""

import subprocess
import sys
from pathlib import Path

import pytest

from cases import lint
from cases.lint import lint_case, lint_package, number_value, number_word, person_name_fault
from cases.package.data import (
    ICONS,
    KINDS,
    CaseData,
    LocationData,
    Problem,
    QuestionData,
    Severity,
    count_summary,
)
from cases.package.reader import read_package_path

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE_CASES = sorted(
    path for path in (ROOT / "fixtures" / "cases").glob("*") if (path / "case.md").exists()
)
GOOD_PACKAGES = sorted((ROOT / "tests" / "data" / "packages").iterdir())


def case(**changes) -> CaseData:
    """A small valid case, as the editor would hand it to the linter (no source lines)."""
    values = {
        "slug": "the-small-case",
        "title": "The Small Case",
        "questions": (
            QuestionData("culprit", "Who?", "person", "Margaret Doyle", evidence=(1, 2)),
        ),
        "introduction": "It begins at [[1]].",
        "solution": "Margaret Doyle was at the Yard [[1]], then in the fog at the docks [[2]].",
        "locations": (
            LocationData("01-yard.md", 1, "Scotland Yard", "Margaret Doyle was here."),
            LocationData("02-docks.md", 2, "The docks", "Fog, and Margaret Doyle."),
        ),
    }
    return CaseData(**{**values, **changes})


def messages(data: CaseData) -> list[str]:
    return [str(problem) for problem in lint_case(data)]


def test_it_finds_nothing_wrong_with_a_sound_case():
    assert lint_case(case()) == []


@pytest.mark.parametrize("folder", SAMPLE_CASES, ids=lambda path: path.name)
def test_it_finds_the_sample_cases_clean(folder):
    _, problems = lint_package(read_package_path(folder))

    assert [str(p) for p in problems if p.severity != Severity.INFO] == []


@pytest.mark.parametrize("folder", GOOD_PACKAGES, ids=lambda path: path.name)
def test_it_finds_the_good_test_packages_clean(folder):
    _, problems = lint_package(read_package_path(folder))

    assert [str(p) for p in problems if p.severity != Severity.INFO] == []


def test_it_reports_problems_without_lines_for_data_from_the_editor():
    data = case(difficulty=7)

    assert messages(data) == ["case.md: difficulty 7 is out of range: use 0 (introductory) to 5"]


def test_it_names_every_other_file_when_a_number_is_used_three_times():
    cards = tuple(LocationData(f"0{n}-x.md", 1, "X", "Margaret Doyle") for n in (1, 2, 3))
    question = QuestionData("culprit", "Who?", "person", "Margaret Doyle", evidence=(1,))

    solution = "Margaret Doyle [[1]]."

    assert messages(case(locations=cards, questions=(question,), solution=solution)) == [
        "locations/02-x.md: number 1 is used 3 times "
        "(also in locations/01-x.md and locations/03-x.md)",
        "locations/03-x.md: number 1 is used 3 times "
        "(also in locations/01-x.md and locations/02-x.md)",
    ]


def test_it_checks_references_in_questions_and_every_section():
    question = QuestionData(
        "culprit", "Who, after [[9]]?", "person", "Margaret Doyle", evidence=(1, 2)
    )
    data = case(
        questions=(question,),
        special_rules="See [[8]].",
        solution="Margaret Doyle [[1]], in the fog [[2]]; [[7]].",
    )

    assert messages(data) == [
        "case.md: [[8]] refers to card 8, which does not exist",
        "case.md: [[7]] refers to card 7, which does not exist",
        "case.md: [[9]] refers to card 9, which does not exist",
    ]


def test_it_accepts_a_card_reference_with_spaces_and_leading_zeros():
    assert messages(case(introduction="Go to [[ 01 ]].")) == []


def test_it_notes_once_when_no_question_lists_evidence():
    question = QuestionData("culprit", "Who?", "person", "Margaret Doyle")

    assert messages(case(questions=(question,))) == [
        "case.md: note: no question lists evidence; listing the cards that support each answer "
        "lets the linter tell which cards matter"
    ]


def test_it_does_not_guess_about_references_when_a_card_number_is_unreadable():
    cards = (LocationData("01-yard.md", None, "Scotland Yard", "Margaret Doyle [[5]]"),)

    assert messages(case(locations=cards, introduction="[[6]]")) == []


def test_it_finds_an_answer_through_an_accepted_form():
    question = QuestionData(
        "culprit",
        "Who?",
        "person",
        "Margaret Ellen Doyle",
        accept=("Margaret Doyle",),
        evidence=(1, 2),
    )

    assert messages(case(questions=(question,))) == []


def test_it_finds_a_place_without_its_article_and_a_word_for_a_number():
    questions = (
        QuestionData("where", "Where?", "place", "The Docks", evidence=(1, 2)),
        QuestionData("cups", "How many?", "number", "twenty-four", evidence=(1, 2)),
    )
    cards = (
        LocationData("01-yard.md", 1, "Scotland Yard", "Off to the docks."),
        LocationData("02-docks.md", 2, "The docks", "There were 24 cups."),
    )
    solution = "Off to the docks [[1]], where there were 24 cups [[2]]."

    assert messages(case(questions=questions, locations=cards, solution=solution)) == []


def test_it_does_not_find_a_number_inside_a_longer_one():
    question = QuestionData("year", "When?", "number", "18", evidence=(1,))
    cards = (LocationData("01-yard.md", 1, "Yard", "In 1887."), LocationData("02-d.md", 2, "D", ""))
    solution = "It was 1887 [[1]]."

    assert messages(case(questions=(question,), locations=cards, solution=solution)) == [
        'case.md: warning: the answer to question "year" ("18") appears in no location text, '
        "so players may not be able to find it",
        "locations/02-d.md: warning: the card has no text",
        "locations/02-d.md: note: card 2 is not evidence for any question",
    ]


@pytest.mark.parametrize(
    ("name", "fault"),
    [
        ("Margaret Doyle", ""),
        ("Mrs. Margaret Doyle", ""),
        ("Jean-Luc de Villiers", ""),
        ("Patrick O'Brien", ""),
        ("Margaret Lord", ""),  # a surname that is also a title
        ("Doyle", "is not a full name"),
        ("Inspector Lestrade", "is not a full name"),
        ("Dr.", "is not a full name"),
        ("the gardener", "is a description"),
        ("A tall man", "is a description"),
    ],
)
def test_it_tells_a_full_name_from_a_surname_a_title_or_a_description(name, fault):
    assert person_name_fault(name).startswith(fault)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("4", 4),
        ("4.0", 4),
        ("four", 4),
        ("Twenty-Four", 24),
        ("twenty four", 24),
        ("lots", None),
        ("inf", None),
        ("nan", None),
    ],
)
def test_it_reads_numbers_in_digits_and_words(text, value):
    assert number_value(text) == value


def test_it_writes_numbers_in_words():
    assert [number_word(n) for n in (0, 12, 40, 99)] == ["zero", "twelve", "forty", "ninety-nine"]


def test_it_counts_problems_in_a_summary():
    error = Problem(Severity.ERROR, "case.md", 1, "x")
    note = Problem(Severity.INFO, "case.md", 1, "x")

    assert count_summary([]) == "0 errors, 0 warnings"
    assert count_summary([error, error, note]) == "2 errors, 0 warnings, 1 note"


def test_it_prints_problems_like_a_compiler():
    assert str(Problem(Severity.ERROR, "case.md", 3, "bad")) == "case.md:3: bad"
    assert str(Problem(Severity.WARNING, "case.md", 3, "odd")) == "case.md:3: warning: odd"
    assert str(Problem(Severity.INFO, "locations/", None, "fyi")) == "locations/: note: fyi"


def test_it_shares_its_vocabularies_with_the_models():
    from cases.models import AnswerKind, Icon

    assert set(ICONS) == set(Icon.values)
    assert set(KINDS) == set(AnswerKind.values)


def test_it_finds_card_references_as_the_markdown_renderer_does():
    from cases.markdown import CARD_REFERENCE

    assert lint.CARD_REFERENCE.pattern == CARD_REFERENCE


def test_it_needs_no_django():
    code = "import sys, cases.lint, cases.package.writer; print('django' in sys.modules)"

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "False"


# --- Evidence that proves ------------------------------------------------------------------


def four_cards(**changes) -> CaseData:
    cards = (
        LocationData("01-yard.md", 1, "Scotland Yard", "Margaret Doyle was here."),
        LocationData("02-docks.md", 2, "The docks", "Fog, and Margaret Doyle."),
        LocationData("03-inn.md", 3, "The inn", "Ale and a broken pipe."),
        LocationData("04-church.md", 4, "The church", "A quiet verger."),
    )
    return case(locations=cards, **changes)


def test_it_warns_of_evidence_that_holds_more_than_half_the_cards():
    question = QuestionData("culprit", "Who?", "person", "Margaret Doyle", evidence=(1, 2, 3))
    solution = "Margaret Doyle at the Yard [[1]], in the fog [[2]], with a broken pipe [[3]]."

    assert messages(four_cards(questions=(question,), solution=solution)) == [
        'case.md: warning: question "culprit" lists 3 of the case\'s 4 cards as evidence: '
        "list only the cards that carry a fact the answer needs",
        "locations/04-church.md: note: card 4 is not evidence for any question",
    ]


def test_it_warns_of_an_evidence_card_the_solution_never_cites():
    problems = messages(case(solution="Margaret Doyle was at the Yard [[1]]."))

    assert problems == [
        'case.md: warning: card 2 is evidence for question "culprit", but the solution never '
        "cites it: say there what it proves, with [[2]]"
    ]


def test_it_warns_of_an_evidence_card_that_says_nothing_the_solution_cites_it_for():
    solution = "Margaret Doyle was at the Yard [[1]]. A steamer sailed at dawn [[2]]."

    assert messages(case(solution=solution)) == [
        'case.md: warning: card 2 is evidence for question "culprit", but its text mentions '
        "nothing the solution cites [[2]] for"
    ]


def test_it_links_a_citation_by_names_numbers_and_words_not_by_common_words():
    cited = lint._solution_citations(
        "Crane's muffler was seen [[3]]; the ticket was No. 212 [[4]].\n\nThey came [[5]]."
    )

    assert cited[3] >= {"crane", "muffler", "seen"} and "212" in cited[4]
    assert cited[5] == {"came"} - lint.COMMON_WORDS


def test_it_refuses_control_characters_in_one_line_fields():
    question = QuestionData(
        "culprit",
        "Who?\u202e",
        "person",
        "Margaret Doyle",
        accept=("Meg\tDoyle",),
        reject=("Ellen\x00Doyle",),
        evidence=(1, 2),
    )
    data = case(
        title="The Small\nCase",
        language="en\r",
        questions=(question,),
        locations=(
            LocationData("01-yard.md", 1, "Scotland\u2028Yard", "Margaret Doyle was here."),
            LocationData("02-docks.md", 2, "The docks", "Fog, and Margaret\nDoyle."),
        ),
    )

    assert messages(data) == [
        "case.md: the title holds a control character (U+000A, a line break); write it on one "
        "line, in plain text",
        "case.md: the language holds a control character (U+000D, a line break); write it on "
        "one line, in plain text",
        'case.md: the ask of question "culprit" holds a control character (U+202E, a text '
        "direction control); write it on one line, in plain text",
        'case.md: an accepted answer to question "culprit" holds a control character '
        "(U+0009, a tab); write it on one line, in plain text",
        'case.md: a rejected answer to question "culprit" holds a control character '
        "(U+0000); write it on one line, in plain text",
        "locations/01-yard.md: the card name holds a control character (U+2028, a line "
        "break); write it on one line, in plain text",
    ]


def test_it_points_at_the_line_of_a_title_with_a_line_break():
    files = dict(read_package_path(GOOD_PACKAGES[0]))
    lines = files["case.md"].decode().split("\n")
    number = next(n for n, line in enumerate(lines) if line.startswith("title:"))
    lines[number] = 'title: "The Ledger\\nBcc: someone@example.com"'
    files["case.md"] = "\n".join(lines).encode()

    _, problems = lint_package(files)

    assert [str(problem) for problem in problems if problem.is_error] == [
        f"case.md:{number + 1}: the title holds a control character (U+000A, a line break); "
        "write it on one line, in plain text"
    ]
