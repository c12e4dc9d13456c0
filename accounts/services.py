"""Writes for accounts."""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .models import User


@dataclass(frozen=True)
class DemoAccount:
    username: str
    display_name: str
    role: str
    is_staff: bool = False

    @property
    def password(self) -> str:
        # Known passwords, on purpose: these accounts exist only in development.
        return f"holmes-{self.username}"


DEMO_ACCOUNTS = (
    DemoAccount("author", "Arthur the Author", "case writer", is_staff=True),
    DemoAccount("moderator", "Mina the Moderator", "moderator", is_staff=True),
    DemoAccount("alice", "Alice", "player"),
    DemoAccount("bob", "Bob", "player"),
    DemoAccount("charlie", "Charlie", "player"),
)


@transaction.atomic
def demo_accounts_ensure() -> list[DemoAccount]:
    """Create the demo accounts that are missing and reset their passwords."""
    for account in DEMO_ACCOUNTS:
        user, _ = User.objects.get_or_create(
            username=account.username,
            defaults={
                "display_name": account.display_name,
                "email": f"{account.username}@example.com",
            },
        )
        user.is_staff = account.is_staff
        user.set_password(account.password)
        user.save(update_fields=["is_staff", "password"])
    return list(DEMO_ACCOUNTS)


@transaction.atomic
def notification_send(*, user: User, kind: str, message: str, url: str = "", dedupe_key: str):
    """Store a notification once per dedupe key, then e-mail it if the user wants that kind.

    The e-mail goes after commit, so a rolled-back transaction sends nothing.
    """
    from django.core.mail import send_mail

    from .models import Notification, NotificationPreferences

    notification, created = Notification.objects.get_or_create(
        user=user,
        dedupe_key=dedupe_key[:120],
        defaults={"kind": kind, "message": message[:300], "url": url[:300]},
    )
    if not created or not user.email:
        return notification
    preferences, _ = NotificationPreferences.objects.get_or_create(user=user)
    if preferences.wants_email(kind):
        address, subject = user.email, f"Holmes: {message}"[:150]

        def send_and_mark() -> None:
            send_mail(subject, f"{message}\n\n{url}".strip(), None, [address])
            Notification.objects.filter(pk=notification.pk).update(emailed_at=timezone.now())

        transaction.on_commit(send_and_mark)
    return notification


def notifications_mark_read(*, user: User, ids: list[int] | None = None) -> int:
    from .models import Notification

    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read_at=timezone.now())
