"""Examinations and arrests: by an Arrest card, Sherlock or Watson, or an Impromptu Arrest.

An arrest shows the accused's whole hand to the arrester. A Villain there makes the
accused Guilty and closes the case; otherwise, when the arrest carries a penalty, the
arrester takes the Innocent hand and the accused draws as many cards.
"""

from __future__ import annotations

from games.base import Event, Refusal, refuse
from games.i_say_holmes.rules import cards, closing, settling
from games.i_say_holmes.rules.state import (
    WINDOW,
    audience,
    draw_cards,
    holds_villain,
    is_seat,
    owned,
    owned_hand,
    saw,
    took_out,
)

IMPROMPTU = "IMPROMPTU"


def examine(state: dict, examiner: int, target: int, shown: list[str], how: str) -> list[Event]:
    """``examiner`` sees ``shown`` from ``target``'s hand; both note it, nobody else."""
    saw(state, examiner, target, shown, how)
    saw(state, target, examiner, shown, "shown")
    public = {"seat": examiner, "target": target, "how": how, "count": len(shown)}
    return [
        Event("examined", data=public),
        Event("examined", audience(examiner, target), {**public, "cards": list(shown)}),
    ]


def arrest(state: dict, arrester: int, accused: int, *, penalty: bool, how: str) -> list[Event]:
    """Arrest ``accused``: Guilty closes the case; Innocent costs the arrester (if
    ``penalty``) the accused's hand."""
    held = list(state["hands"][accused])
    events = examine(state, arrester, accused, held, how)
    guilty = holds_villain(state, accused)
    villains = [cards.row(card).title for card in held if cards.is_villain(card)]
    taken = len(held) if penalty and not guilty else 0
    events.append(
        Event(
            "arrest",
            data={
                "seat": arrester,
                "accused": accused,
                "verdict": "guilty" if guilty else "innocent",
                "villains": villains,
                "taken": taken,
            },
        )
    )
    if guilty:
        return events + closing.close_guilty(state, arrester, accused)
    if taken:
        owned_hand(state, arrester).extend(held)
        owned(state, "hands")[accused] = []
        took_out(state, accused)
        events += draw_cards(state, accused, taken)[1]
    return events


# --- the accuse step of an Impromptu Arrest -------------------------------------------------


def check_accuse(state: dict, seat: int, action: dict) -> Refusal | dict:
    if set(action) != {"type", "target"}:
        return refuse("bad_target", "Name the player you accuse, as target.")
    target = action["target"]
    if not is_seat(state, target) or target == seat:
        return refuse("bad_target", "Accuse another player at this table.")
    if target not in settling.accusable(state):
        return refuse(
            "bad_target",
            "Accuse a player who holds cards and has not yet countered this arrest.",
        )
    return {"target": target}


def perform_accuse(state: dict, seat: int, params: dict) -> list[Event]:
    target = params["target"]
    window = {
        "kind": WINDOW,
        "instruction": IMPROMPTU,
        "card": None,
        "player": seat,
        "targets": [target],
        "alibi": True,
        "answers": {},
        "effect": {"target": target},
    }
    state["pending"] = window
    return [Event("window", data=public_window(window))]


def public_window(window: dict) -> dict:
    """What everybody sees of a response window (never a gift's card)."""
    effect = window["effect"]
    return {
        "kind": WINDOW,
        "instruction": window["instruction"],
        "card": window["card"],
        "player": window["player"],
        "targets": list(window["targets"]),
        "alibi": window["alibi"],
        "answered": sorted(map(int, window["answers"])),
        "token": effect.get("token"),
        "token_from": effect.get("token_from"),
        "gift": "give" in effect,
    }


def finish_impromptu(state: dict, accused: int) -> list[Event]:
    """An accusation nobody countered: arrest with penalty; on turn, the turn then ends
    (unless the arrest closed the case, and the next one is dealt)."""
    arrester = state["impromptu"]["arrester"]
    state["impromptu"] = None
    case = state["case"]
    events = arrest(state, arrester, accused, penalty=True, how="arrest")
    if state["case"] == case and arrester == state["turn"]["seat"]:
        state["resume"] = "next"
    return events
