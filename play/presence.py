"""Who is at a table now: the seats whose players hold the table's websocket open.

"Your turn" goes only to a player who is not at the table: one who is sees it on the
page, and a notification (with its e-mail) every turn would be noise. The marks live in
the cache (Redis when scaled, so every web process sees every socket): a counter per
seat, one up when a socket opens, one down when it closes. Each counter expires
PRESENCE_SECONDS after it was last refreshed (on connecting, and on each ping the page
sends every 30 s), so sockets left open by a process that died stop counting soon.

When the cache cannot be reached nobody is at a table: a notification too many is better
than one missed.
"""

import logging

from django.core.cache import cache

from holmes_site.throttling import cache_errors

logger = logging.getLogger(__name__)

PRESENCE_SECONDS = 90


def presence_key(table_id: int, seat: int) -> str:
    return f"presence:table{table_id}:seat{seat}"


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
        cache.decr(presence_key(table_id, seat))
    except (ValueError, *cache_errors()):
        pass  # expired already, or the cache is down: either way it counts nobody


def is_at_table(*, table_id: int, seat: int) -> bool:
    try:
        return (cache.get(presence_key(table_id, seat)) or 0) > 0
    except cache_errors():
        logger.warning("Presence unknown (cache unreachable): seat %s is notified", seat)
        return False
