"""Pass and play on the table page (play/local_players.py): which seat this device shows.

The seat a device shows is server state, kept in the session per table, and set only by
the holder confirming "I am <name>" on the pass screen (play/views_local.py). Every page,
live region, move and notebook save of the table reads it through `device_seat`; while
the device must be passed, the page is the pass screen, built from the table's public
facts alone (seat names and whose turn it is): no view of any seat is read for it.
"""

from django.http import HttpRequest
from django.urls import reverse

from games import get_game

from . import local_players
from .models import TableStatus
from .selectors import Membership
from .table_page import table_context

__all__ = [
    "PASS_FIRST",
    "device_context",
    "device_seat",
    "held_seats",
    "pass_context",
    "session_key",
]

PASS_FIRST = "Pass the device first: this page shows nobody's seat just now."


def session_key(table_id: int) -> str:
    return f"play:device-seat:{table_id}"


def held_seats(request: HttpRequest, membership: Membership) -> list:
    """The seats this device plays at the table, when it plays more than one (only the
    host seats local players); else empty, without a query."""
    table = membership.table
    if membership.seat is None or table.host_id != request.user.pk:
        return []
    if table.status in (TableStatus.LOBBY, TableStatus.CANCELLED):
        return []
    held = local_players.seats_held(table=table, user=request.user)
    return held if len(held) > 1 else []


def device_seat(
    request: HttpRequest, membership: Membership, held: list | None = None
) -> tuple[Membership | None, list]:
    """(The membership of the seat this device shows, the held seats), or (None, the held
    seats) while the device must be passed. A device that holds one seat shows it.
    `held`: the held seats, when this request has read them already (`held_seats`)."""
    if held is None:
        held = held_seats(request, membership)
    if not held:
        return membership, []
    key = session_key(membership.table.pk)
    shown = request.session.get(key)
    numbers = [seat.number for seat in held]
    if local_players.passes_to(table=membership.table, held=numbers, shown=shown):
        request.session.pop(key, None)
        return None, held
    seat = next(seat for seat in held if seat.number == shown)
    seat.table = membership.table
    return Membership(table=membership.table, seat=seat, spectator=False), held


def device_context(
    request: HttpRequest,
    membership: Membership,
    *,
    error: str | None = None,
    refused: tuple | None = None,
    held: list | None = None,
) -> tuple[dict, Membership | None]:
    """The table page's context for this device, and the membership it shows (None on
    the pass screen). `refused`: the move just refused, and why (`table_context`);
    `held`: as `device_seat` takes it."""
    shown, held = device_seat(request, membership, held)
    if shown is None:
        return pass_context(request, membership.table, held, error=error), None
    context = table_context(request, shown, error=error, refused=refused)
    if held:
        context["device"] = {
            "name": shown.seat.public_name,
            "hide_url": reverse("play:device-hide", args=[membership.table.pk]),
        }
        context["device_seat"] = shown.seat.number
        # Leave the game and Remove act on the account's own seat, and a computer in the
        # host's seat would strand the local players: not offered on a shared device.
        context["seats_replaceable"] = False
    return context, shown


def pass_context(request: HttpRequest, table, held: list, *, error: str | None = None) -> dict:
    """The pass screen: the table's public facts and the names of the seats on this
    device, nothing any seat's view holds."""
    numbers = [seat.number for seat in held]
    to = local_players.passes_to(table=table, held=numbers, shown=None)
    summary = table.summary or {}
    names = {seat["number"]: seat["name"] for seat in summary.get("seats", [])}
    waiting = summary.get("waiting_for", []) if table.status == TableStatus.PLAYING else []
    return {
        "table": table,
        "view": {"version": table.version, "status": table.status},
        "title": summary.get("title", ""),
        "game_title": get_game(table.engine).title,
        "live_url": reverse("play:table-live", args=[table.pk]),
        "you": {"seat": None, "spectator": False},
        "notebook": None,
        "error": error,
        "device_seat": "pass",
        "pass_screen": {
            "to": [seat for seat in held if seat.number in to],
            "waiting_names": [names[n] for n in waiting if n in names and n not in numbers],
            "confirm_url": reverse("play:device-confirm", args=[table.pk]),
            "finished": table.status == TableStatus.FINISHED,
        },
    }
