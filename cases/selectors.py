"""Reads of the case domain. Views and the API call these; they never filter models."""

from collections.abc import Callable

from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404

from .lint import lint_package
from .models import AnswerAttempt, CaseVersion, Location, Question, VersionStatus
from .package.data import CaseData, LocationData, Problem, QuestionData, ZoneData
from .package.writer import package_files


def published_versions() -> QuerySet[CaseVersion]:
    """The versions players can see: one per published case, easiest first."""
    return (
        CaseVersion.objects.filter(status=VersionStatus.PUBLISHED)
        .select_related("case")
        .order_by("difficulty", "title")
    )


def published_version_for_slug(slug: str) -> CaseVersion:
    """The published version of a case with its questions, or 404 for everything else.

    Drafts and submitted versions are not public: they answer 404 like a missing case.
    """
    questions = Prefetch("questions", queryset=Question.objects.order_by("position"))
    version = published_versions().filter(case__slug=slug).prefetch_related(questions).first()
    if version is None:
        raise Http404("No published case has this address.")
    return version


def latest_version_for_slug(slug: str, *, number: int | None = None) -> CaseVersion | None:
    """A case's newest version whatever its status (or version `number`), for its author
    and the package commands; None when there is none."""
    versions = CaseVersion.objects.filter(case__slug=slug).select_related("case")
    if number is not None:
        versions = versions.filter(number=number)
    return versions.order_by("-number").first()


def case_version_data(*, version: CaseVersion) -> CaseData:
    """A version as plain case data (what the linter checks and the package writer writes)."""
    zones = list(version.zones.order_by("position"))
    questions = version.questions.order_by("position")
    locations = version.locations.select_related("zone").order_by("filename", "number")
    return CaseData(
        format=version.format,
        slug=version.case.slug,
        title=version.title,
        difficulty=version.difficulty,
        language=version.language,
        min_players=version.min_players,
        max_players=version.max_players,
        start_carriages=version.start_carriages,
        start_police=version.start_police,
        start_call_off=version.start_call_off,
        start_lockpick=version.start_lockpick,
        start_zone=version.start_zone,
        travel_cost=version.travel_cost,
        zones=tuple(ZoneData(key=zone.key, name=zone.name) for zone in zones),
        questions=tuple(_question_data(question) for question in questions),
        introduction=version.introduction,
        special_rules=version.special_rules,
        solution=version.solution,
        locations=tuple(_location_data(location) for location in locations),
        source_front_matter=version.source_front_matter,
        source_body=version.source_body,
    )


def _question_data(question: Question) -> QuestionData:
    return QuestionData(
        key=question.key,
        ask=question.ask,
        kind=question.kind,
        answer=question.answer,
        accept=tuple(question.accept),
        reject=tuple(question.reject),
        evidence=tuple(question.evidence),
    )


def _location_data(location: Location) -> LocationData:
    return LocationData(
        filename=location.filename,
        number=location.number,
        name=location.name,
        text=location.text,
        icons=tuple(location.icons),
        carriages=location.carriages,
        zone=location.zone.key if location.zone else "",
        source_front_matter=location.source_front_matter,
    )


def case_export_package(*, version: CaseVersion) -> dict[str, str]:
    """The version as package files, `{"case.md": ..., "locations/01-x.md": ...}`."""
    return package_files(case_version_data(version=version))


def case_lint_slug(*, slug: str) -> list[Problem] | None:
    """Lint the newest version of a case as its exported package, so that files and lines
    in the problems are those of the package `export_case` writes. None: no such case."""
    version = latest_version_for_slug(slug)
    if version is None:
        return None
    _, problems = lint_package(case_export_package(version=version))
    return problems


# --- The catalogue (issue 6): published cases with how they have fared at tables ---------


# Estimated playing time from a case's size, until enough tables have finished it: the
# set-up and reading the introduction, then a few minutes for each card to be read.
MINUTES_BEFORE_PLAY = 15
MINUTES_PER_CARD = 2.5
# Finished tables needed before their own times are trusted over the estimate.
TABLES_FOR_A_TIME = 3
CATALOGUE_SORTS = {
    "easiest": "Easiest first",
    "newest": "Newest first",
    "most_played": "Most played",
    "solve_rate": "Most often solved",
}


def catalogue(
    *,
    difficulty: int | None = None,
    players: int | None = None,
    sort: str = "easiest",
    figures: Callable[[list[int]], dict] | None = None,
) -> list[CaseVersion]:
    """Published versions, filtered by difficulty and by a group's size, sorted as asked;
    each with `cards`, `plays` (finished tables of the case, all versions together, no
    play-tests), `solve_rate` (a percentage, None before any play) and `minutes` (the
    tables' mean playing time once TABLES_FOR_A_TIME have finished, else an estimate
    from the cards; `minutes_measured` says which).

    `figures(case_ids)` tells how tables of those cases fared (play's `case_figures`:
    tables are play's, and this app never imports it); without it, no case has been
    played. One query, and what `figures` costs.
    """
    versions = published_versions().annotate(cards=Count("locations"))
    if difficulty is not None:
        versions = versions.filter(difficulty=difficulty)
    if players is not None:
        versions = versions.filter(min_players__lte=players, max_players__gte=players)
    versions = list(versions)
    by_case = figures([version.case_id for version in versions]) if figures else {}
    for version in versions:
        row = by_case.get(version.case_id)
        version.plays = row.plays if row else 0
        version.solve_rate = round(100 * row.solved / row.plays) if row and row.plays else None
        measured = row.playing_time if row and row.timed >= TABLES_FOR_A_TIME else None
        version.minutes_measured = measured is not None
        if measured is not None:
            minutes = measured.total_seconds() / 60
        else:
            minutes = MINUTES_BEFORE_PLAY + MINUTES_PER_CARD * version.cards
        version.minutes = max(5, round(minutes / 5) * 5)  # to the nearest five minutes
    return _sorted(versions, sort)


def _sorted(versions: list[CaseVersion], sort: str) -> list[CaseVersion]:
    if sort == "newest":
        return sorted(versions, key=lambda v: v.published_at or v.created_at, reverse=True)
    if sort == "most_played":
        return sorted(versions, key=lambda v: (-v.plays, v.difficulty, v.title))
    if sort == "solve_rate":
        # Cases never played go last: no rate is not a rate of 0.
        return sorted(
            versions,
            key=lambda v: (v.solve_rate is None, -(v.solve_rate or 0), v.difficulty, v.title),
        )
    return versions  # easiest first, as published_versions orders them


def count_judgements_waiting() -> int:
    """Answer attempts not judged yet, on every table and play-test: the operators'
    `holmes_judgements_pending` (a queue that grows means the workers fall behind)."""
    return AnswerAttempt.objects.filter(judged_at__isnull=True).count()
