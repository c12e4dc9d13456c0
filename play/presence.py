"""Who is at a table now: the seats whose players hold the table's websocket open; and
whether a player who is away has been told it is their turn.

"Your turn" goes only to a player who is not at the table: one who is sees it on the
page, and a notification (with its e-mail) every turn would be noise. The marks live in
the cache (Redis when scaled, so every web process sees every socket): a counter per
seat, one up when a socket opens, one down when it closes. Each counter expires
PRESENCE_SECONDS after it was last refreshed (on connecting, and on each ping the page
sends every 30 s), so sockets left open by a process that died stop counting soon.

A player who is away is told once, not at every turn: a program playing through the API
without a socket would otherwise get a notification and an e-mail for each of its turns.
The "told" mark is cleared when their last socket at the table closes (they were back,
so the next absence is news again) and expires after YOUR_TURN_QUIET_SECONDS.

The same cache counts every socket open on a table, spectators' too: a move pushes its
"version N exists" through the channel layer only while someone watches (play/live.py).
A table played through the API alone, by programs that hold no socket, costs Redis no
push at all.

When the cache cannot be reached nobody is at a table and nobody has been told: a
notification too many is better than one missed. Everyone may be watching: a push too
many costs little.
"""

import logging
from dataclasses import dataclass

from django.core.cache import cache

from holmes_site.throttling import cache_errors

logger = logging.getLogger(__name__)

PRESENCE_SECONDS = 90
YOUR_TURN_QUIET_SECONDS = 10 * 60


def presence_key(table_id: int, seat: int) -> str:
    return f"presence:table{table_id}:seat{seat}"


def told_key(table_id: int, seat: int) -> str:
    return f"told-your-turn:table{table_id}:seat{seat}"


def watchers_key(table_id: int) -> str:
    return f"watchers:table{table_id}"


def presence_arrive(*, table_id: int, seat: int) -> None:
    if not _count_up(presence_key(table_id, seat)):
        logger.warning("Could not mark seat %s present at table %s", seat, table_id)


def presence_refresh(*, table_id: int, seat: int) -> None:
    if not _refresh(presence_key(table_id, seat)):
        logger.warning("Could not refresh seat %s at table %s", seat, table_id)


def presence_leave(*, table_id: int, seat: int) -> None:
    if _count_down(presence_key(table_id, seat)):
        try:
            cache.delete(told_key(table_id, seat))  # an absence begins: news again
        except cache_errors():
            pass  # the told mark expires on its own


def watching_start(*, table_id: int) -> None:
    if not _count_up(watchers_key(table_id)):
        logger.warning("Could not count a socket on table %s", table_id)


def watching_refresh(*, table_id: int) -> None:
    _refresh(watchers_key(table_id))


def watching_stop(*, table_id: int) -> None:
    _count_down(watchers_key(table_id))


def anyone_watching(*, table_id: int) -> bool:
    try:
        return (cache.get(watchers_key(table_id)) or 0) > 0
    except cache_errors():
        return True


# --- The counters: up when a socket opens, down when it closes, kept alive by pings -----


def _count_up(key: str) -> bool:
    """One more socket; False if the cache could not count it."""
    try:
        if cache.add(key, 1, PRESENCE_SECONDS):
            return True  # the first socket: one round trip
        if cache.incr(key) < 1:  # a close that outlived its counter left it below zero
            cache.set(key, 1, PRESENCE_SECONDS)
        cache.touch(key, PRESENCE_SECONDS)
        return True
    except (ValueError, *cache_errors()):
        # ValueError: the counter expired between add and incr; the next ping restores it.
        return False


def _refresh(key: str) -> bool:
    """A socket is still open; False if the cache could not be reached."""
    try:
        if not cache.touch(key, PRESENCE_SECONDS):
            cache.add(key, 1, PRESENCE_SECONDS)  # expired while the socket stayed open
        return True
    except cache_errors():
        return False


def _count_down(key: str) -> bool:
    """One socket fewer; True if that was the last one."""
    try:
        return cache.decr(key) <= 0
    except (ValueError, *cache_errors()):
        return False  # expired already, or the cache is down: either way it counts nobody


def is_at_table(*, table_id: int, seat: int) -> bool:
    try:
        return (cache.get(presence_key(table_id, seat)) or 0) > 0
    except cache_errors():
        logger.warning("Presence unknown (cache unreachable): seat %s is notified", seat)
        return False


@dataclass(frozen=True)
class MoveMarks:
    """What a move asks the cache, read in one round trip (`move_marks`)."""

    watched: bool  # a socket is open at the table: the move is pushed
    away_untold: frozenset[int]  # of the seats asked about: away, and not told yet


def move_marks(*, table_id: int, turn_seats: list[int]) -> MoveMarks:
    """Whether anyone watches the table, and which of `turn_seats` are away and untold,
    in one round trip: each question on its own cost the web process about 70 µs."""
    keys = [watchers_key(table_id)]
    for seat in turn_seats:
        keys += [presence_key(table_id, seat), told_key(table_id, seat)]
    try:
        marks = cache.get_many(keys)
    except cache_errors():
        logger.warning("Presence unknown (cache unreachable): seats %s are notified", turn_seats)
        return MoveMarks(watched=True, away_untold=frozenset(turn_seats))
    away_untold = frozenset(
        seat
        for seat in turn_seats
        if (marks.get(presence_key(table_id, seat)) or 0) <= 0
        and not marks.get(told_key(table_id, seat))
    )
    return MoveMarks(watched=(marks.get(keys[0]) or 0) > 0, away_untold=away_untold)


def your_turn_claim(*, table_id: int, seat: int) -> bool:
    """Claim the notice for a seat that is away and untold: True for the one move that
    gets it."""
    try:
        return cache.add(told_key(table_id, seat), 1, YOUR_TURN_QUIET_SECONDS)
    except cache_errors():
        logger.warning("Presence unknown (cache unreachable): seat %s is notified", seat)
        return True


def your_turn_notice_due(*, marks: MoveMarks, table_id: int, seat: int) -> bool:
    """Whether to tell this seat's player that it is their turn, by the move's `marks`: not
    while they are at the table, and only once while they stay away. A True answer claims
    the notice (the cache's add is atomic), so two moves at once cannot both send it."""
    return seat in marks.away_untold and your_turn_claim(table_id=table_id, seat=seat)
