"""The server's own moves: a computer player's, a timer's run out, and the verdicts of
a judged answer, each through the same write path as a person's (play/services/moves.py).
When they are due is planned by play/services/side_effects.py."""

from django.db import transaction
from django.utils import timezone

from games import get_game, get_rules
from games.base import SYSTEM
from games.sites import get_site

from ..models import Table, TableAttempt, TableStatus
from .errors import TableError
from .moves import ActionResult, apply_locked, game_apply_action
from .side_effects import bot_level, bot_seats

__all__ = [
    "table_wake",
    "tables_wake_due",
    "table_attempt_deliver_verdicts",
]


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
    bots = sorted(set(waiting) & bot_seats(table))
    if bots:
        return _bot_move(table, rules, bots[0])
    if table.deadline_at is not None and table.deadline_at <= now:
        return apply_locked(table, SYSTEM, {"type": "timeout"}, version, f"timeout-v{version}")
    return None


def _bot_move(table: Table, rules, seat: int) -> ActionResult:
    """The computer player at `seat` chooses from its own view and legal moves, nothing
    else, and moves through the same write path as a person (stale: refused)."""
    bot = get_game(table.engine).bot_for(bot_level(table, seat))
    view = rules.view(table.state, seat)
    legal = rules.legal_actions(table.state, seat)
    action = bot(view, seat, legal, (table.seed + 7919 * table.version + seat) % 2**31)
    return apply_locked(table, seat, action, table.version, f"v{table.version}", by_bot=True)


def tables_wake_due(*, batch: int = 100) -> int:
    """Wake every table whose time has come (the sweep), `batch` at a time; how many
    acted. It runs once for many wake-ups (play/services/side_effects.py), so it goes
    through all of them: none waits for another sweep."""
    now = timezone.now()
    due = Table.objects.filter(wake_at__lte=now).order_by("pk").values_list("pk", "version")
    acted, after = 0, 0
    while True:
        tables = list(due.filter(pk__gt=after)[:batch])
        for table_id, version in tables:
            try:
                acted += table_wake(table_id=table_id, version=version) is not None
            except TableError:
                continue  # it ended or moved on meanwhile
        if len(tables) < batch:
            return acted
        after = tables[-1][0]


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
