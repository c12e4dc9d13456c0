"""Every write to tables. Views, the API, consumers and tasks call these and nothing else.

One write path for moves: `game_apply_action` locks the table row, checks the client's
expected version, runs the engine, stores the new state and its events, bumps the version,
and queues the side effects (judging, live pushes, notifications, the table's next
wake-up for a computer player or a timer) to run after commit.
"""

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import name_taken_at_table
from accounts.services import notifications_send
from cases.models import CaseVersion, VersionStatus
from games import GAMES, case_game, get_game, get_rules
from games.base import SYSTEM, Event, OptionsInvalid, Refusal
from games.sites import get_site
from holmes_site.outbox import outbox_enqueue
from holmes_site.safe_input import json_refusal

from . import move_sql, selectors
from .models import (
    MAX_MARKS_BYTES,
    Notebook,
    Seat,
    Spectator,
    Table,
    TableAttempt,
    TableEvent,
    TableStatus,
    audience_for,
    fixed_digest_for,
)
from .presence import TablePresence, table_presence, your_turn_claim


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


# The longest idempotency key a client may send, however it sends it (the API's body or
# Idempotency-Key header, the page's form, a socket's move). A longer one is refused, never
# cut short: two keys cut to the same start would be taken for one request.
MAX_IDEMPOTENCY_KEY_CHARACTERS = 80
KEY_TOO_LONG = (
    f"The idempotency key is too long: at most {MAX_IDEMPOTENCY_KEY_CHARACTERS} characters."
)


class IdempotencyKeyTooLong(TableError):
    """An idempotency key over MAX_IDEMPOTENCY_KEY_CHARACTERS (400)."""

    code = "idempotency_key_too_long"

    def __init__(self):
        super().__init__(KEY_TOO_LONG)


class IdempotencyKeyReused(TableError):
    """An idempotency key sent again with another move than its first request's (422)."""

    code = "idempotency_key_reused"

    def __init__(self):
        super().__init__(
            "This idempotency key was already used for another move: "
            "send a new key with each new move."
        )


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
    game: str | None = None,
    case_version: CaseVersion | None = None,
    options: dict | None = None,
    turn_timer_seconds: int | None = None,
) -> Table:
    """A new table of `game` in its lobby, the host in the first seat. A game that needs a
    case takes a published `case_version` (and a case alone means the case game);
    `options` are the game's table options."""
    if game is None and case_version is not None:
        game = case_game().name
    if game not in GAMES:
        raise TableError(f"There is no game called {game!r}.", "unknown_game")
    definition = get_game(game)
    if definition.needs_case:
        if case_version is None:
            raise TableError(
                f"{definition.title} is played with a case: choose one.", "case_needed"
            )
        if case_version.status != VersionStatus.PUBLISHED:
            raise TableError("Only a published case can be played.", "case_not_published")
    elif case_version is not None:
        raise TableError(f"{definition.title} is played without a case.", "no_case_needed")
    _check_case_not_in_play(user=host, case_version_id=case_version and case_version.pk)
    return _table_new(
        host=host,
        game=game,
        case_version=case_version,
        options=_clean_options(definition, options),
        turn_timer_seconds=_clean_timer(turn_timer_seconds),
    )


def _table_new(*, host, game: str, case_version, options: dict, **fields) -> Table:
    site = get_site(game)
    table = Table.objects.create(
        engine=game,
        case_version=case_version,
        options=options,
        host=host,
        seed=secrets.randbits(62),
        summary=site.summary(case_version),
        **fields,
    )
    Seat.objects.create(table=table, user=host, number=0, colour=get_game(game).colours[0].value)
    return table


def _clean_options(game, options: dict | None) -> dict:
    try:
        return game.clean_options(options or {})
    except OptionsInvalid as error:
        raise TableError(str(error), "bad_option") from None


# A turn timer shorter than this leaves no time to read a card; longer than a day is
# no timer at all.
TIMER_RANGE = (10, 24 * 60 * 60)


