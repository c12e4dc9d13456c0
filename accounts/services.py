"""Writes for accounts: demo accounts, notifications and their e-mails."""

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from .models import (
    ApiToken,
    Notification,
    NotificationPreferences,
    User,
    api_token_lifetime,
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
        user.email_verified_at = user.email_verified_at or timezone.now()
        user.save(update_fields=["is_staff", "password", "email_verified_at"])
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
    subject = f"Holmes: {one_line(message)}"[:150]
    body = f"{message}\n\n{absolute_url(url) if url else ''}".strip()
    for user in users:
        # Only to an address its owner has shown is theirs: a mistyped address would
        # otherwise get someone else's game news.
        if not user.email or not user.email_verified_at or kind not in email_kinds_for(user):
            continue
        unsent = Notification.objects.filter(user=user, dedupe_key=key, emailed_at__isnull=True)
        if unsent.update(emailed_at=timezone.now()):
            transaction.on_commit(partial(send_mail, subject, body, None, [user.email]))


def absolute_url(path: str) -> str:
    """`path` as a link a mail app can open: on the site's own address (settings.SITE_URL).
    A link that already names its site is left as it is."""
    if path.startswith("/") and not path.startswith("//"):
        return f"{settings.SITE_URL}{path}"
    return path


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


# --- Verifying an e-mail address ---------------------------------------------------------

VERIFY_SALT = "accounts.email-verification"
VERIFY_MAX_AGE = timedelta(days=7)


def email_verification_token(user: User) -> str:
    """A signed, dated token naming the account and the address it proves: a token for an
    address the user has since changed proves nothing."""
    return signing.dumps({"user": user.pk, "email": user.email.lower()}, salt=VERIFY_SALT)


def email_verification_send(*, user: User, next_url: str = "") -> None:
    """E-mail `user` the link that verifies their address; the link brings them on to
    `next_url` (a path of this site, checked by the caller: an invite, say)."""
    if not user.email:
        return
    link = reverse("accounts:verify", args=[email_verification_token(user)])
    if next_url:
        link += "?" + urlencode({"next": next_url})
    body = (
        f"Hello {user.public_name},\n\n"
        "Please confirm that this is your address, so that Holmes may e-mail you when a "
        f"table needs you:\n{absolute_url(link)}\n\n"
        "The link works for a week. If you did not sign up, ignore this message."
    )
    transaction.on_commit(
        partial(send_mail, "Holmes: confirm your e-mail address", body, None, [user.email])
    )


@transaction.atomic
def email_verify(*, token: str) -> User | None:
    """Mark the address the token names as verified; None for a token that is forged, too
    old, or names an address the account no longer has."""
    try:
        claim = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.BadSignature:
        return None
    user = User.objects.select_for_update().filter(pk=claim.get("user")).first()
    if user is None or user.email.lower() != claim.get("email"):
        return None
    if user.email_verified_at is None:
        user.email_verified_at = timezone.now()
        user.save(update_fields=["email_verified_at"])
    return user


# --- API tokens ----------------------------------------------------------------------------

# The live tokens an account keeps: a script that logs in at every run gets a new token
# each time, and would otherwise pile them up. Past this, those used longest ago go.
API_TOKENS_KEPT = 20
# How stale a token's `last_used_at` may get before a use writes it again: one UPDATE per
# token in this time, not one per request.
LAST_USED_PRECISION = timedelta(minutes=5)


class ApiTokenExpired(Exception):
    def __init__(self, token: ApiToken):
        super().__init__(f"API token {token.prefix}… expired at {token.expires_at}")
        self.token = token


@transaction.atomic
def api_token_create(*, user: User) -> tuple[ApiToken, str]:
    """A new API token for `user`, and its key: the one moment the key is known. The
    account's expired tokens go, and so do, beyond API_TOKENS_KEPT live ones, those used
    longest ago."""
    tokens = ApiToken.objects.filter(user=user)
    tokens.filter(created_at__lte=timezone.now() - api_token_lifetime()).delete()
    token, key = ApiToken.issue(user=user)
    token.save()
    surplus = tokens.order_by(Coalesce("last_used_at", "created_at").desc(), "-pk").values_list(
        "pk", flat=True
    )[API_TOKENS_KEPT:]
    ApiToken.objects.filter(pk__in=list(surplus)).delete()
    return token, key


def api_token_use(*, key: str) -> ApiToken | None:
    """The token whose key this is, with its user, noted as used now; None for a key that
    is no token's (never issued, or revoked). Raises ApiTokenExpired for one past its
    time. Whether its user is active is the caller's to check.

    Not in a transaction of its own: it runs for every request and socket a program
    opens, and its one write, a single statement at most every LAST_USED_PRECISION, needs
    none."""
    digest = ApiToken.digest_of(key)
    # Sliced, not `.first()`: no ORDER BY for a digest that is unique anyway.
    token = next(iter(ApiToken.objects.select_related("user").filter(digest=digest)[:1]), None)
    if token is None:
        return None
    now = timezone.now()
    if token.has_expired(now):
        raise ApiTokenExpired(token)
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


@transaction.atomic
def api_token_revoke(*, user: User, token_id: int) -> ApiToken | None:
    """Delete `user`'s token `token_id`, and return it; None when `user` has no such token
    (another account's tokens are not theirs to revoke)."""
    token = ApiToken.objects.filter(user=user, pk=token_id).first()
    if token is not None:
        token.delete()
    return token
