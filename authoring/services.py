"""Writes of the authoring workflow: roles, the review transitions, new drafts, comments,
play-tests, imports and near misses.

Each transition is split, zulip-style, into a check and a do: `check_case_submit(...)`
raises `WorkflowRefused` with a plain sentence when the step is not allowed, and changes
nothing; `case_submit(...)` locks the version row, runs the same check again (the state
may have moved since the page was drawn), then acts. Views call the check to explain a
refusal before offering a button, and the do to act.

    draft ──submit──▶ submitted ──claim──▶ in_review ──approve──▶ published ──▶ archived
                                             │   ▲
      changes_requested ◀──request changes───┘   │
              └──resubmit────────────────────────┘  (back to the moderator who asked)

A comment of the moderator is a thread: the author and the moderator reply to it, and
either of them resolves it (or reopens it) until the version is published.
"""

from dataclasses import dataclass

from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cases import services as case_services
from cases.lint import lint_package
from cases.models import CaseVersion, Location, NearMiss, Question, VersionStatus
from cases.package.reader import read_zip
from cases.services import ImportResult, PackageInvalid
from holmes_site.outbox import outbox_enqueue

from . import selectors
from .models import (
    AUTHORS_GROUP,
    MODERATORS_GROUP,
    ROLE_PERMISSIONS,
    Playtest,
    Review,
    ReviewComment,
    ReviewDecision,
    ReviewReply,
    ReviewRound,
)
from .selectors import EDITABLE, UNDER_REVIEW, LintReport, is_author, is_moderator, owns