def _clean_timer(seconds) -> int | None:
    if seconds in (None, "", 0):
        return None
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise TableError("The turn timer is a whole number of seconds.", "bad_timer")
    low, high = TIMER_RANGE
    if not low <= seconds <= high:
        raise TableError(
            f"The turn timer is between {low} seconds and {high // 3600} hours.", "bad_timer"
        )
    return seconds


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
    _check_case_not_in_play(user=user, case_version_id=table.case_version_id)
    seat = _seat_add(table, user=user)
    _bump_lobby(table)
    return seat


def _check_case_not_in_play(*, user, case_version_id, besides: int | None = None) -> None:
    """One running table of a case per person: at a second one they could give up at once
    (answer anything, say) and read the solution the first is still played for.
    Refused with a sentence, naming whoever it is when it is not `user` themselves."""
    if not case_version_id:
        return
    running = selectors.case_in_play_for(
        user_id=user.pk, case_version_id=case_version_id, besides=besides
    )
    if running is None:
        return
    if besides is None:
        raise TableError(
            "You are playing this case at another table: finish that game first, then "
            "play it again here (one table of a case at a time, so that neither can show "
            "you the other's solution).",
            "case_in_play",
        )
    raise TableError(
        f"{user.public_name} is playing this case at another table: start once that game "
        "is over (one table of a case at a time, so that neither can show its solution "
        "to someone still playing the other).",
        "case_in_play",
    )


def _seat_add(table: Table, *, user=None, bot_name: str = "", **local) -> Seat:
    """The next free seat, with the first free colour of the game; refused when full."""
    seats = list(Seat.objects.filter(table=table))
    _, capacity = get_site(table.engine).player_range(table.case_version)
    if len(seats) >= capacity:
        raise TableError(f"This table is full ({capacity} players).", "table_full")
    taken_numbers = {seat.number for seat in seats}
    taken_colours = {seat.colour for seat in seats}
    number = next(n for n in range(capacity) if n not in taken_numbers)
    colours = [colour.value for colour in get_game(table.engine).colours]
    colour = next(c for c in colours if c not in taken_colours)
    return Seat.objects.create(
        table=table, user=user, bot_name=bot_name, number=number, colour=colour, **local
    )


# Computer players are plainly named: a detective's name would read like a game's own
# character ("Lestrade went to Inspector Lestrade").
BOT_NAME = "Computer {number}"


