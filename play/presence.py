"""Who is at a table now: the sockets open on its page; and whether a player who is away
has been told it is their turn.

"Your turn" goes only to a player who is not at the table: one who is sees it on the
page, and a notification (with its e-mail) every turn would be noise. Each websocket open
on a table is a row (TableSocket), written by the consumer: made when the socket opens,
deleted when it closes. It counts until its `expires_at`, PRESENCE_SECONDS ahead, which
each ping the page sends (every 30 s) pushes back; so a socket left open by a process
that died soon stops counting; the next socket to open on the table, or the sweep a
Celery worker queues as it connects (`sockets_sweep`), clears its row away.

A player who is away is told once, not at every turn: a program playing through the API
without a socket would otherwise get a notification and an e-mail for each of its turns.
Their seat keeps when they were told (`Seat.your_turn_told_at`); coming back to the table
clears it (their next absence is news again), and it counts for YOUR_TURN_QUIET_SECONDS.

The same rows say whether anyone watches the table, spectators included: a move pushes its
"version N exists" through the channel layer only then (play/live.py). A table played
through the API alone, by programs that hold no socket, costs no push at all.

A move reads all of this in the query that locks its table (`PRESENCE_COLUMNS`, in
play/move_sql.py), and claims a notice in its own transaction, under that lock: two moves
cannot both tell the same absence, and a move asks nothing of Redis. (These marks lived in
the cache before: that round trip cost the API's move about 4% of its throughput, `make
bench` api.)
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from .models import MAX_SEATS, Seat, TableSocket

PRESENCE_SECONDS = 90
# A ping renews its socket's row only once less than this is left of it. The page pings
# every 30 s, so every other ping writes, and a row is renewed 30 s before it would lapse:
# a thousand tables' pings wrote two rows fifty times a second, more writes than their
# moves made.
RENEW_WITHIN_SECONDS = PRESENCE_SECONDS / 2
YOUR_TURN_QUIET_SECONDS = 10 * 60
# Sockets one member (a player or a spectator) may hold open on one table: a page open on
# a few devices or tabs. Each is a row and a group member; without a cap one user made
# forty.
MAX_SOCKETS_PER_MEMBER = 5


class TooManySockets(Exception):
    """The member holds MAX_SOCKETS_PER_MEMBER live sockets on the table already."""


# What a move needs to know, as columns of the query that locks its table (`{table}` is
# the SQL of the table's id), taking `presence_params()`: whether any socket is live;
# as bit masks of seat numbers, the seats with a live socket, the seats told of their
# turn within the quiet time and the seats with a live socket that asked for its views;
# whether a live socket hears versions only; and the seats with two such sockets or more.
# Masks, because both databases sum them alike.
PRESENCE_COLUMNS = """
    EXISTS (
        SELECT 1 FROM play_tablesocket k WHERE k.table_id = {table} AND k.expires_at > %s
    ),
    (
        SELECT COALESCE(SUM(1 << p.number), 0) FROM play_seat p
        WHERE p.table_id = {table} AND EXISTS (
            SELECT 1 FROM play_tablesocket k WHERE k.seat_id = p.id AND k.expires_at > %s
        )
    ),
    (
        SELECT COALESCE(SUM(1 << p.number), 0) FROM play_seat p
        WHERE p.table_id = {table} AND p.your_turn_told_at > %s
    ),
    (
        SELECT COALESCE(SUM(1 << p.number), 0) FROM play_seat p
        WHERE p.table_id = {table} AND EXISTS (
            SELECT 1 FROM play_tablesocket k
            WHERE k.seat_id = p.id AND k.wants_views AND k.expires_at > %s
        )
    ),
    EXISTS (
        SELECT 1 FROM play_tablesocket k
        WHERE k.table_id = {table} AND NOT k.wants_views AND k.expires_at > %s
    ),
    (
        SELECT COALESCE(SUM(1 << p.number), 0) FROM play_seat p
        WHERE p.table_id = {table} AND (
            SELECT COUNT(*) FROM play_tablesocket k
            WHERE k.seat_id = p.id AND k.wants_views AND k.expires_at > %s
        ) > 1
    )
