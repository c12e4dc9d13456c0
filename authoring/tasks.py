"""Notifications of the review workflow, queued on commit by `authoring/services.py`.

Each task takes ids, reloads, and sends through `notification_send` with a dedupe key
naming the review round, so a task run twice notifies once, and a resubmission (a new
round) notifies again.
"""

from celery import shared_task
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import NotificationKind
from accounts.services import notification_send
from cases.models import CaseVersion, VersionStatus
from holmes_site.outbox import marks_delivered

from .models import MODERATORS_GROUP, Review, ReviewComment, ReviewReply


def _title(version: CaseVersion) -> str:
    return f"{version.title} (v{version.number})"


@shared_task(acks_late=True)
@marks_delivered
def notify_new_submission(version_id: int, round_stamp: str, outbox_id: int | None = None) -> None:
    # A blind review: moderators are not told who wrote it (the author stays "the author"
    # to them until the case is published).
    version = CaseVersion.objects.select_related("case").get(pk=version_id)
    moderators = (
        get_user_model()
        .objects.filter(groups__name=MODERATORS_GROUP, is_active=True)
        .exclude(pk=version.case.author_id)
        .distinct()
    )
    url = reverse("admin:authoring_review_change", args=[version.review.pk])
    for moderator in moderators:
        notification_send(
            user=moderator,
            kind=NotificationKind.NEW_SUBMISSION,
            message=f"{_title(version)} was submitted for review.",
            url=url,
            dedupe_key=f"submitted:v{version_id}:{round_stamp}",
        )


@shared_task(acks_late=True)
@marks_delivered
def notify_decision(version_id: int, round_stamp: str, outbox_id: int | None = None) -> None:
    version = CaseVersion.objects.select_related("case__author").get(pk=version_id)
    if version.case.author is None:
        return
    if version.status in (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED):
        message = f"{_title(version)} was approved and published."
    else:
        count = ReviewComment.objects.filter(
            version=version, created_at__gte=version.review.submitted_at
        ).count()
        message = (
            f"Changes were requested on {_title(version)} "
            f"({count} comment{'s' if count != 1 else ''})."
        )
    notification_send(
        user=version.case.author,
        kind=NotificationKind.REVIEW_DECISION,
        message=message,
        url=reverse("admin:cases_caseversion_change", args=[version_id]),
        dedupe_key=f"decision:v{version_id}:{round_stamp}",
    )


@shared_task(acks_late=True)
@marks_delivered
def notify_comment(comment_id: int, outbox_id: int | None = None) -> None:
    comment = ReviewComment.objects.select_related(
        "version__case__author", "moderator", "question", "location"
    ).get(pk=comment_id)
    author = comment.version.case.author
    if author is None:
        return
    who = comment.moderator.public_name if comment.moderator else "A moderator"
    notification_send(
        user=author,
        kind=NotificationKind.REVIEW_DECISION,
        message=f"{who} commented on {comment.target_label} of {_title(comment.version)}.",
        url=reverse("admin:cases_caseversion_change", args=[comment.version_id]),
        dedupe_key=f"comment:{comment_id}",
    )


@shared_task(acks_late=True)
@marks_delivered
def notify_resubmission(version_id: int, round_stamp: str, outbox_id: int | None = None) -> None:
    """A resubmission goes back to the moderator who requested the changes: only they hear."""
    review = Review.objects.select_related("version__case__author", "moderator").get(
        version_id=version_id
    )
    if review.moderator is None:
        return
    version = review.version
    notification_send(
        user=review.moderator,
        kind=NotificationKind.NEW_SUBMISSION,
        message=f"The author resubmitted {_title(version)}: it is back with you for review.",
        url=reverse("admin:authoring_review_change", args=[review.pk]),
        dedupe_key=f"resubmitted:v{version_id}:{round_stamp}",
    )


@shared_task(acks_late=True)
@marks_delivered
def notify_reply(reply_id: int, outbox_id: int | None = None) -> None:
    """The other party of the thread hears of a reply: the author of a moderator's, the
    moderator holding the case of the author's. Only who and where: the text stays on the
    pages of the case."""
    reply = ReviewReply.objects.select_related(
        "author", "comment__version__case__author", "comment__question", "comment__location"
    ).get(pk=reply_id)
    comment, version = reply.comment, reply.comment.version
    author = version.case.author
    review = Review.objects.select_related("moderator").filter(version=version).first()
    who = reply.author.public_name if reply.author else "Someone"
    where = f"{comment.target_label} of {_title(version)}"
    if reply.author_id is not None and reply.author_id == version.case.author_id:
        if review is None or review.moderator is None:
            return
        recipient, kind = review.moderator, NotificationKind.NEW_SUBMISSION
        url = reverse("admin:authoring_review_change", args=[review.pk])
        # The moderator reads no author's name before deciding (a blind review).
        who = "The author"
    else:
        recipient, kind = author, NotificationKind.REVIEW_DECISION
        url = reverse("admin:cases_caseversion_change", args=[version.pk])
    if recipient is None or recipient.pk == reply.author_id:
        return
    notification_send(
        user=recipient,
        kind=kind,
        message=f"{who} replied to a comment on {where}.",
        url=f"{url}#comment-{comment.pk}",
        dedupe_key=f"reply:{reply_id}",
    )
