"""Workflow data of the review: who submitted a version, who reviews it, what they said.

The case content stays in `cases`; this app adds what the review needs beside it, so the
case models carry no workflow fields. Writes go through `authoring/services.py`.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from cases.models import CaseVersion, Location, Question

AUTHORS_GROUP = "Authors"
MODERATORS_GROUP = "Moderators"
_CONTENT_MODELS = ("case", "caseversion", "question", "location", "zone")
# What each role may do in the admin (migration 0002 made the groups with these).
ROLE_PERMISSIONS = {
    AUTHORS_GROUP: [
        *(f"cases.{action}_{model}" for model in _CONTENT_MODELS
          for action in ("view", "add", "change", "delete")),
        "cases.view_nearmiss",
        "authoring.submit_case",
        "authoring.view_reviewcomment",
    ],
    MODERATORS_GROUP: [
        *(f"cases.view_{model}" for model in _CONTENT_MODELS),
        "authoring.review_case",
        "authoring.view_review",
        "authoring.view_reviewcomment",
        "authoring.add_reviewcomment",
    ],
}  # fmt: skip


class Review(models.Model):
    """The review of one submitted version: the moderator queue is a list of these."""

    version = models.OneToOneField(CaseVersion, on_delete=models.CASCADE, related_name="review")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The latest submission: a version sent back with changes requested is submitted again
    # and goes back to the queue in the order of its new submission.
    submitted_at = models.DateTimeField(db_index=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reviews_claimed",
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # A blind review: the solution, answers, lint report and diff stay hidden until the
    # moderator chooses to see them (typically after a play-test).
    revealed_at = models.DateTimeField(null=True, blank=True)
    # What the moderator read when they last requested changes (the version's content as
    # `selectors.version_snapshot` writes it): after a resubmission their diff starts there.
    reviewed_content = models.JSONField(null=True, blank=True, editable=False)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["submitted_at", "pk"]
        permissions = [
            ("submit_case", "Can submit their own cases for review"),
            ("review_case", "Can claim, play-test and decide on submitted cases"),
        ]

    def __str__(self) -> str:
        return f"Review of {self.version}"


class ReviewDecision(models.TextChoices):
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    APPROVED = "approved", "Approved and published"


class ReviewRound(models.Model):
    """One decision on a version, kept for good: a version sent back twice and then
    approved has three. The review (one per version) holds only the current round; these
    are the case's review history: who decided what, when, on the submission of when (the
    comments of a round are the version's comments written between the two)."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="rounds")
    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="+")
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decision = models.CharField(max_length=20, choices=ReviewDecision.choices)
    submitted_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["decided_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_decision_display()}: {self.version}"


class ReviewComment(models.Model):
    """A moderator's remark on a version, on the whole case or on one card or question: the
    head of a thread that the author and the moderator answer (`replies`) and either of
    them resolves, or reopens."""

    version = models.ForeignKey(
        CaseVersion, on_delete=models.CASCADE, related_name="review_comments"
    )
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    question = models.ForeignKey(
        Question, null=True, blank=True, on_delete=models.CASCADE, related_name="review_comments"
    )
    location = models.ForeignKey(
        Location, null=True, blank=True, on_delete=models.CASCADE, related_name="review_comments"
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Who marked the thread resolved, and when; both empty while it is open (reopening
    # empties them again).
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(question__isnull=True) | Q(location__isnull=True),
                name="review_comment_one_target",
            ),
        ]

    def __str__(self) -> str:
        return self.text[:60]

    @property
    def target_label(self) -> str:
        if self.question_id:
            return f'question "{self.question.key}"'
        if self.location_id:
            return f"card {self.location.number}"
        return "the case"

    @property
    def is_resolved(self) -> bool:
        return self.resolved_at is not None


class ReviewReply(models.Model):
    """An answer in a comment's thread, by the case's author or its moderator."""

    comment = models.ForeignKey(ReviewComment, on_delete=models.CASCADE, related_name="replies")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "review replies"

    def __str__(self) -> str:
        return self.text[:60]


class Playtest(models.Model):
    """A private solo play-test table: a moderator's blind test of a version under review,
    or an author's test of their own draft. Statistics for authors leave these out."""

    table = models.OneToOneField("play.Table", on_delete=models.CASCADE, related_name="playtest")
    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="playtests")
    tester = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Play-test of {self.version} (table {self.table_id})"
