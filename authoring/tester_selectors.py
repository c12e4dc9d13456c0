"""The answer tester of the case editor: what the judge says of an answer, and every answer
players gave to a question.

The verdicts come from `cases.answers.judge`, the checker the case game calls at 221B
(through `cases.services.answer_attempt_judge`), so the writer reads what a player would.
The key it judges against is the question as the editor's fields hold it now, saved or not
(`answer_key_from_fields`): the writer tries an accepted form before saving it.

Blind review: the verdicts say whether an answer is right, so whoever may not read the
question's answer (`solution_hidden`) gets no tester at all.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from authoring.selectors import solution_hidden, versions_for_user
from cases import answers
from cases.models import AnswerAttempt, CaseVersion, Question
from play.models import TableStatus

# What a player reads at 221B, in a word.
VERDICT_WORDS = {answers.CORRECT: "Right", answers.WRONG: "Wrong", answers.UNSURE: "Unsure"}
# An unsure answer is not final at 221B: the rules ask the player to say it again.
UNSURE_MEANS = "At 221B the player would be asked to say it again; unsure twice is wrong."
# Forms listed under a question, the most given first; the rest are counted.
MAX_FORMS_SHOWN = 40
# Answers one request may judge: a question's given forms, or the one typed.
MAX_ANSWERS_JUDGED = MAX_FORMS_SHOWN
# A key field longer than this is not a question's text (the model allows 300 for the answer).
MAX_FIELD_CHARACTERS = 5_000


class TesterInputInvalid(Exception):
    """A field of the tester's request that cannot be judged with, as one sentence."""


@dataclass(frozen=True, slots=True)
class TriedAnswer:
    given: str
    outcome: str  # answers.CORRECT, WRONG or UNSURE
    words: str  # "Right", "Wrong", "Unsure"
    reason: str  # the judge's reason, as the player reads it

    @property
    def sentence(self) -> str:
        """The verdict as the tester shows and announces it."""
        reason = self.reason.rstrip(".")
        text = f"{self.words}: {reason}." if reason else f"{self.words}."
        return f"{text} {UNSURE_MEANS}" if self.outcome == answers.UNSURE else text

    def as_json(self) -> dict:
        return {
            "given": self.given,
            "outcome": self.outcome,
            "words": self.words,
            "reason": self.reason,
            "sentence": self.sentence,
        }


