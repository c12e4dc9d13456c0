import unicodedata

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower

DISPLAY_NAME_REFUSED = (
    "A display name is letters, digits, spaces and punctuation: no control characters, no "
    "invisible ones (zero-width spaces or joiners) and no marks that turn the text round."
)


def validate_display_name(name: str) -> None:
    """Refuse what a name could hide or disguise itself with: control characters (line
    breaks among them), invisible ones (zero-width spaces and joiners, byte order marks)
    and direction overrides: Unicode's categories C (control, format, unassigned,
    private use) and the line and paragraph separators."""
    for character in name:
        category = unicodedata.category(character)
        if category[0] == "C" or category in ("Zl", "Zp"):
            raise ValidationError(DISPLAY_NAME_REFUSED, code="display_name_characters")


def name_key(name: str) -> str:
    """What two names are compared by: "Bob", " bob " and "Ｂｏｂ" are one name."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


class User(AbstractUser):
    """A Holmes user: a player, and maybe an author or a moderator (by group).

    A project-owned user model from the first migration, so that profile fields can be
    added later without the painful switch away from auth.User.
    """

    display_name = models.CharField(
        max_length=60,
        blank=True,
        validators=[validate_display_name],
        help_text="The name other players see at a table.",
    )
    # Set when the owner opens the link e-mailed to this address (accounts/verification.py);
    # emptied when the address changes. Notifications are e-mailed only to a verified one.
    email_verified_at = models.DateTimeField(null=True, blank=True)

    class Meta(AbstractUser.Meta):
        constraints = [
            # One account per address, whatever its case: the address resets a password.
            models.UniqueConstraint(
                Lower("email"), condition=~models.Q(email=""), name="user_email_unique"
            )
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def public_name(self) -> str:
        return self.display_name or self.username


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", "It is your turn"
    TABLE_STARTED = "table_started", "A table you sit at started"
    TABLE_NEWS = "table_news", "News from a table you sit at (a player went to solve)"
    GAME_OVER = "game_over", "A game you play ended"
    REVIEW_DECISION = "review_decision", "A decision on a case you wrote"
    NEW_SUBMISSION = "new_submission", "A case was submitted for review"


def default_email_kinds() -> list[str]:
    # Quiet by default: e-mail only for what happens while you are away from the table.
    return [
        NotificationKind.YOUR_TURN,
        NotificationKind.TABLE_STARTED,
        NotificationKind.REVIEW_DECISION,
    ]


class NotificationPreferences(models.Model):
    user = models.OneToOneField(
        User, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    email_kinds = models.JSONField(
        default=default_email_kinds,
        blank=True,
        help_text="The notification kinds also sent by e-mail.",
    )

    def __str__(self) -> str:
        return f"Notification preferences of {self.user}"


class Notification(models.Model):
    """A message for one user, shown in the site (unread count) and maybe e-mailed.

    `dedupe_key` makes sending idempotent: a task that runs twice notifies once.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    message = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    dedupe_key = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "dedupe_key"], name="notification_once"),
        ]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return self.message


class OutboxMessage(models.Model):
    """A Celery task to run once the transaction that wrote this row has committed.

    The transactional outbox (holmes_site/outbox.py): every app's tasks (a move's
    notifications, judging and wake-ups, the review workflow's notices) are written here
    in the transaction that causes them, and enqueued on commit. When the broker is down at that
    moment the row stays undelivered, and the periodic `outbox_redeliver` task enqueues it
    again once Redis is back. Tasks mark their row delivered when they finish; they are
    idempotent, so a row enqueued twice (a slow worker, a redelivery) acts once.
    """

    task = models.CharField(max_length=120, help_text="The Celery task's name.")
    args = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    redelivered_at = models.DateTimeField(null=True, blank=True)
    redeliveries = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(delivered_at__isnull=True),
                name="outbox_undelivered",
            )
        ]

    def __str__(self) -> str:
        state = "delivered" if self.delivered_at else "waiting"
        return f"{self.task}{tuple(self.args)} ({state})"