class WorkflowRefused(Exception):
    """A step the workflow does not allow now: `str()` says why, `code` is for machines."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def _status(version: CaseVersion) -> str:
    return version.get_status_display().lower()


def _lock(version: CaseVersion) -> CaseVersion:
    """The version row again, locked: two moderators clicking at once take turns."""
    return CaseVersion.objects.select_for_update().get(pk=version.pk)


# --- Roles --------------------------------------------------------------------------------


def _role_group(name: str) -> Group:
    """The role's group, made again with its permissions if it is missing (a migration
    makes both; a flushed database, as in tests that commit, has lost them)."""
    group, created = Group.objects.get_or_create(name=name)
    if created:
        codes = [code.split(".") for code in ROLE_PERMISSIONS[name]]
        query = Q()
        for app_label, codename in codes:
            query |= Q(content_type__app_label=app_label, codename=codename)
        group.permissions.set(Permission.objects.filter(query))
    return group


@transaction.atomic
def user_make_author(*, user) -> None:
    """Authors write in the editor, which is the admin: they need staff access too."""
    user.groups.add(_role_group(AUTHORS_GROUP))
    user.is_staff = True
    user.save(update_fields=["is_staff"])


@transaction.atomic
def user_make_moderator(*, user) -> None:
    user.groups.add(_role_group(MODERATORS_GROUP))
    user.is_staff = True
    user.save(update_fields=["is_staff"])


# --- Writing --------------------------------------------------------------------------------


def check_case_edit(*, version: CaseVersion, user) -> None:
    if not owns(user, version):
        raise WorkflowRefused("Only the author of this case can edit it.", "not_author")
    if version.status in (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED):
        raise WorkflowRefused(
            f"Version {version.number} is {_status(version)} and cannot change; "
            "edit it as a new draft version instead.",
            "immutable",
        )
    if version.status not in EDITABLE:
        raise WorkflowRefused(
            f"Version {version.number} is {_status(version)}; it cannot be edited until "
            "the moderator has decided.",
            "under_review",
        )


def check_case_delete(*, version: CaseVersion, user) -> None:
    """A version is deleted by its author while they write it, until it has been
    submitted: a reviewed version keeps its review history (decisions and comments)."""
    check_case_edit(version=version, user=user)
    if Review.objects.filter(version=version).exists():
        raise WorkflowRefused(
            f"Version {version.number} was reviewed: it stays, with its review history. "
            "Edit it and submit it again instead.",
            "reviewed",
        )


def check_case_version_new_draft(*, version: CaseVersion, user) -> None:
    if not owns(user, version):
        raise WorkflowRefused("Only the author of this case can edit it.", "not_author")
    if version.status not in (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED):
        raise WorkflowRefused(
            f"Version {version.number} is {_status(version)}: edit it directly; only a "
            "published or archived version is copied into a new draft.",
            "not_published",
        )
    current = selectors.open_version_of(case=version.case)
    if current is not None:
        raise WorkflowRefused(
            f"Version {current.number} is already open ({_status(current)}); "
            "edit that one instead.",
            "open_version",
        )


@transaction.atomic
def case_version_new_draft(*, version: CaseVersion, user) -> CaseVersion:
    """Editing a published version: a new draft with a copy of its content. Tables keep
    the version they started with; the published version stays as it is."""
    version = _lock(version)
    check_case_version_new_draft(version=version, user=user)
    return case_services.case_version_copy(version=version)


def check_case_start(*, user, slug: str) -> None:
    from cases.models import Case

    if not is_author(user):
        raise WorkflowRefused("Only authors write cases.", "not_author")
    if Case.objects.filter(slug=slug).exists():
        raise WorkflowRefused(
            f'The slug "{slug}" is taken by another case; choose another slug.', "slug_taken"
        )


@transaction.atomic
def case_start(*, user, slug: str, version: CaseVersion) -> CaseVersion:
    """A new case owned by `user`, with `version` (filled in by the editor's add form,
    not saved yet) as its first version, a draft."""
    from cases.models import Case

    check_case_start(user=user, slug=slug)
    version.case = Case.objects.create(slug=slug, author=user)
    version.number = 1
    version.status = VersionStatus.DRAFT
    version.save()
    return version


def check_case_import(*, user, files) -> None:
    if not is_author(user):
        raise WorkflowRefused("Only authors import cases.", "not_author")
    data, problems = lint_package(files)
    if data is None or any(problem.is_error for problem in problems):
        raise PackageInvalid(problems)
    version = (
        CaseVersion.objects.filter(case__slug=data.slug, status__in=selectors.OPEN)
        .select_related("case")
        .first()
    )
    if version is not None and version.case.author_id in (None, user.pk):
        raise WorkflowRefused(
            f"Version {version.number} of this case is still open ({_status(version)}); "
            "finish or delete it before importing a new one.",
            "open_version",
        )


@transaction.atomic
def case_import_zip(*, user, content: bytes) -> ImportResult:
    """Import a zipped package as a new draft version of the user's case.

    Raises `PackageInvalid` (every problem of the package) or `WorkflowRefused`.
    """
    files = read_zip(content, label="the uploaded zip")
    check_case_import(user=user, files=files)
    return case_services.case_import_package(files=files, author=user)


# --- Submitting -----------------------------------------------------------------------------


def check_case_submit(*, version: CaseVersion, user) -> LintReport:
    """Returns the lint report (warnings are allowed, and shown) when submitting may go on."""
    if not owns(user, version):
        raise WorkflowRefused("Only the author of this case can submit it.", "not_author")
    if version.status not in EDITABLE:
        raise WorkflowRefused(
            f"Version {version.number} is {_status(version)}; only a draft or a version "
            "with changes requested can be submitted.",
            "bad_status",
        )
    report = selectors.version_lint(version=version)
    if report.errors:
        count = len(report.errors)
        raise WorkflowRefused(
            f"The case has {count} error{'s' if count != 1 else ''} to fix before it can be "
            "submitted (warnings may stay).",
            "lint_errors",
        )
    return report


def _keeper(version: CaseVersion) -> Review | None:
    """On a resubmission, the review whose moderator keeps the case: the one who requested
    the changes, while they may still review it."""
    if version.status != VersionStatus.CHANGES_REQUESTED:
        return None
    review = Review.objects.select_related("moderator").filter(version=version).first()
    moderator = review.moderator if review else None
    if moderator is None or not is_moderator(moderator):
        return None
    if moderator.pk == version.case.author_id and not moderator.is_superuser:
        return None
    return review


@transaction.atomic
def case_submit(*, version: CaseVersion, user) -> Review:
    """Send a version to review. A first submission goes to the queue, unclaimed and
    blind. A resubmission (after changes were requested) goes back to the moderator who
    requested them, in review: they keep the claim, what they revealed stays revealed, and
    their diff starts at what they read then. When that moderator can no longer review it,
    a resubmission goes to the queue as a first one does."""
    version = _lock(version)
    check_case_submit(version=version, user=user)
    now = timezone.now()
    review = _keeper(version)
    if review is not None:
        version.status = VersionStatus.IN_REVIEW
        version.save(update_fields=["status"])
        review.submitted_by = user
        review.submitted_at = now
        review.decided_at = None
        review.save(update_fields=["submitted_by", "submitted_at", "decided_at"])
        _after_commit("notify_resubmission", version.pk, now.isoformat())
        return review
    version.status = VersionStatus.SUBMITTED
    version.save(update_fields=["status"])
    # A new review round: in the queue, unclaimed, blind.
    review, _ = Review.objects.update_or_create(
        version=version,
        defaults={
            "submitted_by": user,
            "submitted_at": now,
            "moderator": None,
            "claimed_at": None,
            "decided_at": None,
            "revealed_at": None,
        },
    )
    _after_commit("notify_new_submission", version.pk, now.isoformat())
    return review


# --- Reviewing ------------------------------------------------------------------------------


def _check_moderator(version: CaseVersion, user) -> None:
    if not is_moderator(user):
        raise WorkflowRefused("Only moderators review cases.", "not_moderator")
    if version.case.author_id == user.pk and not user.is_superuser:
        raise WorkflowRefused("You cannot review your own case.", "own_case")


def check_case_claim(*, version: CaseVersion, user) -> None:
    _check_moderator(version, user)
    if version.status != VersionStatus.SUBMITTED:
        raise WorkflowRefused(
            f"Only a submitted case can be claimed; version {version.number} is "
            f"{_status(version)}.",
            "bad_status",
        )


@transaction.atomic
def case_claim(*, version: CaseVersion, user) -> Review:
    version = _lock(version)
    check_case_claim(version=version, user=user)
    version.status = VersionStatus.IN_REVIEW
    version.save(update_fields=["status"])
    review = Review.objects.get(version=version)
    review.moderator = user
    review.claimed_at = timezone.now()
    review.save(update_fields=["moderator", "claimed_at"])
    return review


def _check_deciding(version: CaseVersion, user) -> Review:
    _check_moderator(version, user)
    if version.status != VersionStatus.IN_REVIEW:
        raise WorkflowRefused(
            f"Only a case in review can be decided on; version {version.number} is "
            f"{_status(version)}"
            + (" (claim it first)." if version.status == VersionStatus.SUBMITTED else "."),
            "bad_status",
        )
    review = Review.objects.select_related("moderator").get(version=version)
    if review.moderator_id != user.pk and not user.is_superuser:
        name = review.moderator.public_name if review.moderator else "another moderator"
        raise WorkflowRefused(
            f"{name} claimed this case; only they can decide on it.", "not_claimer"
        )
    return review


def check_case_approve(*, version: CaseVersion, user) -> None:
    """Approving publishes what the moderator has read: the solution and the answers
    too, so only after the reveal."""
    review = _check_deciding(version, user)
    if review.revealed_at is None:
        raise WorkflowRefused(
            "Show the solution and the report before approving: a case is published "
            "only once its moderator has read it whole.",
            "not_revealed",
        )


def _round_record(version: CaseVersion, user, decision: str, now) -> None:
    """Keep the decision in the case's review history (the review itself moves on)."""
    review = Review.objects.get(version=version)
    ReviewRound.objects.create(
        review=review,
        version=version,
        moderator=user,
        decision=decision,
        submitted_at=review.submitted_at,
        claimed_at=review.claimed_at,
        decided_at=now,
    )


