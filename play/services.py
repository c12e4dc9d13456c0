"""Every write to tables. Views, the API, consumers and tasks call these and nothing else.

One write path for moves: `game_apply_action` locks the table row, checks the client's
expected version, runs the engine, stores the new state and its events, bumps the version,
and queues the side effects (judging, live pushes, notifications) to run after commit.
"""

import secrets
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.selectors import name_taken_at_table
from accounts.services import outbox_enqueue
from cases.models import AnswerAttempt, CaseVersion, VersionStatus
from games import get_rules
from games.base import SYSTEM, Event, Refusal

from . import move_sql, selectors
from .models import (
    MAX_SEATS,
    ActionRequest,
    Colour,
    Notebook,
    Seat,
    Table,
    TableAttempt,
    TableEvent,
    TableStatus,
    audience_for,
    fixed_digest_for,
)
from .presence import TablePresence, table_presence, your_turn_claim

DEFAULT_ENGINE = "watson_holmes"
TABLE_OPTIONS = {"casebook": bool, "random_start": bool, "play_on": bool}


class TableError(Exception):
    """A table write the rules of the site refuse; `code` for machines, str for people."""

    code = "table_error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class StaleVersion(TableError):
    code = "stale_version"

    def __init__(self, *, expected: int, current: int):
        super().__init__(
            f"The table has moved on (version {current}, you sent {expected}): "
            "reload it and try again."
        )
        self.current = current


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


# --- Lobby ----------------------------------------------------------------------------


@transaction.atomic
def table_create(
    *,
    host,
    case_version: CaseVersion,
    options: dict | None = None,
    turn_timer_seconds: int | None = None,
    engine: str = DEFAULT_ENGINE,
) -> Table:
    if case_version.status != VersionStatus.PUBLISHED:
        raise TableError("Only a published case can be played.", "case_not_published")
    table = Table.objects.create(
        case_version=case_version,
        engine=engine,
        options=_clean_options(options or {}),
        turn_timer_seconds=turn_timer_seconds,
        host=host,
        seed=secrets.randbits(62),
        summary={"case": selectors.case_summary(version=case_version)},
    )
    Seat.objects.create(table=table, user=host, number=0, colour=Colour.values[0])
    return table


def _clean_options(options: dict) -> dict:
    unknown = sorted(set(options) - set(TABLE_OPTIONS))
    if unknown:
        raise TableError(f"Unknown table option: {', '.join(unknown)}.", "bad_option")
    return {name: bool(options.get(name, False)) for name in TABLE_OPTIONS}


@transaction.atomic
def table_join(*, invite_code: str, user) -> Seat:
    """Take the first free seat at the table this invite code opens."""
    table = Table.objects.select_for_update().filter(invite_code=invite_code).first()
    if table is None:
        raise TableError("This invite code opens no table.", "bad_invite")
    existing = Seat.objects.filter(table=table, user=user).first()
    if existing:
        return existing
    if table.is_private:
        raise TableError("This is a private play-test table: nobody can join it.", "private")
    # The pages, the log and the notices name players by their names: one name per table.
    same_name = name_taken_at_table(table_id=table.pk, user=user)
    if same_name:
        raise TableError(
            f"A player at this table is already called {same_name}: change your display "
            "name in your profile, then join.",
            "name_taken",
        )
    if table.status != TableStatus.LOBBY:
        raise TableError("This table has already started.", "table_started")
    seats = list(Seat.objects.filter(table=table))
    capacity = min(MAX_SEATS, table.case_version.max_players)
    if len(seats) >= capacity:
        raise TableError(f"This table is full ({capacity} players).", "table_full")
    taken_numbers = {seat.number for seat in seats}
    taken_colours = {seat.colour for seat in seats}
    number = next(n for n in range(MAX_SEATS) if n not in taken_numbers)
    colour = next(c for c in Colour.values if c not in taken_colours)
    seat = Seat.objects.create(table=table, user=user, number=number, colour=colour)
    _bump_lobby(table)
    return seat


@transaction.atomic
def table_leave(*, table_id: int, user) -> None:
    table = Table.objects.select_for_update().get(pk=table_id)
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        return
    if table.status != TableStatus.LOBBY:
        raise TableError("You cannot leave a table once the game has started.", "table_started")
    if table.host_id == user.pk:
        raise TableError("The host cannot leave their own table.", "host_cannot_leave")
    seat.delete()
    _renumber_seats(table)
    _bump_lobby(table)


