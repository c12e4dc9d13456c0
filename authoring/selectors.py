"""Reads of the authoring workflow: roles, what each user sees, the lint report of a
version as the editor shows it, the diff a moderator reads, the queue, and statistics.

Each function costs a fixed number of queries, whatever the size of a case or its history.
"""

import difflib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Prefetch, Q, QuerySet
from django.db.models.fields.json import KeyTextTransform

from cases.lint import lint_package
from cases.models import Case, CaseVersion, Location, NearMiss, Question, VersionStatus, Zone
from cases.package.data import CASE_FILE, Problem, Severity
from cases.package.writer import default_filename, package_files
from cases.selectors import case_version_data
from play.models import Table, TableAttempt, TableEvent, TableStatus
from play.selectors import case_figures

from .models import (
    AUTHORS_GROUP,
    MODERATORS_GROUP,
    Review,
    ReviewComment,
    ReviewReply,
    ReviewRound,
)

# Versions an author is still writing (editable), and those a moderator looks at.
EDITABLE = (VersionStatus.DRAFT, VersionStatus.CHANGES_REQUESTED)
UNDER_REVIEW = (VersionStatus.SUBMITTED, VersionStatus.IN_REVIEW)
OPEN = (*EDITABLE, *UNDER_REVIEW)


# --- Roles --------------------------------------------------------------------------------


