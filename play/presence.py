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

When the cache cannot be reached nobody is at a table and nobody has been told: a
notification too many is better than one missed.
"""

import logging

from django.core.cache import cache

from holmes_site.throttling import cache_errors

logger = logging.getLogger(__name__)

PRESENCE_SECONDS = 90
YOUR_TURN_QUIET_SECONDS = 10 * 60


def presence_key(table_id: int, seat: int) -> str:
    return f"presence:table{table_id}:seat{seat}"


def told_key(table_id: int, seat: int) -> str:
    return f"told-your-turn:table{table_id}:seat{seat}"


def presence_arrive(*, table_id: int, seat: int) -> None:
    key = presence_key(table_id, seat)
    try:
        if cache.add(key, 1, PRESENCE_SECONDS):
            return  # the seat's first socket: one round trip
        if cache.incr(key) < 1:  # a leave that outlived its counter left it below zero
            cache.set(key, 1, PRESENCE_SECONDS)
        cache.touch(key, PRESENCE_SECONDS)
    except (ValueError, *cache_errors()):
        # ValueError: the counter expired between add and incr; the next ping restores it.
        logger.warning("Could not mark seat %s present at table %s", seat, table_id)


def presence_refresh(*, table_id: int, seat: int) -> None:
    key = presence_key(table_id, seat)
    try:
        if not cache.touch(key, PRESENCE_SECONDS):
            cache.add(key, 1, PRESENCE_SECONDS)  # expired while the socket stayed open
    except cache_errors():
        logger.warning("Could not refresh seat %s at table %s", seat, table_id)


def presence_leave(*, table_id: int, seat: int) -> None:
    try:
        if cache.decr(presence_key(table_id, seat)) <= 0:
            cache.delete(told_key(table_id, seat))  # an absence begins: news again
    except (ValueError, *cache_errors()):
        pass  # expired already, or the cache is down: either way it counts nobody


def is_at_table(*, table_id: int, seat: int) -> bool:
    try:
        return (cache.get(presence_key(table_id, seat)) or 0) > 0
    except cache_errors():
        logger.warning("Presence unknown (cache unreachable): seat %s is notified", seat)
        return False


def your_turn_notice_due(*, table_id: int, seat: int) -> bool:
    """Whether to tell this seat's player that it is their turn: not while they are at the
    table, and only once while they stay away. A True answer claims the notice (the
    cache's add is atomic), so two moves at once cannot both send it."""
    present, told = presence_key(table_id, seat), told_key(table_id, seat)
    try:
        marks = cache.get_many([present, told])
        if (marks.get(present) or 0) > 0 or marks.get(told):
            return False
        return cache.add(told, 1, YOUR_TURN_QUIET_SECONDS)
    except cache_errors():
        logger.warning("Presence unknown (cache unreachable): seat %s is notified", seat)
        return True
