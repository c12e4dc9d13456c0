"""Moves over a player's socket: `{"type": "move", ...}` with the body the API's move
takes, for programs that hold a socket anyway (boardgame.io's clients move this way too).

It is the API's move by another road, not a second write path: the same input check
(`api.action_input`), the same front door (`moves.move_make`, with its version check,
idempotency key and the rules' refusals), the same answer (the mover's own view,
`pushed_views.table_body`) and the same error shape (`holmes_site.api_errors.error_body`).
Answers at the game's desk are the one exception: they are rate-limited per person
(holmes_site.throttling, counted by play/moves.py), so they go through the API alone.
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError

from holmes_site.api_errors import error_body, first_message
from holmes_site.throttling import is_throttled_action

from . import moves
from .api import action_input
from .live import HeldPushes, pushes_held
from .pushed_views import table_body

# The client's own name for its request, echoed in the reply so it can match the two.
MAX_REQUEST_CHARACTERS = 80


def socket_move(*, table_id: int, user, content: dict) -> tuple[dict, HeldPushes]:
    """The reply to a move sent over the socket: `{"type": "moved", "view": ...}` or
    `{"type": "refused", "error": ...}`, with the client's `request` echoed; and the
    pushes the move made, for the consumer to send (play/live.py)."""
    with pushes_held() as pushes:
        reply = {**_move(table_id, user, content), "request": _reference(content)}
    return reply, pushes


def refused_reply(code: str, message: str, content: dict) -> dict:
    """A refusal the socket answers itself (a spectator's move, no database)."""
    return {**_refused(code, message), "request": _reference(content)}


def _move(table_id: int, user, content: dict) -> dict:
    try:
        move = action_input(content)
    except ValidationError as invalid:
        return _refused("invalid", first_message(invalid.detail), {"fields": invalid.detail})
    if is_throttled_action(move["action"]):
        return _refused(
            "answer_over_http",
            "Answers go through POST /api/tables/<id>/actions/, where they are counted "
            "against the answer limit.",
        )
    outcome = moves.move_make(
        user=user,
        table_id=table_id,
        action=move["action"],
        expected_version=move["expected_version"],
        idempotency_key=move.get("idempotency_key"),
    )
    return _frame(outcome)


def _frame(outcome: moves.MoveOutcome) -> dict:
    """The socket's frame for a move's outcome (play/moves.py): the mover's new view, or
    the refusal in the API's one error shape."""
    if not outcome.made:
        return _refused(outcome.code, outcome.sentence, outcome.details)
    view = table_body(outcome.membership)
    replayed = outcome.kind == moves.Outcome.REPLAYED
    return {"type": "moved", "version": view["version"], "replayed": replayed, "view": view}


def _refused(code: str, message: str, details: dict | None = None) -> dict:
    return {"type": "refused", **error_body(code, message, details)}


def _reference(content: dict) -> str | int | None:
    """The client's `request`, if it is a plain one (a number, or a short string)."""
    value = content.get("request")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and len(value) <= MAX_REQUEST_CHARACTERS:
        return value
    return None