def _in_group(user, name: str) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    cache = getattr(user, "_holmes_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._holmes_groups = cache
    return name in cache


def is_author(user) -> bool:
    return bool(getattr(user, "is_superuser", False)) or _in_group(user, AUTHORS_GROUP)


def is_moderator(user) -> bool:
    return bool(getattr(user, "is_superuser", False)) or _in_group(user, MODERATORS_GROUP)


def owns(user, version: CaseVersion) -> bool:
    return user.is_superuser or (is_author(user) and version.case.author_id == user.pk)


# A version whose review is over: published (or archived since), its solution and its
# author are the players' to read.
DECIDED = (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED)
AUTHOR_HIDDEN_AS = "the author"


def solution_hidden(*, user, version: CaseVersion) -> bool:
    """Blind review: until the version is published, whoever reads it but its author sees
    neither the solution nor the answers (in the editor, an export, a print or a lookup)
    unless they are the moderator who claimed its review and revealed it. The status does
    not matter: a version sent back with changes requested, or resubmitted, is as blind as
    it was, so that the play-test tests the case and not the moderator's memory. A
    superuser who is not the claiming moderator is no exception: they may claim it next."""
    if version.status in DECIDED or version.case.author_id == user.pk:
        return False
    review = Review.objects.filter(version=version).only("moderator_id", "revealed_at").first()
    if review is None:
        return not owns(user, version)
    return not (review.moderator_id == user.pk and review.revealed_at is not None)


def author_hidden(*, user, version: CaseVersion) -> bool:
    """Until the moderator decides (the version is published), nobody but the author reads
    who wrote a version that was submitted: pages say "the author" instead."""
    if version.status in DECIDED or version.case.author_id == user.pk:
        return False
    return version.status in (*UNDER_REVIEW, VersionStatus.CHANGES_REQUESTED)


def author_name(*, user, version: CaseVersion) -> str:
    """The name of the version's author as `user` may read it."""
    if author_hidden(user=user, version=version):
        return AUTHOR_HIDDEN_AS
    author = version.case.author
    return author.public_name if author else "nobody"


def versions_for_user(*, user) -> QuerySet[CaseVersion]:
    """The versions a user may see in the editor: an author their own cases, a moderator
    the versions submitted or in review (and any they claimed), a superuser everything."""
    versions = CaseVersion.objects.select_related("case", "case__author", "review")
    if user.is_superuser:
        return versions
    visible = Q(pk__in=[])
    if is_author(user):
        visible |= Q(case__author=user)
    if is_moderator(user):
        visible |= Q(status__in=UNDER_REVIEW) | Q(review__moderator=user)
    return versions.filter(visible)


def open_version_of(*, case: Case) -> CaseVersion | None:
    """The version of the case being written or reviewed, if any (at most one)."""
    return case.versions.filter(status__in=OPEN).order_by("-number").first()


def published_version_of(*, case: Case) -> CaseVersion | None:
    return case.versions.filter(status=VersionStatus.PUBLISHED).first()


# --- The lint report ----------------------------------------------------------------------

# Package keys (as the reader records their lines) → the editor's field names.
CASE_FIELDS = {
    "title": "title", "difficulty": "difficulty", "language": "language",
    "players.min": "min_players", "players.max": "max_players",
    "start.carriages": "start_carriages", "start.police": "start_police",
    "start.call_off": "start_call_off", "start.lockpick": "start_lockpick",
    "zones.start": "start_zone", "zones.travel_cost": "travel_cost",
    "introduction": "introduction", "special_rules": "special_rules", "solution": "solution",
}  # fmt: skip
QUESTION_FIELDS = ("id", "ask", "kind", "answer", "accept", "reject", "evidence")
# The editor's names for the fields a problem can point at (its form labels, lowercased).
FIELD_LABELS = {
    "question": {"key": "id", "ask": "question", "accept": "accepted forms",
                 "reject": "rejected forms", "evidence": "evidence cards"},
    "zone": {"name": "name"},
}  # fmt: skip
SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
LOCATION_FIELDS = ("number", "name", "icons", "carriages", "zone", "text")


@dataclass(frozen=True)
class LintItem:
    """A problem of the linter, and the editor field it concerns.

    `target` is "case", "question", "location" or "zone"; `target_id` the row's id (None
    for the case itself); `field` the form field's name, or "" for the whole row.
    """

    problem: Problem
    target: str
    target_id: int | None
    field: str
    label: str

    @property
    def severity(self) -> str:
        return str(self.problem.severity)

    @property
    def severity_word(self) -> str:
        """What the writer reads: error, warning or note."""
        return "note" if self.problem.severity == Severity.INFO else self.severity

    # The problem said in the editor's words, when the package's words would not do.
    wording: str = ""

    @property
    def message(self) -> str:
        return self.wording or self.problem.message

    @property
    def is_error(self) -> bool:
        return self.problem.is_error


@dataclass(frozen=True)
class LintReport:
    items: list[LintItem]

    @property
    def errors(self) -> list[LintItem]:
        return [item for item in self.items if item.problem.severity == Severity.ERROR]

    @property
    def warnings(self) -> list[LintItem]:
        return [item for item in self.items if item.problem.severity == Severity.WARNING]

    @property
    def notes(self) -> list[LintItem]:
        return [item for item in self.items if item.problem.severity == Severity.INFO]

    @property
    def is_clean(self) -> bool:
        return not self.errors

    def for_target(self, target: str, target_id: int | None) -> list[LintItem]:
        return [i for i in self.items if i.target == target and i.target_id == target_id]


def version_lint(*, version: CaseVersion) -> LintReport:
    """Lint a version as the package it exports to, and point each problem at its field.

    Linting the exported package (rather than the bare data) gives every problem the file
    and line an author sees in a downloaded package, and the reader's record of which key
    sits on which line lets us walk back from a line to the question, card and field.
    """
    data = case_version_data(version=version)
    questions = dict(version.questions.order_by("position").values_list("pk", "key"))
    cards = dict(version.locations.order_by("filename", "number").values_list("pk", "number"))
    zones = dict(version.zones.order_by("position").values_list("pk", "name"))
    card_files = {}
    for pk, location in zip(cards, data.locations, strict=True):
        card_files[f"locations/{location.filename or default_filename(location)}"] = pk
    parsed, problems = lint_package(package_files(data))
    if parsed is None:
        return LintReport([LintItem(p, "case", None, "", "The case") for p in problems])
    case_lines = _case_line_index(parsed, list(questions), list(zones))
    card_lines = {}
    for location in parsed.locations:
        pk = card_files.get(location.path)
        card_lines[location.path] = [
            (line, ("location", pk, key)) for key, line in location.lines.items()
        ]
    names = {"question": questions, "location": cards, "zone": zones}
    items = []
    for problem in problems:
        if problem.file == CASE_FILE:
            target, target_id, key = _at_line(case_lines, problem.line, ("case", None, ""))
        elif problem.file in card_files:
            pk = card_files[problem.file]
            target, target_id, key = _at_line(
                card_lines.get(problem.file, []), problem.line, ("location", pk, "")
            )
        else:
            target, target_id, key = "case", None, ""
        field_name = _field_name(target, key)
        wording, field_name = _in_editor_words(problem.message, target, field_name)
        name = names.get(target, {}).get(target_id)
        items.append(
            LintItem(
                problem, target, target_id, field_name, _label(target, name, field_name), wording
            )
        )
    # Errors first, then warnings, then notes; in reading order within each.
    items.sort(key=lambda item: SEVERITY_ORDER.get(item.problem.severity, len(SEVERITY_ORDER)))
    return LintReport(items)


# The package reader speaks of files, headings and keys; a writer in the editor sees
# fields. These problems are said again in the editor's words, with the field they are
# about when the package could not tell it (an empty section has no line of its own).
EMPTY_SECTION = re.compile(r"^the # (Introduction|Special rules|Solution) section is empty")
NO_CARDS = re.compile(r"^the package has no location cards")
EMPTY_KEY = re.compile(r'^"(\w+)"(?: of question "(.*)")? is empty$')
EMPTY_SENTENCES = {
    ("question", "ask"): 'question "{name}" asks nothing yet',
    ("question", "answer"): 'question "{name}" has no answer yet',
    ("question", "id"): "the question has no id yet",
    ("location", "name"): "the card has no name yet",
    ("case", "title"): "the case has no title yet",
}


def _in_editor_words(message: str, target: str, field_name: str) -> tuple[str, str]:
    """(the sentence for the editor, or "" to keep the linter's; the field it is about)."""
    if match := EMPTY_SECTION.match(message):
        section = match[1].lower()
        return f"the {section} is empty", section.replace(" ", "_")
    if NO_CARDS.match(message):
        return "the case has no location card yet: add one under Location cards", field_name
    if match := EMPTY_KEY.match(message):
        sentence = EMPTY_SENTENCES.get((target, match[1]))
        if sentence:
            return sentence.format(name=match[2] or ""), field_name
    return "", field_name


def _case_line_index(parsed, questions: list[int], zones: list[int]) -> list:
    index = [(line, ("case", None, key)) for key, line in parsed.lines.items()]
    for pk, question in zip(questions, parsed.questions, strict=False):
        index += [(line, ("question", pk, key)) for key, line in question.lines.items()]
    for pk, zone in zip(zones, parsed.zones, strict=False):
        if zone.line:
            index.append((zone.line, ("zone", pk, "name")))
    return index


def _at_line(index: list, line: int | None, default: tuple) -> tuple:
    """The key written on `line`, or the last key before it (a line inside a text or a
    list belongs to the key that opened it). The most specific key wins a tie."""
    if not line:
        return default
    best = None
    for at, where in index:
        if at is None or at > line:
            continue
        rank = (at, where[0] != "case", len(where[2]))
        if best is None or rank > best[0]:
            best = (rank, where)
    return best[1] if best else default


def _field_name(target: str, key: str) -> str:
    base = key.split(".", 1)[0]
    if target == "case":
        return CASE_FIELDS.get(key, CASE_FIELDS.get(base, ""))
    if target == "question":
        return {"id": "key"}.get(base, base) if base in QUESTION_FIELDS else ""
    if target == "location":
        return base if base in LOCATION_FIELDS else ""
    if target == "zone":
        return "name"
    return ""


def _label(target: str, name, field_name: str) -> str:
    """Where a problem is, in the words of the editor: "Card 5 · text", "Question thief ·
    accepted forms", "Case · introduction"."""
    where = {
        "case": "Case",
        "question": f"Question {name}",
        "location": f"Card {name}",
        "zone": f"Zone {name}",
    }[target]
    if name is None and target != "case":
        where = f"A {target}"
    field_label = FIELD_LABELS.get(target, {}).get(field_name, field_name.replace("_", " "))
    return f"{where} · {field_label}" if field_label else where


# --- What changed since the published version ---------------------------------------------


@dataclass(frozen=True)
class FieldChange:
    field: str
    label: str
    before: str
    after: str
    # difflib's unified lines for texts: ("+" | "-" | " " | "@", text)
    lines: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class ItemDiff:
    kind: str  # "case", "zone", "question", "location"
    key: str  # question id, card number, zone key
    label: str
    status: str  # "added", "removed", "changed"
    changes: list[FieldChange]
    # The row in the new version (None when removed), so comments can point at it.
    target_id: int | None = None


@dataclass(frozen=True)
class VersionDiff:
    base: CaseVersion | None
    items: list[ItemDiff]
    # Set when the diff starts at what the moderator read when they last requested changes
    # (`review_diff`), rather than at `base`.
    since_review_at: datetime | None = None

    @property
    def case(self) -> list[ItemDiff]:
        return [item for item in self.items if item.kind in ("case", "zone")]

    @property
    def questions(self) -> list[ItemDiff]:
        return [item for item in self.items if item.kind == "question"]

    @property
    def locations(self) -> list[ItemDiff]:
        return [item for item in self.items if item.kind == "location"]


VERSION_DIFF_FIELDS = [
    ("title", "Title"), ("difficulty", "Difficulty"), ("language", "Language"),
    ("min_players", "Fewest players"), ("max_players", "Most players"),
    ("start_carriages", "Start carriages"), ("start_police", "Start police"),
    ("start_call_off", "Start call-off"), ("start_lockpick", "Start lockpick"),
    ("start_zone", "Start zone"), ("travel_cost", "Travel cost"),
    ("introduction", "Introduction"), ("special_rules", "Special rules"),
    ("solution", "Solution"),
]  # fmt: skip
QUESTION_DIFF_FIELDS = [
    ("ask", "Question"), ("kind", "Kind"), ("answer", "Answer"), ("accept", "Accepted forms"),
    ("reject", "Rejected forms"), ("evidence", "Evidence cards"), ("position", "Position"),
]  # fmt: skip
LOCATION_DIFF_FIELDS = [
    ("name", "Name"), ("icons", "Icons"), ("carriages", "Carriages"), ("zone", "Zone"),
    ("text", "Text"),
]  # fmt: skip
TEXT_FIELDS = {"introduction", "special_rules", "solution", "ask", "text"}


def version_diff(*, version: CaseVersion) -> VersionDiff:
    """What changed in `version` since the case's published version (or, when none was
    ever published, since the newest earlier one that was), card by card and question by
    question. A first version compares with nothing: everything is added."""
    base = (
        CaseVersion.objects.filter(
            case_id=version.case_id,
            status__in=(VersionStatus.PUBLISHED, VersionStatus.ARCHIVED),
            number__lt=version.number,
        )
        .exclude(published_at__isnull=True)
        .order_by("-published_at", "-number")
        .first()
    )
    return VersionDiff(base=base, items=_diff(_content(version), _content(base) if base else None))


def review_diff(*, review: Review, user) -> VersionDiff:
    """The diff a moderator reads on the review page: after a resubmission, only what
    changed since they last requested changes ("changes since your last review");
    otherwise, and for any other moderator, what changed since the published version."""
    snapshot = review.reviewed_content
    if snapshot is None or review.reviewed_by_id != user.pk:
        return version_diff(version=review.version)
    return VersionDiff(
        base=None,
        items=_diff(_content(review.version), _from_snapshot(snapshot)),
        since_review_at=review.reviewed_at,
    )


def version_snapshot(*, version: CaseVersion) -> dict:
    """What the diff compares, as JSON: kept on the review when changes are requested.
    Rows are named by question id, card number and zone key, never by their row ids."""
    content = _content(version)
    return {
        "version": content["version"],
        **{
            kind: {str(key): _without_pk(row) for key, row in content[kind].items()}
            for kind in ("zone", "question", "location")
        },
    }


def _without_pk(row: dict) -> dict:
    return {name: value for name, value in row.items() if name != "pk"}


def _from_snapshot(snapshot: dict) -> dict:
    """A stored snapshot in `_content`'s shape again (JSON keeps card numbers as text)."""
    return {
        "version": snapshot.get("version", {}),
        "zone": snapshot.get("zone", {}),
        "question": snapshot.get("question", {}),
        "location": {int(number): row for number, row in snapshot.get("location", {}).items()},
    }


def _diff(new: dict, old: dict | None) -> list[ItemDiff]:
    items = []
    before_values = old["version"] if old else {}
    changes = _changes(VERSION_DIFF_FIELDS, before_values, new["version"])
    if changes:
        items.append(ItemDiff("case", "", "The case", "changed", changes))
    for kind, label, fields in (
        ("zone", "Zone {}", [("name", "Name")]),
        ("question", 'Question "{}"', QUESTION_DIFF_FIELDS),
        ("location", "Card {}", LOCATION_DIFF_FIELDS),
    ):
        before = old[kind] if old else {}
        after = new[kind]
        for key in [*after, *(k for k in before if k not in after)]:
            b, a = before.get(key), after.get(key)
            status = "added" if b is None else "removed" if a is None else "changed"
            changes = _changes(fields, b or {}, a or {})
            if changes or status != "changed":
                target_id = a["pk"] if a else None
                items.append(
                    ItemDiff(kind, str(key), label.format(key), status, changes, target_id)
                )
    return items


def _content(version: CaseVersion) -> dict:
    zone_rows = list(Zone.objects.filter(version=version).order_by("position"))
    zones = {z.pk: z.key for z in zone_rows}
    values = {name: getattr(version, name) for name, _ in VERSION_DIFF_FIELDS}
    return {
        "version": values,
        "zone": {z.key: {"pk": z.pk, "name": z.name} for z in zone_rows},
        "question": {
            q.key: {"pk": q.pk, **{name: getattr(q, name) for name, _ in QUESTION_DIFF_FIELDS}}
            for q in Question.objects.filter(version=version).order_by("position")
        },
        "location": {
            loc.number: {
                "pk": loc.pk,
                **{name: getattr(loc, name) for name, _ in LOCATION_DIFF_FIELDS if name != "zone"},
                "zone": zones.get(loc.zone_id, ""),
            }
            for loc in Location.objects.filter(version=version).order_by("number")
        },
    }


def _as_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _as_written(text: str) -> str:
    """A text as its writer means it: browsers send a textarea's lines ending in CRLF and
    the form strips the ends, so a text saved in the editor unchanged must compare equal
    to the same text imported from a package."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _changes(fields, before: dict, after: dict) -> list[FieldChange]:
    changes = []
    for name, label in fields:
        b, a = _as_text(before.get(name)), _as_text(after.get(name))
        if name in TEXT_FIELDS:
            b, a = _as_written(b), _as_written(a)
        if b == a:
            continue
        lines = []
        if name in TEXT_FIELDS:
            for line in list(
                difflib.unified_diff(b.splitlines(), a.splitlines(), lineterm="", n=2)
            )[2:]:
                lines.append((line[:1] or " ", line[1:]))
        changes.append(FieldChange(name, label, b, a, lines))
    return changes


# --- Review -------------------------------------------------------------------------------


def reviews_for(*, user) -> QuerySet[Review]:
    """The reviews a moderator may open: the queue, and the versions they sent back with
    changes requested (to answer the author's replies while they wait); a superuser opens
    every one sent back."""
    waiting = Q(version__status=VersionStatus.CHANGES_REQUESTED)
    if not user.is_superuser:
        waiting &= Q(moderator=user)
    return (
        Review.objects.filter(Q(version__status__in=UNDER_REVIEW) | waiting)
        .select_related("version", "version__case", "version__case__author", "moderator")
        .order_by("submitted_at", "pk")
    )


def review_for_page(*, user, pk: int) -> Review | None:
    """The review whose page this moderator may open: one of `reviews_for`, or a decided
    one (its version published, or archived since), whose page keeps the case's history
    and leads to the published case, so that no old link ends in "not found"."""
    decided = Q(version__status__in=DECIDED)
    return (
        Review.objects.filter(Q(pk__in=reviews_for(user=user).values("pk")) | decided, pk=pk)
        .select_related("version", "version__case", "version__case__author", "moderator")
        .first()
    )


def review_holder(*, pk: int) -> str | None:
    """Who holds a review another moderator may not open (None: there is no such review)."""
    review = Review.objects.select_related("moderator").filter(pk=pk).first()
    if review is None:
        return None
    return review.moderator.public_name if review.moderator else "Another moderator"


@dataclass(frozen=True)
class HistoryEntry:
    round: ReviewRound
    comments: list[ReviewComment]


def review_history(*, case: Case) -> list[HistoryEntry]:
    """Every decision on every version of the case, oldest first: who decided what and
    when, with the comments of that round (written between its submission and the
    decision). Two queries, whatever the length of the history."""
    rounds = list(
        ReviewRound.objects.filter(version__case=case)
        .select_related("version", "moderator")
        .order_by("decided_at", "pk")
    )
    if not rounds:
        return []
    comments = defaultdict(list)
    for comment in (
        ReviewComment.objects.filter(version__case=case)
        .select_related("moderator", "question", "location")
        .order_by("created_at", "pk")
    ):
        comments[comment.version_id].append(comment)
    return [
        HistoryEntry(
            round=row,
            comments=[
                c
                for c in comments[row.version_id]
                if row.submitted_at <= c.created_at <= row.decided_at
            ],
        )
        for row in rounds
    ]


def review_comments(*, version: CaseVersion) -> list[ReviewComment]:
    return list(
        ReviewComment.objects.filter(version=version)
        .select_related("moderator", "question", "location")
        .order_by("created_at", "pk")
    )


def comment_threads(*, version: CaseVersion, open_only: bool = False) -> list[ReviewComment]:
    """The version's comments with their replies (`comment.replies.all()`), in two queries.

    `open_only` is what the author's editor shows: no resolved thread, and nothing at all
    on a published or archived version (its review is over; the comments stay stored).
    """
    if open_only and version.status in (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED):
        return []
    comments = ReviewComment.objects.filter(version=version)
    if open_only:
        comments = comments.filter(resolved_at__isnull=True)
    return list(
        comments.select_related("moderator", "question", "location", "resolved_by")
        .prefetch_related(
            Prefetch(
                "replies",
                queryset=ReviewReply.objects.select_related("author").order_by("created_at", "pk"),
            )
        )
        .order_by("created_at", "pk")
    )


# --- Statistics for authors ---------------------------------------------------------------


@dataclass(frozen=True)
class QuestionStatistics:
    key: str
    ask: str
    answered: int
    correct: int
    near_misses: list[NearMiss]

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answered if self.answered else None


@dataclass(frozen=True)
class CaseStatistics:
    plays: int
    in_progress: int
    solved: int
    rounds_to_solve: dict[int, int]  # rounds → tables solved in that many rounds
    questions: list[QuestionStatistics]
    most_visited: list[tuple[int, str, int]]  # card number, name, visits

    @property
    def solve_rate(self) -> float | None:
        return self.solved / self.plays if self.plays else None

    @property
    def average_rounds(self) -> float | None:
        total = sum(self.rounds_to_solve.values())
        if not total:
            return None
        return sum(r * n for r, n in self.rounds_to_solve.items()) / total


def case_statistics(*, case: Case, near_misses: int = 10) -> CaseStatistics:
    """How players fared on every version of a case, play-tests left out.

    A fixed number of queries whatever the number of tables, attempts and events: how
    tables ended comes from play's `case_figures`, visits are counted in the database.
    """
    tables = Table.objects.filter(case_version__case=case, is_private=False)
    in_progress = tables.filter(status=TableStatus.PLAYING).count()
    figures = case_figures(case_ids=[case.pk]).get(case.pk)
    verdicts = TableAttempt.objects.filter(
        table__case_version__case=case,
        table__is_private=False,
        attempt__judged_at__isnull=False,
    ).values_list("attempt__verdicts", flat=True)
    answered, correct = Counter(), Counter()
    for judged in verdicts:
        for key, verdict in (judged or {}).items():
            answered[key] += 1
            correct[key] += verdict.get("verdict") == "correct"
    reference = _reference_version(case)
    questions = list(reference.questions.order_by("position")) if reference else []
    misses = defaultdict(list)
    for miss in (
        NearMiss.objects.filter(question__version__case=case)
        .select_related("question")
        .order_by("-count", "normalised")
    ):
        forms = misses[miss.question.key]
        # The same wrong form seen on several versions is one line, its counts added.
        same = next((m for m in forms if m.normalised == miss.normalised), None)
        if same is not None:
            same.count += miss.count
        elif len(forms) < near_misses:
            forms.append(miss)
    visits = (
        TableEvent.objects.filter(
            table__case_version__case=case, table__is_private=False, type="visited"
        )
        .annotate(card=KeyTextTransform("location", "payload"))
        .values("card")
        .annotate(visits=Count("pk"))
        .order_by("-visits", "card")[:10]
    )
    names = {loc.number: loc.name for loc in reference.locations.all()} if reference else {}
    most_visited = [
        (int(row["card"]), names.get(int(row["card"]), ""), row["visits"])
        for row in visits
        if row["card"] is not None
    ]
    return CaseStatistics(
        plays=figures.plays if figures else 0,
        in_progress=in_progress,
        solved=figures.solved if figures else 0,
        rounds_to_solve=figures.rounds_to_solve if figures else {},
        questions=[
            QuestionStatistics(
                key=q.key,
                ask=q.ask,
                answered=answered[q.key],
                correct=correct[q.key],
                near_misses=misses.get(q.key, []),
            )
            for q in questions
        ],
        most_visited=most_visited,
    )


def _reference_version(case: Case) -> CaseVersion | None:
    """The version whose questions and cards the statistics are listed by: the published
    one, else the newest."""
    published = published_version_of(case=case)
    return published or case.versions.order_by("-number").first()
