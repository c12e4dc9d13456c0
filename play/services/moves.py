"""The one write path for moves, people's, computer players' and the server's alike.

`game_apply_action` locks the table row, checks the client's expected version, runs the
engine, stores the new state and its events, bumps the version, and queues the side
effects (judging, live pushes, notifications, the table's next wake-up) to run after
commit. `apply_locked`, `store_move` and `append_events` work on a row their caller has
already locked (the wake-ups, play/leaving.py).
"""

import hashlib
import json
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from games import get_rules
from games.base import SYSTEM, Event, Refusal
from games.sites import get_site
from holmes_site.outbox import outbox_enqueue

from .. import move_sql
from ..models import Seat, Table, TableAttempt, TableStatus, audience_for
from ..presence import TablePresence
from .errors import (
    MAX_IDEMPOTENCY_KEY_CHARACTERS,
    IdempotencyKeyReused,
    IdempotencyKeyTooLong,
    NotSeated,
    StaleVersion,
    TableError,
)
from .side_effects import after_commit_tell_move, after_commit_wake, plan_wake

__all__ = [
    "ActionResult",
    "game_apply_action",
    "game_apply_player_action",
    "game_apply_seat_action",
    "apply_locked",
    "action_fingerprint",
    "store_move",
    "append_events",
]


@dataclass(frozen=True)
class ActionResult:
    """What came of an action: applied (with the new version) or refused (with why)."""

    table: Table
    applied: bool
    refusal: Refusal | None = None
    replayed: bool = False
    events: list = field(default_factory=list)

    def to_outcome(self) -> dict:
        if self.applied:
            return {"applied": True, "version": self.table.version}
        return {"applied": False, "refusal": self.refusal.to_dict()}


