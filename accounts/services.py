"""Writes for accounts: demo accounts, notifications and their e-mails."""

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial

from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from .models import (
    Notification,
    NotificationPreferences,
    User,
    default_email_kinds,
)

logger = logging.getLogger(__name__)


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
def notifications_send(
    *, users: Iterable[User], kind: str, message: str, url: str = "", dedupe_key: str
) -> None:
    """Store a notification for each of `users`, once per dedupe key, and e-mail it to those
    who want that kind.

    Safe to run twice, even at once: one INSERT for every recipient leaves a row a first
    run stored as it is, and each e-mail is claimed (`emailed_at` set where it is still
    empty) before it goes, so it goes at most once. It goes after commit, so a rolled-back
    transaction sends nothing. Load the users with `notification_preferences` (a
    `select_related`) to spare a query for each.
    """
    users, key = list(users), dedupe_key[:120]
    Notification.objects.bulk_create(
        [
            Notification(user=user, kind=kind, message=message[:300], url=url[:300], dedupe_key=key)
            for user in users
        ],
        ignore_conflicts=True,
    )
    subject, body = f"Holmes: {one_line(message)}"[:150], f"{message}\n\n{url}".strip()
    for user in users:
        if not user.email or kind not in email_kinds_for(user):
            continue
        unsent = Notification.objects.filter(user=user, dedupe_key=key, emailed_at__isnull=True)
        if unsent.update(emailed_at=timezone.now()):
            transaction.on_commit(partial(send_mail, subject, body, None, [user.email]))


# Control characters, line and paragraph separators, and text direction controls.
_NOT_IN_A_HEADER = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+"
)


def one_line(text: str) -> str:
    """`text` fit for an e-mail header: what could break the line, or turn the text round,
    becomes a space. Messages carry authors' and players' words (a case title), which the
    linter checks, but a header is never built on that alone."""
    return " ".join(_NOT_IN_A_HEADER.sub(" ", text).split())


def notification_send(*, user: User, kind: str, message: str, url: str = "", dedupe_key: str):
    """`notifications_send` for one user."""
    notifications_send(users=[user], kind=kind, message=message, url=url, dedupe_key=dedupe_key)


def email_kinds_for(user: User) -> list[str]:
    """The notification kinds `user` also gets by e-mail: their choice, or the default."""
    try:
        return user.notification_preferences.email_kinds
    except NotificationPreferences.DoesNotExist:
        return default_email_kinds()


def notifications_mark_read(*, user: User, ids: list[int] | None = None) -> int:
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read_at=timezone.now())