def _renumber_seats(table: Table) -> None:
    """Seats stay 0..N-1 without gaps: the engine's player indices."""
    for number, seat in enumerate(Seat.objects.filter(table=table).order_by("number")):
        if seat.number != number:
            seat.number = number
            seat.save(update_fields=["number"])


@transaction.atomic
def seat_choose_colour(*, table_id: int, user, colour: str) -> Seat:
    table = Table.objects.select_for_update().get(pk=table_id)
    if colour not in Colour.values:
        raise TableError(f"{colour!r} is not a pawn colour.", "bad_colour")
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise PermissionDenied("You have no seat at this table.")
    if table.status != TableStatus.LOBBY:
        raise TableError("Colours are chosen in the lobby.", "table_started")
    holder = Seat.objects.filter(table=table, colour=colour).exclude(pk=seat.pk).first()
    if holder:
        raise TableError(f"{holder.user.public_name} already plays {colour}.", "colour_taken")
    seat.colour = colour
    seat.save(update_fields=["colour"])
    _bump_lobby(table)
    return seat


def _bump_lobby(table: Table) -> None:
    table.version += 1
    table.save(update_fields=["version"])
    _after_commit_push(table)


@transaction.atomic
def table_start(*, table_id: int, user) -> Table:
    table = Table.objects.select_for_update().select_related("case_version__case").get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host can start the game.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has already started.", "table_started")
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
    version = table.case_version
    if not version.min_players <= len(seats) <= version.max_players:
        raise TableError(
            f"This case is for {version.min_players}–{version.max_players} players; "
            f"the table has {len(seats)}.",
            "player_count",
        )
    engine = get_rules(table.engine)
    config = selectors.engine_config_for(version=version, options=table.options)
    config["options"]["host"] = next(s.number for s in seats if s.user_id == table.host_id)
    state = engine.setup(config, [seat.user.public_name for seat in seats], table.seed)
    # Stored once; each move then writes only the rest of the state (play/models.py).
    fixed_keys = getattr(engine, "FIXED_KEYS", ())
    table.fixed_state = {key: state[key] for key in fixed_keys} or None
    table.fixed_digest = fixed_digest_for(table.fixed_state)
    table.state = state
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    table.version += 1
    # The seats no longer change: every view lists them from here, without a query.
    table.summary = {
        "case": selectors.case_summary(version=version),
        "seats": selectors.seats_summary(table=table, seats=seats),
    }
    _append_events(table, [Event("table_started")])
    table.save(
        update_fields=[
            *("fixed_state", "fixed_digest", "state", "status", "started_at"),
            *("version", "summary", "event_count"),
        ]
    )
    Notebook.objects.bulk_create([Notebook(seat=seat) for seat in seats], ignore_conflicts=True)
    _after_commit_push(table)
    _after_commit_notify(table, "table_started")
    return table


# --- The move write path ----------------------------------------------------------------