"""
PRESENCE_COLUMN_COUNT = 6


@dataclass(frozen=True)
class TablePresence:
    """Who is at a table, as `PRESENCE_COLUMNS` read it."""

    watched: bool  # a socket is open on the table: its moves are pushed
    present: frozenset[int]  # seats with a socket open
    told: frozenset[int]  # seats told of their turn, within the quiet time
    # Seats whose player holds a socket that asked for its views (play/live.py).
    viewers: frozenset[int] = frozenset()
    # A socket that hears versions only is open: a page, a spectator, a program.
    hinted: bool = False
    # Seats whose player holds two sockets or more that asked for their views.
    viewers_twice: frozenset[int] = frozenset()

    @classmethod
    def from_columns(
        cls, watched, present_mask, told_mask, viewers_mask, hinted, viewers_twice_mask
    ) -> "TablePresence":
        return cls(
            watched=bool(watched),
            present=_seats(present_mask),
            told=_seats(told_mask),
            viewers=_seats(viewers_mask),
            hinted=bool(hinted),
            viewers_twice=_seats(viewers_twice_mask),
        )

    def your_turn_notice_due(self, seat: int) -> bool:
        """Whether to tell this seat's player that it is their turn: not while they are at
        the table, and only once while they stay away."""
        return seat not in self.present and seat not in self.told


def _seats(mask: int) -> frozenset[int]:
    return frozenset(seat for seat in range(MAX_SEATS) if int(mask) >> seat & 1)


def presence_params() -> list:
    """The values `PRESENCE_COLUMNS` takes, as of now."""
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    told_since = now - timedelta(seconds=YOUR_TURN_QUIET_SECONDS)
    return [adapt(now), adapt(now), adapt(told_since), adapt(now), adapt(now), adapt(now)]


# --- Reads ------------------------------------------------------------------------------


def table_presence(*, table_id: int) -> TablePresence:
    """Who is at the table, for a move whose lock did not read it (the server's own)."""
    columns = PRESENCE_COLUMNS.format(table="t.id")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM play_table t WHERE t.id = %s", [*presence_params(), table_id]
        )
        return TablePresence.from_columns(*cursor.fetchone())


def anyone_watching(*, table_id: int) -> bool:
    return TableSocket.objects.filter(table_id=table_id, expires_at__gt=timezone.now()).exists()


# --- Writes: the consumer's, as its socket opens, pings and closes -------------------------


def socket_open(
    *, table_id: int, seat_id: int | None, user_id: int | None = None, wants_views: bool = False
) -> int | None:
    """Count a new socket on the table (`seat_id` None: a spectator's) for user `user_id`;
    `wants_views`: a player's socket that asked for its own views (play/live.py). Its id,
    or None if the table or the seat is gone meanwhile. TooManySockets when that user holds
    MAX_SOCKETS_PER_MEMBER live ones on the table (a soft cap: two opening at the same
    instant may both pass)."""
    now = timezone.now()
    # Each statement on its own, not in one transaction: the new row's foreign keys lock
    # the table's row (KEY SHARE) and wait for a move that holds it, and that move may
    # be writing this very seat (its player is told of their turn): holding the seat's
    # row meanwhile could deadlock (a socket was refused so at 1,000 tables arriving).
    _updated(FORGET_LAPSED, [table_id, now])
    if user_id is not None and _count(SOCKETS_HELD, [table_id, user_id]) >= MAX_SOCKETS_PER_MEMBER:
        raise TooManySockets()
    if seat_id is not None:
        # Seen now, and back at the table: the next absence is news again.
        _updated(SEE_SEAT_BACK, [now, seat_id])
    return _socket_create(table_id, seat_id, user_id, now, wants_views)


def socket_refresh(
    *,
    socket_id: int,
    table_id: int,
    seat_id: int | None,
    user_id: int | None = None,
    wants_views: bool = False,
) -> int | None:
    """The socket is still open: it counts for PRESENCE_SECONDS more. Its id, which is a
    new one if it had been swept away meanwhile (it went quiet for too long), or None if
    it went with its seat or its table (a player who left the lobby), or the seat is no
    longer theirs (a computer took it, play/leaving.py): it counts no more."""
    now = timezone.now()
    expires_at = now + timedelta(seconds=PRESENCE_SECONDS)
    if seat_id is not None and not _seat_seen(seat_id, user_id, now):
        # They left the game, or were removed: a computer plays the seat now.
        TableSocket.objects.filter(pk=socket_id).delete()
        return None
    if _updated(KEEP_SOCKET, [expires_at, socket_id]):
        return socket_id
    return _socket_create(table_id, seat_id, user_id, now, wants_views)