@transaction.atomic
def seat_add_bot(*, table_id: int, user) -> Seat:
    """The host seats a computer player in the lobby (games with a bot only)."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host seats computer players.")
    game = get_game(table.engine)
    if game.bot is None:
        raise TableError(f"{game.title} has no computer players.", "no_bot")
    if table.is_private:
        raise TableError("A private play-test is played alone.", "private")
    if table.status != TableStatus.LOBBY:
        raise TableError("Computer players are seated in the lobby.", "table_started")
    taken = set(Seat.objects.filter(table=table).values_list("bot_name", flat=True))
    name = next(
        BOT_NAME.format(number=number)
        for number in range(1, len(taken) + 2)
        if BOT_NAME.format(number=number) not in taken
    )
    seat = _seat_add(table, bot_name=name)
    _bump_lobby(table)
    return seat


@transaction.atomic
def seat_remove_bot(*, table_id: int, user, number: int) -> None:
    """The host takes a computer player's seat away again, in the lobby."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host removes computer players.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has started: every seat stays.", "table_started")
    deleted, _ = Seat.objects.filter(
        table=table, number=number, user__isnull=True, held_by__isnull=True
    ).delete()
    if not deleted:
        raise TableError("No computer player sits in that seat.", "no_such_bot")
    _renumber_seats(table)
    _bump_lobby(table)


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
    if colour not in [c.value for c in get_game(table.engine).colours]:
        raise TableError(f"{colour!r} is not a colour of this game.", "bad_colour")
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise PermissionDenied("You have no seat at this table.")
    if table.status != TableStatus.LOBBY:
        raise TableError("Colours are chosen in the lobby.", "table_started")
    holder = Seat.objects.filter(table=table, colour=colour).exclude(pk=seat.pk).first()
    if holder:
        raise TableError(f"{holder.public_name} already plays {colour}.", "colour_taken")
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
    # Only the table's row is locked: PostgreSQL cannot lock the optional case's side of
    # the outer join (a card game has none).
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("case_version__case")
        .get(pk=table_id)
    )
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host can start the game.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has already started.", "table_started")
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
    site = get_site(table.engine)
    low, high = site.player_range(table.case_version)
    if not low <= len(seats) <= high:
        raise TableError(
            f"This table is for {low}–{high} players; it has {len(seats)}.", "player_count"
        )
    for seat in seats:
        if seat.user is not None:
            _check_case_not_in_play(
                user=seat.user, case_version_id=table.case_version_id, besides=table.pk
            )
    rules = get_rules(table.engine)
    host_seat = next((s.number for s in seats if s.user_id == table.host_id), 0)
    config = site.config(
        case_version=table.case_version, options=table.options, host_seat=host_seat
    )
    try:
        state = rules.setup(config, [seat.public_name for seat in seats], table.seed)
    except ValueError as error:
        # Options that this number of players cannot start with (the first player's
        # seat, say): the rules say why in a sentence.
        raise TableError(str(error), "cannot_start") from None
    # Stored once; each move then writes only the rest of the state (play/models.py).
    fixed_keys = getattr(rules, "FIXED_KEYS", ())
    table.fixed_state = {key: state[key] for key in fixed_keys} or None
    table.fixed_digest = fixed_digest_for(table.fixed_state)
    table.state = state
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    table.version += 1
    # The seats no longer change: every view lists them from here, without a query.
    table.summary = {
        **site.summary(table.case_version),
        "seats": selectors.seats_summary(table=table, seats=seats),
        **site.progress(state),
    }
    _append_events(table, [Event("table_started")])
    wake_fields = _plan_wake(table, rules)
    table.save(
        update_fields=[
            *("fixed_state", "fixed_digest", "state", "status", "started_at"),
            *("version", "summary", "event_count", *wake_fields),
        ]
    )
    Notebook.objects.bulk_create(
        [Notebook(seat=seat) for seat in seats if not seat.is_bot], ignore_conflicts=True
    )
    _after_commit_push(table)
    hosts = [seat.number for seat in seats if seat.user_id == table.host_id]
    _after_commit_notify(table, "table_started", {"actor_seat": hosts[0]} if hosts else {})
    _after_commit_wake(table)
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
    *,
    by_bot: bool = False,
) -> ActionResult:
    """The write path, on a table row its caller has locked.

    The idempotency key is looked up before the version check, because a retried request
    carries the version it saw before its first try succeeded. It is looked up at the
    current version too: a key names one request, and sent again with another move (a
    client's bug, or a key reused on purpose to see what the first try was refused) it is
    refused, IdempotencyKeyReused, neither replayed nor applied.

    `presence`: who is at the table, if the lock read it (else it is read when needed).
    `by_bot`: the computer player at seat `player` moves, with a key of the server's.
    """
    actor_key = _actor_key(player, idempotency_key, by_bot=by_bot)
    fingerprint = action_fingerprint(action) if actor_key else ""
    if actor_key:
        # On PostgreSQL this reads the keys as they are now, after the wait for the lock:
        # the move that held it may have been this very request's first try.
        outcome = _stored_outcome(table.pk, actor_key, fingerprint)
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
        return _store_move(
            table, engine, new_state, events, actor_key, fingerprint, presence, player
        )
    result = ActionResult(table=table, applied=False, refusal=applied)
    if actor_key:
        # Ignoring a conflict (as move_store does): a refused first try that committed
        # while this request waited for the lock left the same key, and this request was
        # refused the same way (the state, and so the engine's answer, has not changed).
        move_sql.action_request_insert(
            table_id=table.pk, key=actor_key, outcome=result.to_outcome(), fingerprint=fingerprint
        )
    return result


def _stored_outcome(table_id: int, actor_key: str, fingerprint: str) -> dict | None:
    """The first outcome of a key: an applied move's is on its first event, a refused
    one's (or an applied one's that made no event) in ActionRequest. IdempotencyKeyReused
    when the key's first request asked for another move."""
    stored = move_sql.stored_outcome(table_id=table_id, key=actor_key)
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


