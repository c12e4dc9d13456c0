"""One front door for a move, whichever road it comes by.

The table page (play/views.py), the API (play/api.py) and a player's socket
(play/socket_moves.py) each read a move in their own form, hand `move_make` who moves, at
which table, what, on which version and under which key, and get back one `MoveOutcome`.
What came of the move is decided here, once; each road only says it in its own form:
HTML, JSON or a frame (play/page_writes.py, `TableActionApi`, `socket_move`).

- THROTTLED: an answer (a move the answer budget counts, holmes_site.throttling) over the
  mover's budget; the move is not looked at. Counted per person, whichever road it came by.
- NOT_SEATED: the user holds no seat at the table (each road says as much as it may: the
  API a 404 for a table the user has no part in, a 403 for a spectator).
- STALE: the table moved on since the version the move was based on.
- REFUSED: the rules or the table turned it down, with a sentence written for the mover
  (and the rules' Refusal, for a page to fill its form in again). A retried request whose
  first try was refused is refused again, the same way.
- APPLIED, or REPLAYED for a retried request whose first try was applied.

Whatever the outcome, `membership` is the mover at the table as the move's lock read it
(or as the caller read it, when the lock was never taken): nobody reads it again.
"""

import time
from dataclasses import dataclass, field, replace
from enum import StrEnum

from games.base import Refusal
from holmes_site import metrics
from holmes_site.throttling import SENTENCES, is_throttled_action, user_attempt

from . import services
from .models import Table
from .selectors import Membership

# What a spectator is told, on every road.
SPECTATORS_CANNOT_MOVE = "Spectators cannot make moves."


class Outcome(StrEnum):
    APPLIED = "applied"
    REPLAYED = "replayed"
    REFUSED = "refused"
    STALE = "stale"
    THROTTLED = "throttled"
    NOT_SEATED = "not_seated"


@dataclass(frozen=True)
class MoveOutcome:
    """What came of a move. `code` and `sentence` say why one was not made; `details`
    what the sentence is about (a blank answer's question), or a stale move's current
    `version`; `wait` is how long a throttled mover waits, in seconds."""

    kind: Outcome
    membership: Membership | None = None
    code: str = ""
    sentence: str = ""
    details: dict = field(default_factory=dict)
    refusal: Refusal | None = None
    wait: int = 0
    game: str = ""  # the table's game where the door learnt it without a membership

    @property
    def made(self) -> bool:
        return self.kind in (Outcome.APPLIED, Outcome.REPLAYED)


def move_make(
    *,
    user,
    table_id: int,
    action: dict,
    expected_version: int | None,
    idempotency_key: str | None = None,
    membership: Membership | None = None,
) -> MoveOutcome:
    """Make `user`'s move at the table through the one write path.

    `membership`: the mover's place, when the caller has read it already (the page, which
    also knows which seat a shared device shows: play/device.py); the move is then
    that seat's. Without it, the seat is found by the query that locks the table."""
    started = time.perf_counter()
    outcome = _move_make(
        user=user,
        table_id=table_id,
        action=action,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        membership=membership,
    )
    _count(outcome, membership, seconds=time.perf_counter() - started)
    return outcome


def _count(outcome: MoveOutcome, asked: Membership | None, *, seconds: float) -> None:
    """The operators' counts (holmes_site/metrics.py): every move that reached the door,
    by game and by what came of it."""
    known = outcome.membership or asked
    game = known.table.engine if known is not None else (outcome.game or "unknown")
    metrics.MOVE_SECONDS.labels(game).observe(seconds)
    if outcome.kind == Outcome.APPLIED:
        metrics.MOVES_APPLIED.labels(game).inc()
    elif outcome.kind != Outcome.REPLAYED:  # a replay is the same move, already counted
        metrics.MOVES_REFUSED.labels(game, outcome.kind.value).inc()


def _move_make(
    *,
    user,
    table_id: int,
    action: dict,
    expected_version: int | None,
    idempotency_key: str | None,
    membership: Membership | None,
) -> MoveOutcome:
    if membership is not None and membership.seat is None:
        return _not_seated(membership)
    if is_throttled_action(action):
        tried = user_attempt(user, "answers")
        if not tried.allowed:
            return MoveOutcome(
                Outcome.THROTTLED,
                membership,
                code="throttled",
                sentence=SENTENCES["answers"],
                wait=tried.wait,
            )
    move = {
        "action": action,
        "expected_version": expected_version,
        "idempotency_key": idempotency_key,
    }
    try:
        if membership is None:
            seat, result = services.game_apply_player_action(table_id=table_id, user=user, **move)
        else:
            seat = membership.seat
            result = services.game_apply_seat_action(
                table_id=table_id, user=user, number=seat.number, **move
            )
    except services.NotSeated:
        return _not_seated(membership)
    except services.StaleVersion as stale:
        now = _moved_on(membership, stale.table)
        outcome = _refused(Outcome.STALE, now, stale, details={"version": stale.current})
        return replace(outcome, game=stale.table.engine) if stale.table else outcome
    except services.TableError as refused:
        return _refused(Outcome.REFUSED, membership, refused)
    after = _moved_on(membership, result.table, seat)
    if result.applied:
        return MoveOutcome(Outcome.REPLAYED if result.replayed else Outcome.APPLIED, after)
    refusal = result.refusal
    return MoveOutcome(
        Outcome.REFUSED,
        after,
        code=refusal.code,
        sentence=refusal.message,
        details=refusal.details or {},
        refusal=refusal,
    )


def _not_seated(membership: Membership | None) -> MoveOutcome:
    error = services.NotSeated()
    return MoveOutcome(Outcome.NOT_SEATED, membership, code=error.code, sentence=str(error))


def _refused(
    kind: Outcome, membership, error: services.TableError, details: dict | None = None
) -> MoveOutcome:
    sentence = str(error)
    return MoveOutcome(kind, membership, code=error.code, sentence=sentence, details=details or {})


def _moved_on(membership: Membership | None, table: Table | None, seat=None) -> Membership | None:
    """The mover's membership at the table as the move's lock read it (None where the
    caller read none and the lock found no seat)."""
    if table is None:
        return membership
    if membership is not None:
        _keep_relations(membership.table, table)
        seat = membership.seat
    if seat is None:
        return None
    seat.table = table
    return Membership(table=table, seat=seat, spectator=False)


def _keep_relations(read: Table, locked: Table) -> None:
    """The case version and the host the caller read with the table (the page shows them)
    come along to the locked row: they never change, and are not read twice."""
    for name in ("case_version", "host"):
        if getattr(Table, name).is_cached(read):
            setattr(locked, name, getattr(read, name))