# A ping's two writes, written out: every open socket pings every 30 s, so a thousand
# tables make a hundred pings a second, and building these through the ORM cost more
# than running them (as for a move's statements, play/move_sql.py).
SEE_SEAT = "UPDATE play_seat SET seen_at = %s WHERE id = %s"
SEE_OWN_SEAT = SEE_SEAT + " AND user_id = %s"
KEEP_SOCKET = "UPDATE play_tablesocket SET expires_at = %s WHERE id = %s"
SEE_SEAT_BACK = "UPDATE play_seat SET seen_at = %s, your_turn_told_at = NULL WHERE id = %s"
# An arrival's delete of lapsed rows and count of the member's, written out for the same
# reason: through the ORM (the delete by way of its collector, for a model nothing refers
# to) a socket's opening cost 1.8 ms of the worker's CPU, where it costs 1.0 ms now
# (PostgreSQL, measured in one process).
FORGET_LAPSED = "DELETE FROM play_tablesocket WHERE table_id = %s AND expires_at <= %s"
SOCKETS_HELD = "SELECT COUNT(*) FROM play_tablesocket WHERE table_id = %s AND user_id = %s"


def _seat_seen(seat_id: int, user_id: int | None, now) -> bool:
    """Mark the seat seen now; False if it is no longer the user's."""
    if user_id is None:
        return bool(_updated(SEE_SEAT, [now, seat_id]))
    return bool(_updated(SEE_OWN_SEAT, [now, seat_id, user_id]))


def _updated(statement: str, values: list) -> int:
    """Run an UPDATE with datetimes adapted as the fields would: how many rows it changed."""
    adapt = connection.ops.adapt_datetimefield_value
    values = [adapt(value) if isinstance(value, datetime) else value for value in values]
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        return cursor.rowcount


def _count(statement: str, values: list) -> int:
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        return cursor.fetchone()[0]


def socket_close(*, socket_id: int) -> None:
    """Forget the socket's row, and mark its seat seen now: the moment they went away,
    for the host's Remove (play/leaving.py). Nothing for a row swept away already."""
    now = timezone.now()
    if connection.vendor == "postgresql":
        _updated(FORGET_SOCKET_SEEING_SEAT, [socket_id, now])
        return
    _updated(SEE_SOCKETS_SEAT, [now, socket_id])
    _updated(FORGET_SOCKET, [socket_id])


# A departure's writes, written out as an arrival's are: through the ORM (the seat's
# update joined through its sockets, the delete by way of its collector) a socket's
# closing cost the worker more CPU than its opening. On PostgreSQL one statement, in one
# round trip: the delete names the seat it leaves.
FORGET_SOCKET_SEEING_SEAT = """
    WITH gone AS (DELETE FROM play_tablesocket WHERE id = %s RETURNING seat_id)
    UPDATE play_seat SET seen_at = %s WHERE id IN (SELECT seat_id FROM gone)
"""
SEE_SOCKETS_SEAT = (
    "UPDATE play_seat SET seen_at = %s"
    " WHERE id IN (SELECT seat_id FROM play_tablesocket WHERE id = %s)"
)
FORGET_SOCKET = "DELETE FROM play_tablesocket WHERE id = %s"


def sockets_sweep() -> int:
    """Forget every socket past its expiry, the rows of processes that died without closing
    them, which a table that no socket opens again would keep (a worker queues this as it
    connects: play.tasks.sockets_sweep). How many went."""
    deleted, _ = TableSocket.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


def _socket_create(
    table_id: int, seat_id: int | None, user_id: int | None, now, wants_views: bool
) -> int | None:
    """The socket's row, or None if the table or the seat is gone."""
    try:
        with transaction.atomic():  # on PostgreSQL the failed insert must not spoil more
            socket = TableSocket.objects.create(
                table_id=table_id,
                seat_id=seat_id,
                user_id=user_id,
                expires_at=now + timedelta(seconds=PRESENCE_SECONDS),
                wants_views=wants_views and seat_id is not None,
            )
    except IntegrityError:
        return None
    return socket.pk


# --- The move's claim ---------------------------------------------------------------------


def your_turn_claim(*, table_id: int, seats: list[int]) -> None:
    """Mark these seats told of their turn. Called by a move, whose transaction holds the
    table's lock: the next move reads the marks only once this one has committed."""
    Seat.objects.filter(table_id=table_id, number__in=seats).update(
        your_turn_told_at=timezone.now()
    )