def _store_move(
    table: Table,
    engine,
    new_state: dict,
    events: list,
    actor_key: str | None,
    fingerprint: str,
    presence: TablePresence | None,
    player=None,
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
    fields += _plan_wake(table, engine)
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
    _after_commit_tell_move(table, previous_state, new_state, events, presence, player)
    _after_commit_wake(table)
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


# --- Computer players and timers --------------------------------------------------------
#
# After every change of a table, `_plan_wake` works out when the server must next act
# there: a computer player owes a move (after a short pause, so that people can follow),
# or the seats it waits for run out of time (the table's turn timer, or a window the game
# itself sets). Celery is asked to come back then (`play.tasks.table_wake`); `table_wake`
# does one thing and plans the next, so a chain of computer moves is a chain of tasks,
# never a recursion, and no request waits for it. A sweep (`tables_wake_due`) catches any
# wake-up a lost task missed, and is what runs them where Celery has no worker.


def _plan_wake(table: Table, rules) -> list[str]:
    """Set the table's deadline and next wake-up from its state; the fields to save."""
    table.deadline_at = table.wake_at = None
    if table.status != TableStatus.PLAYING:
        return ["deadline_at", "wake_at"]
    waiting = rules.waiting_for(table.state)
    now = timezone.now()
    seconds = rules.deadline_seconds(table.state) or table.turn_timer_seconds
    if waiting and seconds:
        table.deadline_at = now + timedelta(seconds=seconds)
    wake = [table.deadline_at] if table.deadline_at else []
    if set(waiting) & _bot_seats(table):
        wake.append(now + timedelta(seconds=settings.HOLMES_BOT_PAUSE_SECONDS))
    table.wake_at = min(wake) if wake else None
    return ["deadline_at", "wake_at"]


def _bot_seats(table: Table) -> set[int]:
    # The seats are on the table's summary once it plays: no query on a move.
    return {seat["number"] for seat in (table.summary or {}).get("seats", []) if seat.get("bot")}


def _after_commit_wake(table: Table) -> None:
    if table.wake_at is None:
        return
    delay = max(0.0, (table.wake_at - timezone.now()).total_seconds())
    outbox_enqueue(task="play.tasks.table_wake", args=[table.pk, table.version], countdown=delay)


@transaction.atomic
def table_wake(*, table_id: int, version: int) -> ActionResult | None:
    """Do what the table waits for, if it still waits for it: one computer player's move,
    or the game's timeout once the deadline has passed. Safe to run twice, and late: a
    table that has moved on since `version` planned its own wake-up."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    now = timezone.now()
    if (
        table is None
        or table.version != version
        or table.status != TableStatus.PLAYING
        or table.wake_at is None
        or table.wake_at > now
    ):
        return None
    rules = get_rules(table.engine)
    waiting = rules.waiting_for(table.state)
    bots = sorted(set(waiting) & _bot_seats(table))
    if bots:
        return _bot_move(table, rules, bots[0])
    if table.deadline_at is not None and table.deadline_at <= now:
        return _apply(table, SYSTEM, {"type": "timeout"}, version, f"timeout-v{version}")
    return None


def _bot_move(table: Table, rules, seat: int) -> ActionResult:
    """The computer player at `seat` chooses from its own view and legal moves, nothing
    else, and moves through the same write path as a person (stale: refused)."""
    game = get_game(table.engine)
    view = rules.view(table.state, seat)
    legal = rules.legal_actions(table.state, seat)
    action = game.bot(view, seat, legal, (table.seed + 7919 * table.version + seat) % 2**31)
    return _apply(table, seat, action, table.version, f"v{table.version}", by_bot=True)


def tables_wake_due(*, limit: int = 100) -> int:
    """Wake every table whose time has come (the sweep); how many acted."""
    due = Table.objects.filter(wake_at__lte=timezone.now()).values_list("pk", "version")
    acted = 0
    for table_id, version in list(due.order_by("wake_at")[:limit]):
        try:
            acted += table_wake(table_id=table_id, version=version) is not None
        except TableError:
            continue  # it ended or moved on meanwhile
    return acted


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


# --- Judging --------------------------------------------------------------------------


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
        # Through the outbox: if Redis is down at commit, the beat enqueues it later.
        outbox_enqueue(task="play.tasks.judge_table_attempt", args=[table_attempt.pk])


def table_attempt_deliver_verdicts(*, table_attempt_id: int) -> ActionResult | None:
    """Judge a table's request (once) and hand the verdicts to the game.

    Safe to run twice: the attempt stores its verdicts once, and the verdicts' action
    carries an idempotency key, so the game receives them once.
    """
    table_attempt = TableAttempt.objects.select_related("table").get(pk=table_attempt_id)
    action = get_site(table_attempt.table.engine).judgement_action(
        attempt_id=table_attempt.attempt_id,
        request=table_attempt.request,
        kind=table_attempt.kind,
    )
    try:
        return game_apply_action(
            table_id=table_attempt.table_id,
            player=SYSTEM,
            action=action,
            idempotency_key=f"judged-{table_attempt.request}",
        )
    except TableError:
        return None  # the table ended meanwhile; nothing waits for these verdicts


# --- Notebook ---------------------------------------------------------------------------


@transaction.atomic
def notebook_write(
    *, table_id: int, user, text: str | None = None, marks=None, number: int | None = None
) -> Notebook:
    """Save the player's notes: the text, the marks (a game's note sheet), or both.
    `number`: the seat, when it is a local player's that `user` holds (pass and play)."""
    table = Table.objects.select_for_update().get(pk=table_id)
    seats = Seat.objects.filter(table=table)
    if number is None:
        seat = seats.filter(user=user).first()
    else:
        seat = seats.filter(Q(user=user) | Q(held_by=user), number=number).first()
    if seat is None:
        raise PermissionDenied("You have no seat at this table.")
    if text is not None and len(text) > Notebook._meta.get_field("text").max_length:
        raise ValidationError("A notebook holds at most 50,000 characters.")
    if marks is not None:
        _check_marks(marks)
    if table.state is not None and not selectors.may_write_notes(table=table, player=seat.number):
        raise TableError(get_site(table.engine).notes_refusal(), "notes_forbidden")
    notebook, _ = Notebook.objects.get_or_create(seat=seat)
    fields = ["updated_at"]
    if text is not None:
        notebook.text = text
        fields.append("text")
    if marks is not None:
        notebook.marks = marks
        fields.append("marks")
    notebook.save(update_fields=fields)
    return notebook


