"""The table as each player may see it, for the API and for the sockets that asked for
their views (play/live.py): one body, built one way, wherever it goes."""

from __future__ import annotations

from .models import Seat, Table
from .move_sql import players_seats
from .selectors import Membership, notebook_text, table_view


def table_body(membership: Membership) -> dict:
    """What `GET /api/tables/<id>/` answers this member: the view, the invite code for a
    player of a public table, and their own notebook."""
    body = table_view(membership=membership)
    if membership.seat is not None and not membership.table.is_private:
        body["invite_code"] = membership.table.invite_code
    body["notebook"] = notebook_text(membership=membership)
    return body


def present_players_views(
    table: Table, viewers: frozenset[int], mover=None, seats: list[Seat] | None = None
) -> dict[int, dict | None]:
    """{user id: their body} for the seats in `viewers` (a socket there asked for its
    views) that a person holds, as `table` is now. `seats`: those seats with their
    notebooks as the move's lock read them (play/move_sql.py), or None to read them here,
    in one statement. The mover's seat, if among them, maps its user to None: their answer
    holds their view, and another socket of theirs is told the version only."""
    if seats is None:
        seats = players_seats(table=table, numbers=viewers)
    return {
        seat.user_id: (
            None
            if seat.number == mover
            else table_body(Membership(table=table, seat=seat, spectator=False))
        )
        for seat in seats
        if seat.number in viewers
    }