@transaction.atomic
def case_approve(*, version: CaseVersion, user) -> CaseVersion:
    """Publish the version; the version published before it is archived. Tables already
    playing keep the version they started with."""
    version = _lock(version)
    check_case_approve(version=version, user=user)
    now = timezone.now()
    # Before publishing: one published version per case (a database constraint).
    CaseVersion.objects.filter(case_id=version.case_id, status=VersionStatus.PUBLISHED).update(
        status=VersionStatus.ARCHIVED
    )
    version.status = VersionStatus.PUBLISHED
    version.published_at = now
    version.save(update_fields=["status", "published_at"])
    Review.objects.filter(version=version).update(decided_at=now)
    _round_record(version, user, ReviewDecision.APPROVED, now)
    _after_commit("notify_decision", version.pk, now.isoformat())
    return version


@dataclass(frozen=True)
class CommentInput:
    text: str
    question_id: int | None = None
    location_id: int | None = None


@dataclass(frozen=True)
class ReplyInput:
    """A reply typed in a thread's box on the review page."""

    comment_id: int
    text: str


def _replies_send(version: CaseVersion, user, replies: list[ReplyInput]) -> list[ReviewReply]:
    """The replies typed on the review page, each into its thread: whichever button the
    moderator pressed sends them along, so no box's text is dropped."""
    sent = []
    for reply in replies:
        if not reply.text.strip():
            continue
        comment = (
            ReviewComment.objects.select_related("version__case")
            .filter(version=version, pk=reply.comment_id)
            .first()
        )
        if comment is None:
            raise WorkflowRefused(
                "A reply was typed under a comment that is no longer on this version; "
                "copy your text and reload the page.",
                "no_thread",
            )
        sent.append(review_comment_reply(comment=comment, user=user, text=reply.text))
    return sent