class NotSeated(TableError):
    """The user has no seat at this table (or there is no such table)."""

    code = "not_seated"

    def __init__(self):
        super().__init__("You have no seat at this table.")


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
    return _apply(table, player, action, expected_version, idempotency_key)


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
    notebook, and who is at the table come in the query that locks the table: the API's
    move makes one query where a membership check, the lock and a look in the cache took
    three round trips. NotSeated for anyone else."""
    locked = move_sql.seat_locking_table(table_id=table_id, user_id=user.pk)
    if locked is None:
        raise NotSeated()
    seat, presence = locked
    result = _apply(
        seat.table, seat.number, action, expected_version, idempotency_key, presence=presence
    )
    return seat, result


def _apply(
    table: Table,
    player,
    action: dict,
    expected_version: int | None,
    idempotency_key: str | None,
    presence: TablePresence | None = None,
) -> ActionResult:
    """The write path, on a table row its caller has locked.

    The idempotency key is looked up before the version check, because a retried request
    carries the version it saw before its first try succeeded. A move that matches the
    version needs no look-up: had a try with its key been applied, the version would have
    moved on, and a try that was refused left the state (and so the engine's answer) as it
    was. A stale version, or a system action (which sends none), may hide a first try.

    `presence`: who is at the table, if the lock read it (else it is read when needed).
    """
    actor_key = _actor_key(player, idempotency_key)
    if actor_key and expected_version != table.version:
        # On PostgreSQL this reads the keys as they are now, after the wait for the lock:
        # the move that held it may have been this very request's first try.
        outcome = _stored_outcome(table.pk, actor_key)
        if outcome is not None:
            return _replayed(table, outcome)
    if table.status != TableStatus.PLAYING:
        raise TableError("This table is not playing.", "not_playing")
    if expected_version is not None and expected_version != table.version:
        raise StaleVersion(expected=expected_version, current=table.version)
    engine = get_rules(table.engine)
    applied = engine.apply(table.state, player, action)
    if not isinstance(applied, Refusal):
        new_state, events = applied
        return _store_move(table, engine, new_state, events, actor_key, presence)
    result = ActionResult(table=table, applied=False, refusal=applied)
    if actor_key:
        # Ignoring a conflict (as move_store does): a refused first try that committed
        # while this request waited for the lock left the same key, and this request was
        # refused the same way (the state, and so the engine's answer, has not changed).
        move_sql.action_request_insert(
            table_id=table.pk, key=actor_key, outcome=result.to_outcome()
        )
    return result


def _stored_outcome(table_id: int, actor_key: str) -> dict | None:
    """The first outcome of a key: an applied move's is on its first event, a refused
    one's (or an applied one's that made no event) in ActionRequest."""
    made = TableEvent.objects.filter(table_id=table_id, request_key=actor_key)
    version = next(iter(made.values_list("table_version", flat=True)[:1]), None)
    if version is not None:
        return {"applied": True, "version": version}
    stored = ActionRequest.objects.filter(table_id=table_id, key=actor_key)
    return next(iter(stored.values_list("outcome", flat=True)[:1]), None)


def _actor_key(player, idempotency_key: str | None) -> str | None:
    if not idempotency_key:
        return None
    actor = "system" if player == SYSTEM else f"seat{player}"
    return f"{actor}:{idempotency_key}"[:120]


def _replayed(table: Table, outcome: dict) -> ActionResult:
    if outcome["applied"]:
        return ActionResult(table=table, applied=True, replayed=True)
    refusal = Refusal(**outcome["refusal"])
    return ActionResult(table=table, applied=False, refusal=refusal, replayed=True)


def _store_move(
    table: Table,
    engine,
    new_state: dict,
    events: list,
    actor_key: str | None,
    presence: TablePresence | None,
) -> ActionResult:
    previous_state = table.state
    table.state = new_state
    table.version += 1
    fields = ["state", "version", "event_count"]
    if engine.is_over(new_state):
        table.status = TableStatus.FINISHED
        table.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    rows = _event_rows(table, events)
    result = ActionResult(table=table, applied=True, events=events)
    request = None
    if rows:
        rows[0].request_key = actor_key  # where a retry looks first (_stored_outcome)
    elif actor_key:
        request = (actor_key, result.to_outcome())
    move_sql.move_store(table, fields, rows, request)  # the row, events and key at once
    _queue_new_judgements(table, engine, new_state)
    _after_commit_tell_move(table, engine, previous_state, new_state, events, presence)
    return result


def _append_events(table: Table, events: list[Event]) -> None:
    """Store the events after the table's last, counted in `table.event_count`, which the
    caller saves with the rest of the row."""
    move_sql.events_insert(_event_rows(table, events))


def _event_rows(table: Table, events: list[Event]) -> list[TableEvent]:
    """The events as rows numbered after the table's last; counts them in
    `table.event_count`."""
    first = table.event_count + 1
    table.event_count += len(events)
    return [
        TableEvent(
            table_id=table.pk,
            sequence=first + offset,
            table_version=table.version,
            audience=audience_for(event.audience),
            type=event.type,
            payload=event.data,
        )
        for offset, event in enumerate(events)
    ]


# --- Judging at 221B ------------------------------------------------------------------


def _queue_new_judgements(table: Table, engine, state: dict) -> None:
    """File an answer attempt for each request the engine newly waits on, and queue its
    judging once this transaction commits (so the task finds the rows)."""
    pending = getattr(engine, "pending_judgement", None)
    requests = pending(state) if pending else []
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
        attempt = AnswerAttempt.objects.create(
            version_id=table.case_version_id,
            user_id=seat.user_id,
            answers=request["answers"],
            private=table.is_private,
        )
        table_attempt = TableAttempt.objects.create(
            table=table,
            seat=seat,
            request=request["request"],
            kind=request["kind"],
            attempt=attempt,
        )
        _after_commit_judge(table_attempt.pk)


def _after_commit_judge(table_attempt_id: int) -> None:
    # Through the outbox: if Redis is down at commit, the beat enqueues it later.
    outbox_enqueue(task="play.tasks.judge_table_attempt", args=[table_attempt_id])


def table_attempt_deliver_verdicts(*, table_attempt_id: int) -> ActionResult | None:
    """Judge a table's attempt (once) and hand the verdicts to the game as `judged`.

    Safe to run twice: the attempt stores its verdicts once, and the `judged` action
    carries an idempotency key, so the game receives them once.
    """
    from cases.services import answer_attempt_judge

    table_attempt = TableAttempt.objects.select_related("attempt").get(pk=table_attempt_id)
    attempt = answer_attempt_judge(attempt_id=table_attempt.attempt_id)
    verdicts = {
        question: _game_verdict(table_attempt.kind, judged["verdict"])
        for question, judged in attempt.verdicts.items()
    }
    try:
        return game_apply_action(
            table_id=table_attempt.table_id,
            player=SYSTEM,
            action={"type": "judged", "request": table_attempt.request, "verdicts": verdicts},
            idempotency_key=f"judged-{table_attempt.request}",
        )
    except TableError:
        return None  # the table ended meanwhile; nothing waits for these verdicts


def _game_verdict(kind: str, verdict: str) -> str:
    # A full attempt at 221B is right only when the checker is sure: a strict Sherlock
    # never accepts a doubtful answer. A Holmes answer check passes "unsure" on to the
    # eliminated players, who rule on it (rules-watson-holmes.md).
    if kind == "solve" and verdict == "unsure":
        return "wrong"
    return verdict


# --- Notebook ---------------------------------------------------------------------------


@transaction.atomic
def notebook_write(*, table_id: int, user, text: str) -> Notebook:
    table = Table.objects.select_for_update().get(pk=table_id)
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise PermissionDenied("You have no seat at this table.")
    if len(text) > Notebook._meta.get_field("text").max_length:
        raise ValidationError("A notebook holds at most 50,000 characters.")
    if table.state is not None and not selectors.may_write_notes(table=table, player=seat.number):
        raise TableError(
            "Irene Adler has struck: nobody else may write notes during this investigation.",
            "notes_forbidden",
        )
    notebook, _ = Notebook.objects.get_or_create(seat=seat)
    notebook.text = text
    notebook.save(update_fields=["text", "updated_at"])
    return notebook


# --- Side effects after commit --------------------------------------------------------


def _after_commit_push(table: Table, watched: bool | None = None) -> None:
    from .live import push_table_version

    table_id, version = table.pk, table.version
    transaction.on_commit(
        lambda: push_table_version(table_id=table_id, version=version, watched=watched)
    )


def _after_commit_notify(table: Table, kind: str, details: dict | None = None) -> None:
    # Written in the move's transaction, sent after commit, redelivered by the beat if the
    # broker was down: a committed move always ends in its notifications, once each.
    outbox_enqueue(
        task="play.tasks.notify_table", args=[table.pk, kind, table.version, details or {}]
    )


def _after_commit_tell_move(
    table: Table, engine, before: dict, after: dict, events, presence: TablePresence | None
) -> None:
    """The move's push and notifications, by who was at the table when the move took its
    lock: a socket that opens after that misses this push, and finds the version by its
    first fetch."""
    if presence is None:
        presence = table_presence(table_id=table.pk)
    _after_commit_push(table, watched=presence.watched)
    changes = selectors.notable_changes(engine=engine, before=before, after=after, events=events)
    # At the table, the page says so; away, they are told once (play/presence.py).
    told = [
        details["player"]
        for kind, details in changes
        if kind == "your_turn" and presence.your_turn_notice_due(details["player"])
    ]
    if told:
        your_turn_claim(table_id=table.pk, seats=told)
    for kind, details in changes:
        if kind != "your_turn" or details["player"] in told:
            _after_commit_notify(table, kind, details)


__all__ = [
    "ActionResult",
    "NotSeated",
    "StaleVersion",
    "TableError",
    "game_apply_action",
    "game_apply_player_action",
    "notebook_write",
    "seat_choose_colour",
    "table_attempt_deliver_verdicts",
    "table_create",
    "table_create_private",
    "table_join",
    "table_leave",
    "table_start",
]


# --- Private tables ----------------------------------------------------------------------


@transaction.atomic
def table_create_private(*, host, case_version: CaseVersion) -> Table:
    """A private solo table for `host`, on any version (`table_create` only takes published
    ones): no invite, nobody else joins it or reads the version through it, and it counts
    in no figure. Who may have one is not decided here: the caller (a play-test in
    authoring.services.case_playtest_start) has already checked."""
    table = Table.objects.create(
        case_version=case_version,
        engine=DEFAULT_ENGINE,
        options=_clean_options({}),
        is_private=True,
        host=host,
        seed=secrets.randbits(62),
        summary={"case": selectors.case_summary(version=case_version)},
    )
    Seat.objects.create(table=table, user=host, number=0, colour=Colour.values[0])
    return table
