"""Every write to tables. Views, the API, consumers and tasks call these and nothing else.

By subject: tables (create, start, cancel, watch, play again), seats (the lobby), moves
(the one write path), wake (the server's own moves: computer players, timers, verdicts),
notebook, and the side effects every write leaves for after its commit. The errors they
raise are in errors. `from play import services` finds every service here.
"""

from .errors import (
    KEY_TOO_LONG,
    MAX_IDEMPOTENCY_KEY_CHARACTERS,
    IdempotencyKeyReused,
    IdempotencyKeyTooLong,
    NotSeated,
    StaleVersion,
    TableError,
)
from .moves import (
    ActionResult,
    action_fingerprint,
    game_apply_action,
    game_apply_player_action,
    game_apply_seat_action,
)
from .notebook import notebook_write
from .seats import (
    BOT_NAME,
    seat_add_bot,
    seat_choose_colour,
    seat_remove_bot,
    table_join,
    table_leave,
)
from .side_effects import wake_backstop_arm, wake_queue_again
from .tables import (
    HOST_WHO_LEFT,
    TIMER_RANGE,
    check_host_powers,
    spectator_join,
    table_cancel,
    table_create,
    table_create_private,
    table_rematch,
    table_set_house_rules,
    table_set_watching,
    table_start,
)
from .wake import table_attempt_deliver_verdicts, table_wake, tables_wake_due

__all__ = [
    "ActionResult",
    "BOT_NAME",
    "HOST_WHO_LEFT",
    "IdempotencyKeyReused",
    "IdempotencyKeyTooLong",
    "KEY_TOO_LONG",
    "MAX_IDEMPOTENCY_KEY_CHARACTERS",
    "NotSeated",
    "StaleVersion",
    "TIMER_RANGE",
    "TableError",
    "action_fingerprint",
    "check_host_powers",
    "game_apply_action",
    "game_apply_player_action",
    "game_apply_seat_action",
    "notebook_write",
    "seat_add_bot",
    "seat_choose_colour",
    "seat_remove_bot",
    "spectator_join",
    "table_attempt_deliver_verdicts",
    "table_cancel",
    "table_create",
    "table_create_private",
    "table_join",
    "table_leave",
    "table_rematch",
    "table_set_house_rules",
    "table_set_watching",
    "table_start",
    "table_wake",
    "tables_wake_due",
    "wake_backstop_arm",
    "wake_queue_again",
]