def _check_comments(version: CaseVersion, comments: list[CommentInput]) -> None:
    question_ids = {c.question_id for c in comments if c.question_id}
    location_ids = {c.location_id for c in comments if c.location_id}
    if question_ids and Question.objects.filter(
        version=version, pk__in=question_ids
    ).count() != len(question_ids):
        raise WorkflowRefused("A comment names a question of another version.", "bad_target")
    if location_ids and Location.objects.filter(
        version=version, pk__in=location_ids
    ).count() != len(location_ids):
        raise WorkflowRefused("A comment names a card of another version.", "bad_target")
    for comment in comments:
        if comment.question_id and comment.location_id:
            raise WorkflowRefused(
                "A comment is about one card or one question, not both.", "bad_target"
            )


def check_case_request_changes(
    *, version: CaseVersion, user, comments: list[CommentInput], replies: list[ReplyInput] = ()
) -> None:
    _check_deciding(version, user)
    comments = [c for c in comments if c.text.strip()]
    if (
        not comments
        and not any(reply.text.strip() for reply in replies)
        and not ReviewComment.objects.filter(
            version=version, created_at__gte=version.review.submitted_at
        ).exists()
    ):
        raise WorkflowRefused("Say what should change: write at least one comment.", "no_comment")
    _check_comments(version, comments)


@transaction.atomic
def case_request_changes(
    *, version: CaseVersion, user, comments: list[CommentInput], replies: list[ReplyInput] = ()
) -> list[ReviewComment]:
    """Sends the case back to its author with the comments, and the replies typed in the
    threads' boxes (while the version is still in review, where replies are allowed)."""
    version = _lock(version)
    comments = [c for c in comments if c.text.strip()]
    check_case_request_changes(version=version, user=user, comments=comments, replies=replies)
    _replies_send(version, user, replies)
    created = ReviewComment.objects.bulk_create(
        ReviewComment(
            version=version,
            moderator=user,
            question_id=c.question_id,
            location_id=c.location_id,
            text=c.text.strip(),
        )
        for c in comments
    )
    now = timezone.now()
    version.status = VersionStatus.CHANGES_REQUESTED
    version.save(update_fields=["status"])
    # What the moderator read: after the resubmission, their diff starts here.
    Review.objects.filter(version=version).update(
        decided_at=now,
        reviewed_content=selectors.version_snapshot(version=version),
        reviewed_by=user,
        reviewed_at=now,
    )
    _round_record(version, user, ReviewDecision.CHANGES_REQUESTED, now)
    # The decision's message counts the comments: one notification, not one per comment.
    _after_commit("notify_decision", version.pk, now.isoformat())
    return created


def check_case_comment_start(*, version: CaseVersion, user) -> None:
    """May `user` start a comment on the version now (pages ask before drawing the
    comment buttons)? The moderator deciding on it, while it is in review."""
    _check_deciding(version, user)


def check_case_comment(*, version: CaseVersion, user, comment: CommentInput) -> None:
    check_case_comment_start(version=version, user=user)
    if not comment.text.strip():
        raise WorkflowRefused("A comment needs some text.", "empty_comment")
    _check_comments(version, [comment])


@transaction.atomic
def case_comment_add(*, version: CaseVersion, user, comment: CommentInput) -> ReviewComment:
    """A remark while the review goes on; the author hears of it at once."""
    version = _lock(version)
    check_case_comment(version=version, user=user, comment=comment)
    created = ReviewComment.objects.create(
        version=version,
        moderator=user,
        question_id=comment.question_id,
        location_id=comment.location_id,
        text=comment.text.strip(),
    )
    _after_commit("notify_comment", created.pk)
    return created