@transaction.atomic
def game_apply_action(
    *,
    table_id: int,
    player,
    action: dict,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Apply one action for `player` (a seat number, or SYSTEM) through the engine."""
    table = Table.objects.select_for_update().get(pk=table_id)
    return apply_locked(table, player, action, expected_version, idempotency_key)


@transaction.atomic
def game_apply_player_action(
    *,
    table_id: int,
    user,
    action: dict,
    expected_version: int,
    idempotency_key: str | None = None,
) -> tuple[Seat, ActionResult]:
    """`game_apply_action` for the seat `user` holds at this table. The seat, with its
    notebook, who is at the table and what came of the request's idempotency key come in
    the query that locks the table: the API's move makes one query where a membership
    check, the lock, a look in the cache and one for the key took four round trips.
    NotSeated for anyone else."""
    key = _key_to_look_up(idempotency_key)
    locked = move_sql.seat_locking_table(table_id=table_id, user_id=user.pk, key=key)
    if locked is None:
        raise NotSeated()
    seat, presence, stored, viewer_seats = locked
    result = apply_locked(
        seat.table,
        seat.number,
        action,
        expected_version,
        idempotency_key,
        presence=presence,
        stored=stored if key else UNREAD,
        viewer_seats=viewer_seats,
    )
    return seat, result


@transaction.atomic
def game_apply_seat_action(
    *,
    table_id: int,
    user,
    number: int,
    action: dict,
    expected_version: int | None,
    idempotency_key: str | None = None,
) -> ActionResult:
    """`game_apply_action` for seat `number`, which `user` holds themselves or for a
    player on their device (pass and play: the page knows which seat a device shows). Who
    is at the table and the key's outcome come in the query that locks it, as in
    `game_apply_player_action`.
    NotSeated when they hold no such seat (it went to a computer player meanwhile, say)."""
    key = _key_to_look_up(idempotency_key)
    actor_key = _actor_key(number, key) if key else None
    locked = move_sql.table_locking_for_seat(
        table_id=table_id, number=number, user_id=user.pk, key=actor_key
    )
    if locked is None:
        raise NotSeated()
    table, presence, stored, viewer_seats = locked
    return apply_locked(
        table,
        number,
        action,
        expected_version,
        idempotency_key,
        presence=presence,
        stored=stored if key else UNREAD,
        viewer_seats=viewer_seats,
    )


# `apply_locked` reads the key's first outcome itself: its caller has not.
UNREAD = object()


def _key_to_look_up(idempotency_key: str | None) -> str | None:
    """The key a person's move looks up in the statement that locks the table
    (play/move_sql.py): none when there is none, or when it is too long to be stored, which
    `apply_locked` refuses (IdempotencyKeyTooLong)."""
    if idempotency_key and len(idempotency_key) <= MAX_IDEMPOTENCY_KEY_CHARACTERS:
        return idempotency_key
    return None


def apply_locked(
    table: Table,
    player,
    action: dict,
    expected_version: int | None,
    idempotency_key: str | None,
    presence: TablePresence | None = None,
    *,
    by_bot: bool = False,
    stored=UNREAD,
    viewer_seats=None,
) -> ActionResult:
    """The write path, on a table row its caller has locked.

    The idempotency key is looked up before the version check, because a retried request
    carries the version it saw before its first try succeeded. It is looked up at the
    current version too: a key names one request, and sent again with another move (a
    client's bug, or a key reused on purpose to see what the first try was refused) it is
    refused, IdempotencyKeyReused, neither replayed nor applied.

    `presence`: who is at the table, if the lock read it (else it is read when needed).
    `by_bot`: the computer player at seat `player` moves, with a key of the server's.
    `stored`: what the locking read found of the key (play/move_sql.py), if it looked.
    `viewer_seats`: the seats the push's views go to, if the locking read found them.
    """
    actor_key = _actor_key(player, idempotency_key, by_bot=by_bot)
    fingerprint = action_fingerprint(action) if actor_key else ""
    if actor_key:
        if stored is UNREAD or (stored is None and expected_version != table.version):
            # On PostgreSQL this reads the keys as they are now, after the wait for the
            # lock: the move that held it may have been this very request's first try.
            # The locking read saw them as its statement began; when it found nothing,
            # that holds at the version the request expects, since every applied move
            # moves it on (a refused first try is refused again the same way, below).
            stored = move_sql.stored_outcome(table_id=table.pk, key=actor_key)
        outcome = _stored_outcome(stored, fingerprint)
        if outcome is not None:
            return _replayed(table, outcome)
    if table.status != TableStatus.PLAYING:
        raise TableError("This table is not playing.", "not_playing")
    if expected_version is not None and expected_version != table.version:
        raise StaleVersion(expected=expected_version, current=table.version, table=table)
    engine = get_rules(table.engine)
    applied = engine.apply(table.state, player, action)
    if not isinstance(applied, Refusal):
        new_state, events = applied
        return store_move(
            table, engine, new_state, events, actor_key, fingerprint, presence, player,
            viewer_seats=viewer_seats,
        )  # fmt: skip
    result = ActionResult(table=table, applied=False, refusal=applied)
    if actor_key:
        # Ignoring a conflict (as move_store does): a refused first try that committed
        # while this request waited for the lock left the same key, and this request was
        # refused the same way (the state, and so the engine's answer, has not changed).
        move_sql.action_request_insert(
            table_id=table.pk, key=actor_key, outcome=result.to_outcome(), fingerprint=fingerprint
        )
    return result


def _stored_outcome(stored: move_sql.Stored, fingerprint: str) -> dict | None:
    """The first outcome of a key, as `move_sql.stored_outcome` found it: an applied move's
    is on its first event, a refused one's (or an applied one's that made no event) in
    ActionRequest. IdempotencyKeyReused when the key's first request asked for another
    move."""
    if stored is None:
        return None
    outcome, first_fingerprint = stored
    _check_same_request(first_fingerprint, fingerprint)
    return outcome


def _check_same_request(stored: str | None, fingerprint: str) -> None:
    # Keys stored before fingerprints were have none: they match any move, as they did.
    if stored and stored != fingerprint:
        raise IdempotencyKeyReused()


def action_fingerprint(action: dict) -> str:
    """A short digest of a move, the same for equal JSON whatever the order of its keys:
    what an idempotency key's first request asked for."""
    canonical = json.dumps(action, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _actor_key(player, idempotency_key: str | None, *, by_bot: bool = False) -> str | None:
    """The key as stored: who sent it, then the key. A person's is under their seat
    ("seat2:<key>"), a computer player's under its own ("bot2:<key>"), the server's under
    "system:<key>". A person moves only as their seat, so whatever key they send, it can
    never be one the server will use: a refused move stored under the key a computer
    player moves with next would stop that computer for good (IdempotencyKeyReused).
    Too long a key is refused (IdempotencyKeyTooLong), never cut to fit the column."""
    if not idempotency_key:
        return None
    if len(idempotency_key) > MAX_IDEMPOTENCY_KEY_CHARACTERS:
        raise IdempotencyKeyTooLong()
    if player == SYSTEM:
        return f"system:{idempotency_key}"
    return f"{'bot' if by_bot else 'seat'}{player}:{idempotency_key}"


def _replayed(table: Table, outcome: dict) -> ActionResult:
    if outcome["applied"]:
        return ActionResult(table=table, applied=True, replayed=True)
    refusal = Refusal(**outcome["refusal"])
    return ActionResult(table=table, applied=False, refusal=refusal, replayed=True)


def store_move(
    table: Table,
    engine,
    new_state: dict,
    events: list,
    actor_key: str | None,
    fingerprint: str,
    presence: TablePresence | None,
    player=None,
    *,
    viewer_seats=None,
) -> ActionResult:
    previous_state = table.state
    table.state = new_state
    table.version += 1
    fields = ["state", "version", "event_count"]
    if engine.is_over(new_state):
        table.status = TableStatus.FINISHED
        table.finished_at = timezone.now()
        table.outcome = get_site(table.engine).outcome_record(engine.outcome(new_state))
        fields += ["status", "finished_at", "outcome"]
    fields += plan_wake(table, engine)
    fields += _update_progress(table, new_state)
    rows = _event_rows(table, events)
    result = ActionResult(table=table, applied=True, events=events)
    request = None
    if rows:
        rows[0].request_key = actor_key  # where a retry looks first (_stored_outcome)
        rows[0].request_fingerprint = fingerprint or None
    elif actor_key:
        request = (actor_key, result.to_outcome(), fingerprint)
    move_sql.move_store(table, fields, rows, request)  # the row, events and key at once
    _queue_new_judgements(table, new_state)
    after_commit_tell_move(table, previous_state, new_state, events, presence, player, viewer_seats)
    after_commit_wake(table)
    return result


def _update_progress(table: Table, state: dict) -> list[str]:
    """Keep whose turn it is and the round on the summary, for My tables: written only
    when they change, so most moves write no more than before. The fields to save."""
    progress = get_site(table.engine).progress(state)
    summary = table.summary or {}
    if all(summary.get(key) == value for key, value in progress.items()):
        return []
    table.summary = {**summary, **progress}
    return ["summary"]


def append_events(table: Table, events: list[Event]) -> None:
    """Store the events after the table's last, counted in `table.event_count`, which the
    caller saves with the rest of the row."""
    move_sql.events_insert(_event_rows(table, events))


def _event_rows(table: Table, events: list[Event]) -> list[move_sql.EventRow]:
    """The events as rows numbered after the table's last; counts them in
    `table.event_count`."""
    first = table.event_count + 1
    table.event_count += len(events)
    table_id, version = table.pk, table.version
    return [
        move_sql.EventRow(
            table_id, first + offset, version, audience_for(event.audience), event.type, event.data
        )
        for offset, event in enumerate(events)
    ]


def _queue_new_judgements(table: Table, state: dict) -> None:
    """File each request for a verdict the rules newly wait on (the game's site says
    what is judged and how), and queue its judging once this transaction commits."""
    site = get_site(table.engine)
    requests = site.judgement_requests(state)
    if not requests:
        return
    known = set(
        TableAttempt.objects.filter(
            table=table, request__in=[r["request"] for r in requests]
        ).values_list("request", flat=True)
    )
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    for request in requests:
        if request["request"] in known:
            continue
        seat = seats[request["player"]]
        attempt = site.judgement_file(
            case_version_id=table.case_version_id,
            user_id=seat.user_id,
            request=request,
            private=table.is_private,
        )
        table_attempt = TableAttempt.objects.create(
            table=table,
            seat=seat,
            request=request["request"],
            kind=request["kind"],
            attempt=attempt,
        )
        # Through the outbox: if Redis is down at commit, it is enqueued again later.
        outbox_enqueue(task="play.tasks.judge_table_attempt", args=[table_attempt.pk])
