"""Reads for accounts."""

from django.utils import timezone

from .models import ApiToken, User, api_token_lifetime, name_key


def name_taken_at_tables_of(*, user: User, name: str) -> str | None:
    """The public name, as shown, of someone else seated with `user` at a table that has
    not finished and called `name` (compared by `name_key`); None when nobody is."""
    from play.models import Seat, TableStatus

    tables = Seat.objects.filter(user=user).exclude(table__status=TableStatus.FINISHED)
    others = (
        User.objects.filter(seats__table__in=tables.values("table"))
        .exclude(pk=user.pk)
        .only("username", "display_name")
        .distinct()
    )
    wanted = name_key(name)
    return next(
        (other.public_name for other in others if name_key(other.public_name) == wanted), None
    )


def name_taken_at_table(*, table_id: int, user: User) -> str | None:
    """The public name of someone else seated at the table whose name is `user`'s own
    (compared by `name_key`); None when nobody's is. For joining a table."""
    from play.models import Seat

    wanted = name_key(user.public_name)
    seated = Seat.objects.filter(table_id=table_id).exclude(user=user).select_related("user")
    return next(
        # A seat's own name: a computer player or a local player has no account.
        (seat.public_name for seat in seated if name_key(seat.public_name) == wanted),
        None,
    )


def api_tokens_of(*, user: User) -> list[ApiToken]:
    """`user`'s API tokens that have not expired, newest first."""
    live = ApiToken.objects.filter(user=user, created_at__gt=timezone.now() - api_token_lifetime())
    return list(live.order_by("-created_at", "-pk"))
