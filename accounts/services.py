"""Writes for accounts."""

from dataclasses import dataclass

from django.db import transaction

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
            defaults={"display_name": account.display_name, "email": f"{account.username}@example.com"},
        )
        user.is_staff = account.is_staff
        user.set_password(account.password)
        user.save(update_fields=["is_staff", "password"])
    return list(DEMO_ACCOUNTS)