@dataclass(frozen=True, slots=True)
class GivenForm:
    """One form of answer players gave (answers the judge cannot tell apart count as one)."""

    example: str
    count: int
    at_playtests: int  # of `count`, given at private play-tests
    verdict: TriedAnswer  # against the question as saved

    @property
    def where(self) -> str:
        tables = self.count - self.at_playtests
        parts = []
        if tables:
            parts.append(f"{tables} at table{'s' if tables != 1 else ''}")
        if self.at_playtests:
            parts.append(f"{self.at_playtests} at play-test{'s' if self.at_playtests != 1 else ''}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class QuestionTester:
    question: Question
    given: list[GivenForm]
    more: int  # forms given but not listed (past MAX_FORMS_SHOWN)


def may_test_answers(*, user, version: CaseVersion) -> bool:
    """The tester is for whoever may read the answers: the case's author, and a moderator
    once they revealed the solution (or once the case is published)."""
    if not versions_for_user(user=user).filter(pk=version.pk).exists():
        return False
    return not solution_hidden(user=user, version=version)


def tester_version(*, user, pk: int) -> CaseVersion | None:
    """A version whose answers `user` may test (its questions not saved yet included)."""
    version = versions_for_user(user=user).filter(pk=pk).first()
    if version is None or solution_hidden(user=user, version=version):
        return None
    return version


def tester_question(*, user, pk: int) -> Question | None:
    """A question whose answers `user` may test, or None (as for one that does not exist)."""
    question = Question.objects.select_related("version__case").filter(pk=pk).first()
    if question is None or not may_test_answers(user=user, version=question.version):
        return None
    return question


def answers_try(*, key, given: list[str]) -> list[TriedAnswer]:
    """Each answer judged against `key`, as the case game judges it."""
    return [_tried(key, text) for text in given]


def _tried(key, given: str) -> TriedAnswer:
    verdict = answers.judge(key, given)
    return TriedAnswer(given, verdict.outcome, VERDICT_WORDS[verdict.outcome], verdict.reason)


def _lines(text: str) -> tuple[str, ...]:
    # As the editor's "one form per line" fields read them (authoring.forms.LinesField).
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def answer_key_from_fields(
    *, question: Question | None, fields: Mapping[str, str]
) -> answers.AnswerKey:
    """The question's key as the editor's fields hold it: each field sent replaces the
    saved one (a field the page does not show, say a read-only one, keeps its saved value).
    A question not saved yet (None) is only its fields."""
    if question is None:
        question = Question(kind="", answer="", accept=[], reject=[], ask="")
    for name, value in fields.items():
        if len(value) > MAX_FIELD_CHARACTERS:
            raise TesterInputInvalid(
                f"The {name} field is too long to judge with "
                f"(over {MAX_FIELD_CHARACTERS:,} characters)."
            )
    kind = fields.get("kind", question.kind)
    if kind not in answers.KINDS:
        raise TesterInputInvalid("Choose the kind of answer first: the judge reads by kind.")
    answer = fields.get("answer", question.answer).strip()
    if not answer:
        raise TesterInputInvalid(
            "Write the question's answer first: there is nothing to judge against."
        )
    accept = _lines(fields["accept"]) if "accept" in fields else tuple(question.accept)
    reject = _lines(fields["reject"]) if "reject" in fields else tuple(question.reject)
    return answers.AnswerKey(
        kind=kind,
        answer=answer,
        accept=accept,
        reject=reject,
        ask=fields.get("ask", question.ask),
    )


def answer_testers(*, user, version: CaseVersion) -> list[QuestionTester]:
    """A tester for each saved question of the version, with every answer given to it at
    a finished game; none for whoever may not read the answers."""
    if version.pk is None or not may_test_answers(user=user, version=version):
        return []
    questions = list(version.questions.order_by("position"))
    given = _answers_given(version=version, keys={question.key for question in questions})
    testers = []
    for question in questions:
        forms = _forms(question, given.get(question.key, []))
        testers.append(
            QuestionTester(
                question=question,
                given=forms[:MAX_FORMS_SHOWN],
                more=max(0, len(forms) - MAX_FORMS_SHOWN),
            )
        )
    return testers


def _answers_given(*, version: CaseVersion, keys: set[str]) -> dict[str, list[tuple[str, bool]]]:
    """Question key → (answer as written, given at a play-test), oldest first, from every
    version of the case. Only games that are over: until then a seat's answers are its
    own (the debrief shows them to all at the end)."""
    attempts = (
        AnswerAttempt.objects.filter(
            version__case_id=version.case_id,
            table_attempt__table__status=TableStatus.FINISHED,
        )
        .order_by("created_at", "pk")
        .values_list("answers", "private")
    )
    given: dict[str, list[tuple[str, bool]]] = {}
    for written, private in attempts.iterator():
        for key, text in (written or {}).items():
            text = " ".join(str(text or "").split())
            if key in keys and text:
                given.setdefault(key, []).append((text, private))
    return given


def _forms(question: Question, given: list[tuple[str, bool]]) -> list[GivenForm]:
    """The answers grouped by the form the judge reads, the most given first."""
    groups: dict[str, list[tuple[str, bool]]] = {}
    for text, private in given:
        groups.setdefault(answers.normalise(question.kind, text), []).append((text, private))
    ordered = sorted(groups.values(), key=lambda group: (-len(group), group[0][0].casefold()))
    return [
        GivenForm(
            example=group[0][0],
            count=len(group),
            at_playtests=sum(1 for _, private in group if private),
            verdict=_tried(question, group[0][0]),
        )
        for group in ordered
    ]