@transaction.atomic
def review_page_send(
    *, version: CaseVersion, user, comments: list[CommentInput], replies: list[ReplyInput]
) -> tuple[list[ReviewComment], list[ReviewReply]]:
    """What the moderator typed on the review page, sent at once: the replies in their
    threads, and each new comment that has text (the page's own box, and those under
    the cards and questions)."""
    version = _lock(version)
    typed = [reply for reply in replies if reply.text.strip()]
    comments = [comment for comment in comments if comment.text.strip()]
    if not typed and not comments:
        raise WorkflowRefused("Write a comment or a reply first.", "empty_comment")
    sent = _replies_send(version, user, typed)
    created = [
        case_comment_add(version=version, user=user, comment=comment) for comment in comments
    ]
    return created, sent


def check_case_playtest(*, version: CaseVersion, user) -> None:
    """Who may play-test a version that players cannot play yet: its author while they
    write it (a draft, or changes requested), a moderator while it is under review."""
    if version.status in UNDER_REVIEW:
        if owns(user, version) and not user.is_superuser:
            raise WorkflowRefused(
                f"Version {version.number} is {_status(version)}: while it is under review, "
                "only its moderator play-tests it.",
                "bad_status",
            )
        _check_moderator(version, user)
        return
    if not owns(user, version):
        raise WorkflowRefused(
            "Only the author of this case can play-test it before it is submitted.",
            "not_author",
        )
    if version.status not in EDITABLE:
        raise WorkflowRefused(
            f"Version {version.number} is {_status(version)}; only a draft or a version "
            "with changes requested is play-tested by its author.",
            "bad_status",
        )


@transaction.atomic
def case_playtest_start(*, version: CaseVersion, user) -> Playtest:
    """A private solo table on the version, for the tester alone: nobody joins it, and it
    counts in no figure. A moderator's is blind, since the review page keeps the solution
    hidden until the moderator asks for it; an author's lets them see their draft as
    players will."""
    from play.services import table_create_private

    version = _lock(version)
    check_case_playtest(version=version, user=user)
    table = table_create_private(host=user, case_version=version)
    return Playtest.objects.create(table=table, version=version, tester=user)


def check_case_reveal(*, version: CaseVersion, user) -> None:
    """Only the moderator who claimed the review reveals it: the reveal ends their blind
    play-test, which nobody else may end for them (a superuser neither)."""
    _check_moderator(version, user)
    if version.status not in (VersionStatus.IN_REVIEW, VersionStatus.CHANGES_REQUESTED):
        raise WorkflowRefused(
            f"Only a case in review can be revealed; version {version.number} is "
            f"{_status(version)}"
            + (" (claim it first)." if version.status == VersionStatus.SUBMITTED else "."),
            "bad_status",
        )
    review = Review.objects.select_related("moderator").get(version=version)
    if review.moderator_id != user.pk:
        name = review.moderator.public_name if review.moderator else "Another moderator"
        raise WorkflowRefused(
            f"{name} claimed this case; only they can reveal its solution.", "not_claimer"
        )


@transaction.atomic
def case_reveal(*, version: CaseVersion, user) -> Review:
    """The moderator who claimed the case chooses to see the solution, answers, lint
    report and diff (for good: they stay shown after a resubmission)."""
    version = _lock(version)
    check_case_reveal(version=version, user=user)
    review = Review.objects.get(version=version)
    if review.revealed_at is None:
        review.revealed_at = timezone.now()
        review.save(update_fields=["revealed_at"])
    return review


# --- Comment threads ------------------------------------------------------------------------

_CLOSED = (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED)


def check_review_thread(*, version: CaseVersion, user, doing: str = "answer its comments") -> None:
    """May `user` take part in the version's comment threads? The case's author, or a
    moderator who may review it (the one holding it, or any while nobody does), while
    the version's review is not over. Pages ask once, then draw each thread's forms."""
    if not owns(user, version):
        review = Review.objects.filter(version=version).only("moderator_id").first()
        holder = review.moderator_id if review else None
        may_review = (
            is_moderator(user)
            and (version.case.author_id != user.pk or user.is_superuser)
            and (holder in (None, user.pk) or user.is_superuser)
        )
        if not may_review:
            raise WorkflowRefused(
                f"Only the author of this case or a moderator reviewing it can {doing}.",
                "not_party",
            )
    if version.status in _CLOSED:
        raise WorkflowRefused(
            f"Version {version.number} is {_status(version)}: its review is over, and "
            "its comments are closed.",
            "closed",
        )


