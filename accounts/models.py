import hashlib
import secrets
import unicodedata
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models.functions import Lower
from django.utils import timezone

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

    def save(self, *args, **kwargs):
        """A new password ends every API token of the account, however it was set: a
        reset by e-mail, the admin's forms, `manage.py changepassword`. Django keeps the
        new raw password in `_password` from `set_password` until the save, and not when
        a log-in merely rehashes the same password (a stronger hasher), which ends none."""
        if self._password is None or self._state.adding:
            return super().save(*args, **kwargs)
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)
            ApiToken.objects.filter(user_id=self.pk).delete()


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


def api_token_lifetime() -> timedelta:
    return timedelta(days=settings.API_TOKEN_DAYS)


class ApiToken(models.Model):
    """A key a program sends as `Authorization: Token <key>`, to the API and on the table
    websocket's handshake. Only the key's SHA-256 digest is kept: the key is shown once,
    in the answer that issues it, and a copy of the database gives away none. The first
    characters stay, so that the owner can tell their tokens apart on the profile page.

    A token lasts `settings.API_TOKEN_DAYS` from its creation (read when it is checked,
    so shortening the setting ends older tokens at once); a new password ends all of its
    owner's (User.save), and the owner may revoke any of them.
    """

    KEY_BYTES = 20  # 40 hex characters, as DRF's tokens were
    PREFIX_LENGTH = 8

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key.")
    prefix = models.CharField(max_length=PREFIX_LENGTH, help_text="The key's first characters.")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(
        null=True, blank=True, help_text="When it was last used, to within a few minutes."
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… of {self.user}"

    @staticmethod
    def digest_of(key: str) -> str:
        # A key is 160 random bits: a plain hash suffices (no salt, no slow hasher).
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, *, user: User) -> tuple["ApiToken", str]:
        """A new token for `user`, not saved, and its key."""
        key = secrets.token_hex(cls.KEY_BYTES)
        token = cls(user=user, digest=cls.digest_of(key), prefix=key[: cls.PREFIX_LENGTH])
        return token, key

    @property
    def expires_at(self) -> datetime:
        return self.created_at + api_token_lifetime()

    def has_expired(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.expires_at
