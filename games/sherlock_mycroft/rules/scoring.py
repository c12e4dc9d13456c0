"""The end of the game: wildcard assignments, the score of each kind and the winner.

Wildcards stay unassigned during play; at the end each may go to a numbered kind of which
its owner holds at least one real clue, one wildcard per kind at most.
"""

from __future__ import annotations

from itertools import combinations

from games.sherlock_mycroft.rules.cards import (
    ALL_COPIES_BONUS,
    KIND_BY_ID,
    MAP,
    MAP_POINTS,
    NUMBERED,
    RESERVED_PENALTY,
    VALUE,
    WILD,
    kind_of,
)


def kind_points(kind: str, mine: int, theirs: int, mine_real: int | None = None) -> int:
    """What a player with ``mine`` of ``kind`` (``mine_real`` of them real cards) scores
    against a rival with ``theirs``: maps alone, numbered kinds by majority."""
    if kind == MAP:
        return MAP_POINTS[min(mine, len(MAP_POINTS) - 1)]
    if mine_real is None:
        mine_real = mine
    points = VALUE[kind] - theirs if mine > theirs else 0
    if mine_real == KIND_BY_ID[kind].copies:
        points += ALL_COPIES_BONUS
    return points


def placeable_kinds(cards: list[str]) -> list[str]:
    """Numbered kinds a wildcard may go to: those with a real card among ``cards``."""
    held = {kind_of(card) for card in cards}
    return [kind for kind in NUMBERED if kind in held]


def wildcards(cards: list[str]) -> list[str]:
    return sorted((card for card in cards if kind_of(card) == WILD), key=lambda c: int(c[5:]))


def assignment_options(cards: list[str]) -> list[dict]:
    """One assignment per set of placeable kinds no larger than the wildcards held: by
    size, then kind order; wildcards in id order go to kinds in kind order."""
    wilds = wildcards(cards)
    kinds = placeable_kinds(cards)
    return [
        dict(zip(wilds, chosen, strict=False))
        for size in range(min(len(wilds), len(kinds)) + 1)
        for chosen in combinations(kinds, size)
    ]


def counts(cards: list[str], assigned: dict | None) -> dict[str, int]:
    """Each kind's count: real cards, plus the wildcard assigned to it."""
    result = {kind: 0 for kind in (*NUMBERED, MAP)}
    for card in cards:
        if kind_of(card) in result:
            result[kind_of(card)] += 1
    for kind in (assigned or {}).values():
        result[kind] += 1
    return result


def breakdown(cards: list[list[str]], assigned: list, reserved: list) -> list[dict]:
    """Each seat's points per kind, map fragments and reserved-clue penalty, and total."""
    totals = [counts(cards[seat], assigned[seat]) for seat in (0, 1)]
    reals = [counts(cards[seat], None) for seat in (0, 1)]
    result = []
    for seat in (0, 1):
        other = 1 - seat
        points = {
            kind: kind_points(kind, totals[seat][kind], totals[other][kind], reals[seat][kind])
            for kind in (*NUMBERED, MAP)
        }
        points["reserved_clue"] = -RESERVED_PENALTY if reserved[seat] else 0
        points["total"] = sum(points.values())
        result.append(points)
    return result


def margin(cards: list[list[str]], assigned: list, reserved: list, seat: int) -> int:
    scores = breakdown(cards, assigned, reserved)
    return scores[seat]["total"] - scores[1 - seat]["total"]


def best_assignment(
    options: list[dict], cards: list[list[str]], assigned: list, reserved: list, seat: int
) -> dict:
    """The option with the best final margin for ``seat`` (the rival's wildcards as
    assigned so far); ties to the first listed."""
    best, best_margin = options[0], None
    for option in options:
        trial = list(assigned)
        trial[seat] = option
        value = margin(cards, trial, reserved, seat)
        if best_margin is None or value > best_margin:
            best, best_margin = option, value
    return best


def final_result(state: dict) -> dict:
    """Scores, then markers held as the tie-break; still equal is a draw."""
    cards = [state["visible"][seat] + state["hidden"][seat] for seat in (0, 1)]
    scores = breakdown(cards, state["assigned"], state["reserved"])
    totals = [scores[seat]["total"] for seat in (0, 1)]
    tokens = list(state["tokens"])
    if totals[0] != totals[1]:
        winners, decided_by = [0 if totals[0] > totals[1] else 1], "points"
    elif tokens[0] != tokens[1]:
        winners, decided_by = [0 if tokens[0] > tokens[1] else 1], "markers"
    else:
        winners, decided_by = [], "draw"
    return {
        "result": "win" if winners else "draw",
        "winners": winners,
        "decided_by": decided_by,
        "scores": totals,
        "breakdown": scores,
        "tokens": tokens,
    }