def _check_marks(marks) -> None:
    import json

    if not isinstance(marks, dict):
        raise ValidationError("Marks are an object of names and values.")
    # The site's guard first: the database's JSON refuses NUL (keys included), NaN,
    # Infinity and lone surrogates, and json.dumps recursed into marks nested deep.
    refusal = json_refusal(marks, what="The note sheet")
    if refusal:
        raise ValidationError(refusal)
    dumped = json.dumps(marks)
    if len(dumped) > MAX_MARKS_BYTES:
        raise ValidationError("The marks are too many to keep.")


# --- Side effects after commit --------------------------------------------------------


def _after_commit_push(table: Table, presence: TablePresence | None = None, mover=None) -> None:
    """After commit, tell the table's sockets of its new version. For a move, `presence`
    is who was at the table as its lock read it: the players whose sockets asked for their
    views get them instead, and the others' sockets hear the version only if one is open
    (play/live.py). `mover`: the seat that moved, whose answer holds its view."""
    from .live import push_table_version
    from .pushed_views import present_players_views

    table_id, version = table.pk, table.version
    if presence is None:
        transaction.on_commit(lambda: push_table_version(table_id=table_id, version=version))
        return

    # The mover's answer holds their view; another socket of theirs, if they hold one, is
    # told the version.
    viewers = presence.viewers
    if mover not in presence.viewers_twice:
        viewers = viewers - {mover}

    def views():
        return present_players_views(table, viewers, mover) if viewers else {}

    transaction.on_commit(
        lambda: push_table_version(
            table_id=table_id,
            version=version,
            watched=presence.watched,
            views=views,
            hinted=presence.hinted,
        )
    )


