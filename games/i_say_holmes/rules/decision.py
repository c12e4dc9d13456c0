"""What the game waits for now: the open decision and the seats that owe it."""

from __future__ import annotations

from games.i_say_holmes.rules.state import ACCUSE, CHOOSE, NEXT_CASE, OVER, WINDOW


def open_decision(state: dict) -> tuple[str | None, list[int]]:
    """The kind of decision open (a turn step, window, choose, accuse, next_case) and
    the seats, sorted, that still owe it."""
    if state["phase"] == OVER:
        return None, []
    pending = state["pending"]
    if pending is None:
        step = state["turn"]["step"]
        return (step, [state["turn"]["seat"]]) if step else (None, [])
    kind = pending["kind"]
    if kind == WINDOW:
        answers = pending["answers"]
        return kind, sorted([seat for seat in pending["targets"] if str(seat) not in answers])
    if kind == CHOOSE:
        picks = pending["picks"]
        return kind, sorted([seat for seat in pending["seats"] if str(seat) not in picks])
    if kind in (ACCUSE, NEXT_CASE):
        return kind, [pending["seat"]]
    raise AssertionError(f"no pending decision {kind}")


def waiting_for(state: dict) -> list[int]:
    return open_decision(state)[1]
