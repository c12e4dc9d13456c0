"""Pass and play: several players on one device.

The host may seat local players in the lobby: seats without an account of their own,
held by the host's account (`Seat.held_by`, `Seat.local_name`). They play like anyone
else through the same write path; the device only ever shows one seat's view at a time.

Which seat the device shows is the holder's choice, confirmed on a "pass the device"
screen that shows nothing private (play/views_local.py keeps it in the session). Here are
the writes (seating and removing local players) and the rule for when the device must be
passed: when the seat it shows no longer owes a move and another seat it holds does.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from accounts.models import DISPLAY_NAME_REFUSED, name_key, validate_display_name

from .models import Seat, Table, TableStatus
from .services import TableError
from .services.seats import lobby_bump, seat_add, seats_renumber

MAX_NAME_LENGTH = 40


@transaction.atomic
def local_seat_add(*, table_id: int, user, name: str) -> Seat:
    """The host seats a player who shares their device, in the lobby."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host seats players on their device.")
    if table.is_private:
        raise TableError("A private play-test is played alone.", "private")
    if table.status != TableStatus.LOBBY:
        raise TableError(
            "Players are seated in the lobby, before the game starts.", "table_started"
        )
    name = (name or "").strip()
    try:  # an account's display-name rules: no control, invisible or direction characters
        validate_display_name(name)
    except ValidationError:
        raise TableError(DISPLAY_NAME_REFUSED, "name_characters") from None
    name = " ".join(name.split())
    if not name:
        raise TableError("Give the player on your device a name.", "name_missing")
    if len(name) > MAX_NAME_LENGTH:
        raise TableError(f"A name has at most {MAX_NAME_LENGTH} characters.", "name_too_long")
    taken = _name_at_table(table, name)
    if taken:
        raise TableError(f"A player at this table is already called {taken}.", "name_taken")
    seat = seat_add(table, local_name=name, held_by=user)
    lobby_bump(table)
    return seat


def _name_at_table(table: Table, name: str) -> str | None:
    """The name, as shown, of a seat at the table called `name`; the pages and the log
    name players by their names, so one name per table."""
    wanted = name_key(name)
    seated = Seat.objects.filter(table=table).select_related("user")
    return next((s.public_name for s in seated if name_key(s.public_name) == wanted), None)


@transaction.atomic
def local_seat_remove(*, table_id: int, user, number: int) -> None:
    """The host takes a local player's seat away again, in the lobby."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host removes players on their device.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has started: every seat stays.", "table_started")
    deleted, _ = Seat.objects.filter(table=table, number=number, held_by=user).delete()
    if not deleted:
        raise TableError("No player on your device sits in that seat.", "no_such_local")
    seats_renumber(table)
    lobby_bump(table)


def seats_held(*, table: Table, user) -> list[Seat]:
    """The seats `user` plays at the table from their device: their own and their local
    players', by seat number."""
    return list(
        Seat.objects.filter(Q(user=user) | Q(held_by=user), table=table)
        .select_related("user", "table")
        .order_by("number")
    )


def passes_to(*, table: Table, held: list[int], shown: int | None) -> list[int]:
    """The held seats the device should be passed to now; empty while `shown` may stay.

    The device stays with the seat it shows while that seat owes a move, or while no other
    seat it holds does (another person's or a computer's turn). Otherwise it goes to the
    held seats the game waits for (several when they move at once). With no seat shown,
    it goes to those, or to any held seat when none is waited for.
    """
    waiting = [n for n in (table.summary or {}).get("waiting_for", []) if n in held]
    if table.status != TableStatus.PLAYING:
        waiting = []
    if shown in held and (shown in waiting or not waiting):
        return []
    return waiting or list(held)