def _after_commit_notify(table: Table, kind: str, details: dict | None = None) -> None:
    # Written in the move's transaction, sent after commit, redelivered by the beat if the
    # broker was down: a committed move always ends in its notifications, once each.
    outbox_enqueue(
        task="play.tasks.notify_table", args=[table.pk, kind, table.version, details or {}]
    )


def _after_commit_tell_move(
    table: Table, before: dict, after: dict, events, presence: TablePresence | None, player=None
) -> None:
    """The move's push and notifications, by who was at the table when the move took its
    lock: a socket that opens after that misses this push, and finds the version by its
    first fetch. `player`, the seat that moved (or SYSTEM), is told nothing of its own move
    (play.tasks.notify_table)."""
    if presence is None:
        presence = table_presence(table_id=table.pk)
    _after_commit_push(table, presence, mover=player)
    changes = get_site(table.engine).notices(before, after, events)
    bots = _bot_seats(table)  # nobody to tell
    changes = [
        (kind, details)
        for kind, details in changes
        if not (kind == "your_turn" and details.get("player") in bots)
    ]
    # At the table, the page says so; away, they are told once (play/presence.py).
    told = [
        details["player"]
        for kind, details in changes
        if kind == "your_turn" and presence.your_turn_notice_due(details["player"])
    ]
    if told:
        your_turn_claim(table_id=table.pk, seats=told)
    actor = {"actor_seat": player} if isinstance(player, int) else {}
    for kind, details in changes:
        if kind != "your_turn" or details["player"] in told:
            _after_commit_notify(table, kind, {**details, **actor})


__all__ = [
    "ActionResult",
    "NotSeated",
    "StaleVersion",
    "TableError",
    "game_apply_action",
    "game_apply_player_action",
    "notebook_write",
    "seat_add_bot",
    "seat_choose_colour",
    "seat_remove_bot",
    "table_attempt_deliver_verdicts",
    "table_create",
    "table_create_private",
    "table_join",
    "table_leave",
    "table_start",
    "table_wake",
    "tables_wake_due",
]


# --- Private tables ----------------------------------------------------------------------


@transaction.atomic
def table_create_private(*, host, case_version: CaseVersion) -> Table:
    """A private solo table for `host`, on any version (`table_create` only takes published
    ones): no invite, nobody else joins it or reads the version through it, and it counts
    in no figure. Who may have one is not decided here: the caller (a play-test in
    authoring.services.case_playtest_start) has already checked."""
    return _table_new(
        host=host,
        game=case_game().name,
        case_version=case_version,
        options=case_game().clean_options({}),
        is_private=True,
    )


# --- Watching ----------------------------------------------------------------------------


@transaction.atomic
def spectator_join(*, invite_code: str, user) -> Spectator:
    """Watch a started table by its invite: the spectator's view only, never a seat's."""
    table = Table.objects.select_for_update().filter(invite_code=invite_code).first()
    if table is None or table.is_private:
        raise TableError("This invite code opens no table.", "bad_invite")
    if Seat.objects.filter(table=table, user=user).exists():
        raise TableError("You play at this table: your seat shows you more.", "seated")
    if table.status == TableStatus.LOBBY:
        raise TableError("This table has not started yet: take a seat instead.", "not_started")
    if table.status == TableStatus.CANCELLED:
        raise TableError("The host cancelled this table.", "table_cancelled")
    if not table.watching_allowed:
        raise TableError("The host has turned watching off at this table.", "watching_off")
    spectator, _ = Spectator.objects.get_or_create(table=table, user=user)
    return spectator


def check_host_powers(table: Table, user, *, refusal: str) -> None:
    """The host's say over a started table (who may watch, removing players who are away)
    is theirs while they keep their seat: a host who left the game (play/leaving.py) keeps
    none of it, and nobody takes it over. `refusal` answers anyone else."""
    if table.host_id != user.pk:
        raise PermissionDenied(refusal)
    if not Seat.objects.filter(table=table, user=user).exists():
        raise PermissionDenied(HOST_WHO_LEFT)


