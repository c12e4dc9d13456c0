"""Moves over a player's socket: `{"type": "move", ...}` with the body the API's move
takes, for programs that hold a socket anyway (boardgame.io's clients move this way too).

It is the API's move by another road, not a second write path: the same input check
(`api.action_input`), the same service (`services.game_apply_player_action`, with its
version check, idempotency key and the rules' refusals), the same answer (the mover's own
view, `pushed_views.table_body`) and the same error shape (`holmes_site.api_errors.error_body`).
Answers at the game's desk are the one exception: they are rate-limited per person
(holmes_site.throttling.AnswerThrottle), so they go through the API alone.
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError

from holmes_site.api_errors import error_body, first_message
from holmes_site.throttling import is_throttled_action

from . import services
from .api import action_input
from .live import pushes_held
from .pushed_views import table_body
from .selectors import Membership

# The client's own name for its request, echoed in the reply so it can match the two.
MAX_REQUEST_CHARACTERS = 80


def socket_move(*, table_id: int, user, content: dict) -> tuple[dict, list[tuple[str, dict]]]:
    """The reply to a move sent over the socket: `{"type": "moved", "view": ...}` or
    `{"type": "refused", "error": ...}`, with the client's `request` echoed; and the
    pushes the move made, (group, message), for the consumer to send (play/live.py)."""
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
    try:
        seat, result = services.game_apply_player_action(
            table_id=table_id,
            user=user,
            action=move["action"],
            expected_version=move["expected_version"],
            idempotency_key=move.get("idempotency_key"),
        )
    except services.StaleVersion as stale:
        return _refused(stale.code, str(stale), {"version": stale.current})
    except services.TableError as refused:
        return _refused(refused.code, str(refused))
    if not result.applied:
        refusal = result.refusal
        return _refused(refusal.code, refusal.message, refusal.details)
    view = table_body(Membership(table=result.table, seat=seat, spectator=False))
    return {"type": "moved", "version": view["version"], "replayed": result.replayed, "view": view}


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