def check_review_comment_reply(*, comment: ReviewComment, user, text: str | None = None) -> None:
    """May `user` reply to the thread? With `text`, also: does the reply say something.
    (Pages ask without a text before drawing the reply form.)"""
    check_review_thread(version=comment.version, user=user, doing="reply to its comments")
    if comment.is_resolved:
        raise WorkflowRefused("This comment is resolved; reopen it to reply.", "resolved")
    if text is not None and not text.strip():
        raise WorkflowRefused("A reply needs some text.", "empty_reply")


@transaction.atomic
def review_comment_reply(*, comment: ReviewComment, user, text: str) -> ReviewReply:
    """A reply in a comment's thread. The author hears of a moderator's reply; the
    moderator holding the case hears of the author's."""
    _lock(comment.version)
    comment = _reload(comment)
    check_review_comment_reply(comment=comment, user=user, text=text)
    reply = ReviewReply.objects.create(comment=comment, author=user, text=text.strip())
    _after_commit("notify_reply", reply.pk)
    return reply


def check_review_comment_resolve(*, comment: ReviewComment, user) -> None:
    check_review_thread(version=comment.version, user=user, doing="resolve its comments")
    if comment.is_resolved:
        raise WorkflowRefused("This comment is already resolved.", "resolved")


@transaction.atomic
def review_comment_resolve(*, comment: ReviewComment, user) -> ReviewComment:
    """Either party marks the thread resolved; who and when are kept."""
    _lock(comment.version)
    comment = _reload(comment)
    check_review_comment_resolve(comment=comment, user=user)
    comment.resolved_at = timezone.now()
    comment.resolved_by = user
    comment.save(update_fields=["resolved_at", "resolved_by"])
    return comment


def check_review_comment_reopen(*, comment: ReviewComment, user) -> None:
    check_review_thread(version=comment.version, user=user, doing="reopen its comments")
    if not comment.is_resolved:
        raise WorkflowRefused("This comment is open already.", "not_resolved")


@transaction.atomic
def review_comment_reopen(*, comment: ReviewComment, user) -> ReviewComment:
    _lock(comment.version)
    comment = _reload(comment)
    check_review_comment_reopen(comment=comment, user=user)
    comment.resolved_at = None
    comment.resolved_by = None
    comment.save(update_fields=["resolved_at", "resolved_by"])
    return comment


def _reload(comment: ReviewComment) -> ReviewComment:
    """The comment again, once its version is locked: the thread may have moved since the
    page was drawn."""
    return ReviewComment.objects.select_related("version__case").get(pk=comment.pk)


# --- Near misses ----------------------------------------------------------------------------


def check_near_miss_accept(*, near_miss: NearMiss, user) -> CaseVersion | None:
    """The open draft the form would go into (None: a new draft will be made)."""
    version = near_miss.question.version
    if not owns(user, version):
        raise WorkflowRefused("Only the author of this case can change it.", "not_author")
    current = selectors.open_version_of(case=version.case)
    if current is not None and current.status in UNDER_REVIEW:
        raise WorkflowRefused(
            f"Version {current.number} is {_status(current)}; wait for the moderator's "
            "decision before adding accepted forms.",
            "under_review",
        )
    source = current or selectors.published_version_of(case=version.case)
    if source is None:
        raise WorkflowRefused("The case has no version to add the form to.", "no_version")
    key = near_miss.question.key
    if not source.questions.filter(key=key).exists():
        raise WorkflowRefused(
            f'The question "{key}" is no longer in version {source.number}.', "no_question"
        )
    return current


@transaction.atomic
def near_miss_accept(*, near_miss: NearMiss, user) -> CaseVersion:
    """Add a near miss's form as an accepted answer, in the open draft or in a new draft
    version of the published one (published versions never change)."""
    current = check_near_miss_accept(near_miss=near_miss, user=user)
    version = current
    if version is None:
        published = selectors.published_version_of(case=near_miss.question.version.case)
        version = case_version_new_draft(version=published, user=user)
    question = version.questions.get(key=near_miss.question.key)
    case_services.question_accept_form_add(question=question, form=near_miss.example)
    return version


# --- Side effects ----------------------------------------------------------------------------


def _after_commit(task_name: str, *args) -> None:
    # Through the outbox, like every app's tasks: sent after commit, sent again if the
    # broker was down.
    outbox_enqueue(task=f"authoring.tasks.{task_name}", args=list(args))
