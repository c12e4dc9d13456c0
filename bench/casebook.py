"""Is every sample case solvable by reading its evidence? Three players find out.

`python -m bench casebook` imports each case of fixtures/cases/ into a throwaway database,
seats three players and plays through the table services: in each round every player
visits a card of the evidence still unread (on foot when they can, with the carriages a
zone's travel asks otherwise, or rests at the Carriage Stop when nothing is left for them).
Once every evidence card has been read, one player goes to 221B with the solution's
answers. It prints, per case: its cards, its evidence cards (every question's together),
the rounds the group needed, and whether the case was solved.

The test `tests/play/test_casebook.py` plays each case the same way.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SAMPLE_CASES = Path(__file__).resolve().parent.parent / "fixtures" / "cases"
MAX_ROUNDS = 12  # a case that needs more than this is not a case for an evening


@dataclass(frozen=True)
class Playthrough:
    slug: str
    cards: int
    evidence: list[int]
    read: list[int]
    # Cards read only for what they give (a lockpick for a locked evidence card).
    access: list[int]
    rounds: int
    solved: bool


def evidence_of(version) -> list[int]:
    return sorted({number for q in version.questions.all() for number in q.evidence})


def play_through(version, users) -> Playthrough:
    """Play `version` (published) with `users` (three) until it is solved or MAX_ROUNDS
    have passed; each player reads only evidence cards, then one answers at 221B."""
    from games import get_rules
    from play import services
    from play.models import Table, TableAttempt

    host, *guests = users
    table = services.table_create(host=host, case_version=version)
    for guest in guests:
        services.table_join(invite_code=table.invite_code, user=guest)
    services.table_start(table_id=table.pk, user=host)
    engine = get_rules(table.engine)
    evidence = evidence_of(version)
    answers = {q.key: q.answer for q in version.questions.all()}
    read: set[int] = set()
    access: set[int] = set()
    seen_round = 0
    for _ in range(MAX_ROUNDS * 40):  # moves: a bound, never reached by a solvable case
        table = Table.objects.get(pk=table.pk)
        state = table.state
        if engine.is_over(state) or state["round"] > MAX_ROUNDS:
            break
        seen_round = state["round"]
        for attempt in TableAttempt.objects.filter(table=table, attempt__judged_at__isnull=True):
            services.table_attempt_deliver_verdicts(table_attempt_id=attempt.pk)
        table = Table.objects.get(pk=table.pk)
        state = table.state
        if engine.is_over(state):
            break
        _move(services, engine, table, state, evidence, read, answers, access)
    table = Table.objects.get(pk=table.pk)
    result = (table.state or {}).get("result") or {}
    return Playthrough(
        slug=version.case.slug,
        cards=version.locations.count(),
        evidence=evidence,
        read=sorted(read - access),
        access=sorted(access),
        rounds=seen_round,
        solved=result.get("kind") == "solved",
    )


def _move(services, engine, table, state, evidence, read, answers, access) -> None:
    """One move of whoever the game waits for."""
    if state["phase"] == "visiting":
        seat = state["turn"]
        unread = [n for n in evidence if n not in read and n not in _held(state)]
        if not unread and set(evidence) <= read:
            choices = [{"type": "baker_street"}, {"type": "carriage_stop"}]
        else:
            choices = [{"type": "visit", "location": n, "carriages": 0} for n in unread]
            choices += _travel_visits(state, seat, unread)
            keys = _lockpick_cards(state, seat, unread, read)
            choices += [{"type": "visit", "location": n, "carriages": 0} for n in keys]
            choices += [{"type": "carriage_stop"}]
        for action in choices:
            if services.game_apply_action(table_id=table.pk, player=seat, action=action).applied:
                if action["type"] == "visit":
                    read.add(action["location"])
                    if action["location"] not in evidence:
                        access.add(action["location"])
                return
        raise AssertionError(f"seat {seat} could not move: {engine.legal_actions(state, seat)}")
    for seat in state_waiting(engine, state):
        legal = engine.legal_actions(state, seat)
        kinds = {action["type"] for action in legal}
        if "answer" in kinds and state["answers"][seat] is None:
            action = {"type": "answer", "answers": answers}
        elif "done_reading" in kinds:
            action = {"type": "done_reading"}
        elif "answer" in kinds:
            action = {"type": "answer", "answers": answers}  # confirm after a failure
        else:
            continue
        services.game_apply_action(table_id=table.pk, player=seat, action=action)
        return


def state_waiting(engine, state) -> list[int]:
    return engine.view(state, None)["waiting_for"]


def _held(state: dict) -> set[int]:
    """Cards another player already took this round."""
    cards = state["case"]["locations"]
    return {cards[key]["number"] for key in state["bids"] if key in cards}


def _lockpick_cards(state: dict, seat: int, unread: list[int], read: set[int]) -> list[int]:
    """Cards that give a lockpick, when a locked evidence card waits and this player has
    none."""
    cards = state["case"]["locations"].values()
    locked = {card["number"] for card in cards if "locked" in card["icons"]}
    if state["players"][seat]["lockpick"] or not locked & set(unread):
        return []
    return [card["number"] for card in cards if "lockpick" in card["icons"]]


def _travel_visits(state: dict, seat: int, unread: list[int]) -> list[dict]:
    """The same visits with the carriages a zone's travel may ask (cheapest first)."""
    carriages = state["players"][seat]["carriages"]
    return [
        {"type": "visit", "location": n, "carriages": spend}
        for spend in range(1, min(carriages, 6) + 1)
        for n in unread
    ]


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")
    os.environ["HOLMES_SQLITE_PATH"] = ":memory:"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from accounts.models import User
    from cases.package.reader import read_package_path
    from cases.services import case_import_package

    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(name, password=None) for name in ("ann", "ben", "cat")]
    print(f"   {'case':<32} {'cards':>5} {'evidence':>8} {'access':>6} {'rounds':>6}  solved")
    for folder in sorted(p for p in SAMPLE_CASES.iterdir() if (p / "case.md").exists()):
        with transaction.atomic():
            version = case_import_package(
                files=read_package_path(folder), author=users[0], publish=True
            ).version
            run = play_through(version, users)
            transaction.set_rollback(True)
        print(
            f"   {run.slug:<32} {run.cards:>5} {len(run.evidence):>8} {len(run.access):>6} "
            f"{run.rounds:>6}  "
            f"{'yes' if run.solved else 'NO'}"
        )