HOST_WHO_LEFT = "You left this game: the host's say over it went with your seat."


@transaction.atomic
def table_set_watching(*, table_id: int, user, allowed: bool) -> Table:
    """The host lets people with the invite watch, or not; turning it off sends the
    watchers away too (their next look at the table finds nothing)."""
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    check_host_powers(table, user, refusal="Only the host decides who may watch.")
    table.watching_allowed = allowed
    table.save(update_fields=["watching_allowed"])
    if not allowed:
        Spectator.objects.filter(table=table).delete()
    return table


@transaction.atomic
def table_cancel(*, table_id: int, user) -> Table:
    """The host calls the game off while still in the lobby: the table stays, cancelled,
    so that everyone who opens it reads what happened; the players are told."""
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host can cancel the table.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has started: it can no longer be cancelled.", "table_started")
    table.status = TableStatus.CANCELLED
    table.version += 1
    table.save(update_fields=["status", "version"])
    _after_commit_push(table)
    seats = Seat.objects.filter(table=table, user__isnull=False).exclude(user=user)
    others = [seat.user for seat in seats.select_related("user__notification_preferences")]
    title = (table.summary or {}).get("title", "a game")
    notifications_send(
        users=others,
        kind="table_news",
        message=f"{user.public_name} cancelled the table for {title}.",
        url=reverse("play:table", args=[table.pk]),
        dedupe_key=f"table{table.pk}:cancelled",
    )
    return table


# --- Play again ---------------------------------------------------------------------------


@transaction.atomic
def table_rematch(*, table_id: int, user) -> Table:
    """Play again: a new lobby for the same game, case, options and timer, for the group of
    a finished table. The first player to ask hosts it; the computer players sit down
    again; the people are told, with a link to the new lobby, and join it if they want to:
    nobody is seated unasked (a seat would also hold them to a case they might be playing
    elsewhere). Whoever asks later joins that same lobby, so a group gets one table."""
    finished = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    seats = list(
        Seat.objects.filter(table=finished)
        .select_related("user__notification_preferences")
        .order_by("number")
    )
    if not any(seat.user_id == user.pk for seat in seats):
        raise PermissionDenied("You have no seat at this table.")
    if finished.status != TableStatus.FINISHED:
        raise TableError("Only a finished game can be played again.", "not_finished")
    if finished.is_private:
        raise TableError("A private play-test is not played again here: open a new one.", "private")
    rematch_id = (finished.summary or {}).get("rematch_id")
    if rematch_id:
        rematch = Table.objects.get(pk=rematch_id)
        table_join(invite_code=rematch.invite_code, user=user)
        return rematch
    rematch = table_create(
        host=user,
        game=finished.engine,
        case_version=finished.case_version,
        options=finished.options,
        turn_timer_seconds=finished.turn_timer_seconds,
    )
    for seat in seats:
        if seat.is_bot:
            _seat_add(rematch, bot_name=seat.bot_name)
        elif seat.held_by_id == user.pk:  # the players on this device sit down again
            _seat_add(rematch, local_name=seat.local_name, held_by=user)
    finished.summary = {**(finished.summary or {}), "rematch_id": rematch.pk}
    finished.version += 1  # open pages show the new table's link
    finished.save(update_fields=["summary", "version"])
    _after_commit_push(finished)
    _invite_to_rematch(finished, rematch, [seat.user for seat in seats if seat.user], user)
    return rematch


def _invite_to_rematch(finished: Table, rematch: Table, people: list, host) -> None:
    title = (finished.summary or {}).get("title", "a game")
    notifications_send(
        users=[person for person in people if person.pk != host.pk],
        kind="table_news",
        message=f"{host.public_name} opened a new table for {title}: join to play again.",
        url=reverse("play:join", args=[rematch.invite_code]),
        dedupe_key=f"table{finished.pk}:rematch",
    )
