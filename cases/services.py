"""Writes of the case domain. Views, commands and the admin call these."""

import re
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone

from . import answers
from .lint import lint_package
from .markdown import CARD_REFERENCE_RE
from .models import (
    AnswerAttempt,
    Case,
    CaseVersion,
    Location,
    NearMiss,
    Question,
    VersionStatus,
    Zone,
)
from .package.data import CASE_FILE, CaseData, Problem, error


class PackageInvalid(Exception):
    """A package with errors: nothing was written. `problems` lists every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        errors = [problem for problem in problems if problem.is_error]
        super().__init__(f"the package has {len(errors)} error(s); nothing was imported")


@dataclass(frozen=True)
class ImportResult:
    version: CaseVersion
    created_case: bool
    problems: list[Problem] = field(default_factory=list)  # warnings and notes


@transaction.atomic
def case_import_package(
    *, files: dict, author: AbstractBaseUser | None = None, publish: bool = False
) -> ImportResult:
    """Import a package (a files dict, e.g. from `read_package_path`) as a new version.

    A case that exists is never overwritten: the package becomes its next version, a
    draft, or with `publish` the published version (the previous one is archived). A
    package with errors raises `PackageInvalid` before anything is written.
    """
    data, problems = lint_package(files)
    if data is None or any(problem.is_error for problem in problems):
        raise PackageInvalid(problems)
    # Lock the case row: two imports of one slug must not pick the same version number.
    case = Case.objects.select_for_update().filter(slug=data.slug).first()
    if case is not None and author is not None and case.author_id not in (None, author.pk):
        message = f'the slug "{data.slug}" belongs to another author\'s case; choose another slug'
        raise PackageInvalid([*problems, error(CASE_FILE, data.lines.get("slug"), message)])
    created = case is None
    if created:
        case = Case.objects.create(slug=data.slug, author=author)
    version = _create_version(case, data, publish=publish)
    return ImportResult(version=version, created_case=created, problems=problems)


def _create_version(case: Case, data: CaseData, *, publish: bool) -> CaseVersion:
    number = (case.versions.aggregate(Max("number"))["number__max"] or 0) + 1
    status = VersionStatus.DRAFT
    if publish:
        # Before creating the new one: one published version per case (a constraint).
        case.versions.filter(status=VersionStatus.PUBLISHED).update(status=VersionStatus.ARCHIVED)
        status = VersionStatus.PUBLISHED
    version = CaseVersion.objects.create(
        case=case,
        number=number,
        status=status,
        published_at=timezone.now() if publish else None,
        format=data.format,
        title=data.title,
        difficulty=data.difficulty,
        language=data.language,
        min_players=data.min_players,
        max_players=data.max_players,
        introduction=data.introduction,
        special_rules=data.special_rules,
        solution=data.solution,
        start_carriages=data.start_carriages,
        start_police=data.start_police,
        start_call_off=data.start_call_off,
        start_lockpick=data.start_lockpick,
        start_zone=data.start_zone,
        travel_cost=data.travel_cost,
        source_front_matter=data.source_front_matter,
        source_body=data.source_body,
    )
    _create_content(
        version,
        zones=[(zone.key, zone.name) for zone in data.zones],
        questions=data.questions,
        locations=[(loc, loc.zone) for loc in data.locations],
    )
    return version


def _create_content(version: CaseVersion, *, zones, questions, locations) -> None:
    """The zones, questions and location cards of a new version, in the order given.

    Shared by imports (plain case data) and copies (model rows): both carry the same
    attribute names. `zones` are (key, name) pairs; `locations` are (card, zone key) pairs.
    """
    zones_by_key = {
        key: Zone.objects.create(version=version, key=key, name=name, position=position)
        for position, (key, name) in enumerate(zones)
    }
    Question.objects.bulk_create(
        Question(
            version=version,
            position=position,
            key=q.key,
            ask=q.ask,
            kind=q.kind,
            answer=q.answer,
            accept=list(q.accept),
            reject=list(q.reject),
            evidence=list(q.evidence),
        )
        for position, q in enumerate(questions)
    )
    Location.objects.bulk_create(
        Location(
            version=version,
            number=loc.number,
            name=loc.name,
            text=loc.text,
            icons=list(loc.icons),
            carriages=loc.carriages,
            zone=zones_by_key.get(zone_key),
            filename=loc.filename,
            source_front_matter=loc.source_front_matter,
        )
        for loc, zone_key in locations
    )


# --- Answer attempts -----------------------------------------------------------------


@transaction.atomic
def answer_attempt_judge(*, attempt_id: int) -> AnswerAttempt:
    """Judge every answer of an attempt, once.

    The row is locked first, so a second run (a retried task, a redelivered message) waits
    for the first and then finds the verdicts already stored: it changes nothing and counts
    no near miss twice.
    """
    attempt = AnswerAttempt.objects.select_for_update().get(pk=attempt_id)
    if attempt.judged_at is not None:
        return attempt
    # Only the questions answered: a Holmes answer check carries a single one.
    questions = attempt.version.questions.filter(key__in=list(attempt.answers)).order_by("position")
    verdicts = {}
    for question in questions:
        given = str(attempt.answers.get(question.key, ""))
        verdict = answers.judge(question, given)
        verdicts[question.key] = {
            "verdict": verdict.outcome,
            "score": round(verdict.score, 3),
            "reason": verdict.reason,
        }
        if verdict.outcome != answers.CORRECT and given.strip() and not attempt.private:
            near_miss_record(question=question, given=given, verdict=verdict)
    attempt.verdicts = verdicts
    attempt.judged_at = timezone.now()
    attempt.save(update_fields=["verdicts", "judged_at"])
    return attempt


def near_miss_record(*, question: Question, given: str, verdict) -> None:
    """Count a wrong or unsure answer under its normalised form."""
    normalised = answers.normalise(question.kind, given)[:300]
    if not normalised:
        return
    updated = NearMiss.objects.filter(question=question, normalised=normalised).update(
        count=F("count") + 1, verdict=verdict.outcome, last_seen=timezone.now()
    )
    if updated:
        return
    try:
        with transaction.atomic():  # a savepoint: a concurrent first sighting may win
            NearMiss.objects.create(
                question=question,
                normalised=normalised,
                example=given.strip()[:300],
                verdict=verdict.outcome,
                reason=verdict.reason[:300],
            )
    except IntegrityError:
        NearMiss.objects.filter(question=question, normalised=normalised).update(
            count=F("count") + 1, verdict=verdict.outcome, last_seen=timezone.now()
        )


# --- Versions written in the editor ---------------------------------------------------


@transaction.atomic
def case_version_copy(*, version: CaseVersion) -> CaseVersion:
    """A new draft version of the case with the content of `version`: its questions,
    location cards and zones, copied row by row. The case's next number is taken under a
    lock on the case row, as imports do."""
    case = Case.objects.select_for_update().get(pk=version.case_id)
    number = (case.versions.aggregate(Max("number"))["number__max"] or 0) + 1
    copy = CaseVersion.objects.get(pk=version.pk)
    copy.pk = None
    copy.number = number
    copy.status = VersionStatus.DRAFT
    copy.published_at = None
    copy.created_at = None
    copy.save()
    _create_content(
        copy,
        zones=[(zone.key, zone.name) for zone in version.zones.order_by("position")],
        questions=version.questions.order_by("position"),
        locations=[
            (loc, loc.zone.key if loc.zone else None)
            for loc in version.locations.select_related("zone").order_by("number")
        ],
    )
    return copy


def question_accept_form_add(*, question: Question, form: str) -> Question:
    """Add `form` to the question's accepted answers (once), and drop it from the rejected
    ones, where it would contradict the acceptance."""
    form = form.strip()
    accepted = [*question.accept]
    if form and form.casefold() not in {f.casefold() for f in [question.answer, *accepted]}:
        accepted.append(form)
    question.accept = accepted
    question.reject = [f for f in question.reject if f.casefold() != form.casefold()]
    question.save(update_fields=["accept", "reject"])
    return question


# --- Renumbering cards ------------------------------------------------------------------------

# Where a card number parks while the numbers of a save are moved: above any card number
# the format allows (cases.lint.MAX_CARD_NUMBER), distinct for each row.
_PARKED_NUMBER_BASE = 1_000_000


def location_numbers_release(*, location_ids: list[int]) -> None:
    """Move these cards' numbers out of the way before their new numbers are saved.

    Numbers are unique in a version, so swapping 6 and 7 one row at a time would meet the
    other row's number half-way; parked first, the rows then take their new numbers in any
    order. Call it in the transaction that saves the new numbers.
    """
    if location_ids:
        Location.objects.filter(pk__in=location_ids).update(number=_PARKED_NUMBER_BASE + F("pk"))


def renumbered_text(text: str, mapping: dict[int, int]) -> str:
    """`text` with each `[[old]]` card reference written `[[new]]` (all at once, so a swap
    of two numbers swaps their references too)."""

    def follow(match: re.Match) -> str:
        number = int(match.group(1))
        return f"[[{mapping[number]}]]" if number in mapping else match.group(0)

    return CARD_REFERENCE_RE.sub(follow, text)


@transaction.atomic
def card_references_renumber(*, version: CaseVersion, mapping: dict[int, int]) -> None:
    """After cards were renumbered (`mapping`: old number → new), make every `[[n]]` of
    the version's texts and every question's evidence list follow its card."""
    mapping = {old: new for old, new in mapping.items() if old != new}
    if not mapping:
        return
    version = CaseVersion.objects.select_for_update().get(pk=version.pk)
    texts = ("introduction", "special_rules", "solution")
    changed = []
    for name in texts:
        text = renumbered_text(getattr(version, name), mapping)
        if text != getattr(version, name):
            setattr(version, name, text)
            changed.append(name)
    if changed:
        version.save(update_fields=changed)
    for question in version.questions.all():
        ask = renumbered_text(question.ask, mapping)
        evidence = [mapping.get(number, number) for number in question.evidence]
        if ask != question.ask or evidence != question.evidence:
            question.ask, question.evidence = ask, evidence
            question.save(update_fields=["ask", "evidence"])
    for location in version.locations.all():
        text = renumbered_text(location.text, mapping)
        if text != location.text:
            location.text = text
            location.save(update_fields=["text"])


# --- Starting from the template -----------------------------------------------------------


@transaction.atomic
def case_start_from_template(*, author, slug: str, title: str) -> CaseVersion:
    """A new case, version 1 a draft, holding the template package's placeholders (the
    package `manage.py new_case` writes). Raises PackageInvalid when the slug or the title
    is not one a package may hold."""
    from .package.scaffold import scaffold_files

    return case_import_package(files=scaffold_files(slug=slug, title=title), author=author).version
