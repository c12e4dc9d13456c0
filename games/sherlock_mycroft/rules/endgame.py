"""What the computer players know of the end: the final margin of two collections of
clues, wildcards placed the best way, and the game's last move chosen by that margin.

On the game's very last move nothing is left to happen but the count, so the move is
judged by the final score it leads to, not by a rule of thumb. Only what the seat's view
shows is used: the rival's unknown hidden clues are drawn (seeded) from the clues nobody
can see, and a Pike look is averaged over the clues that could turn up.
"""

from __future__ import annotations

import random
from math import comb

from games.sherlock_mycroft.rules.cards import (
    ALL_COPIES_BONUS,
    CLUE_IDS,
    MAP,
    MAP_POINTS,
    MARKER_GAINS,
    NUMBERED,
    RESERVED_PENALTY,
    TAKE_COUNTS,
    VALUE,
    WILD,
    kind_of,
    take_cost,
)

SCORED = (*NUMBERED, MAP)
ALL_KINDS = (*SCORED, WILD)
MOST_MAPS = len(MAP_POINTS) - 1
# Samples of the rival's unknown hidden clues when judging the last move.
HIDDEN_SAMPLES = 3
# Clues tried for what a draw (Pike, Von Kramm) could bring, per sample.
DRAW_SAMPLE = 8
# A win is worth this much more than its margin: the margin decides among wins.
WIN_BONUS = 1.0


# --- The final count ----------------------------------------------------------------------


def tally(cards: list[str]) -> tuple[dict[str, int], int]:
    """Real clues per scored kind, and the number of wildcards."""
    counts = kind_counts(cards)
    return counts, counts.pop(WILD)


def kind_counts(cards: list[str]) -> dict[str, int]:
    """Clues per kind, every kind present (wildcards under ``WILD``)."""
    counts = dict.fromkeys(ALL_KINDS, 0)
    for card in cards:
        counts[kind_of(card)] += 1
    return counts


def place_wildcards(mine: dict, wilds: int, theirs: dict, their_kinds=frozenset()) -> set:
    """The kinds (at most ``wilds``, one wildcard each, only kinds held) where wildcards
    gain most against ``theirs`` (real counts) with wildcards on ``their_kinds``."""
    if not wilds:
        return set()
    gains = []
    for order, kind in enumerate(NUMBERED):
        held, rival = mine[kind], theirs[kind] + (kind in their_kinds)
        if held:
            gain = majority(VALUE[kind], held + 1, rival) - majority(VALUE[kind], held, rival)
            if gain > 0:
                gains.append((gain, -order, kind))
    gains.sort(reverse=True)
    return {kind for _, _, kind in gains[:wilds]}


def majority(value: int, mine: int, theirs: int) -> int:
    """A numbered kind's points for the majority, mine minus the rival's."""
    return value - theirs if mine > theirs else mine - value if theirs > mine else 0


def final_margin(mine: list[str], theirs: list[str], reserved: tuple, i_assign_first: bool):
    """My final points minus the rival's, each placing wildcards the best way: the first
    to assign against the other's real clues, the second against that. ``reserved``:
    (mine, theirs) uncollected reserved clues."""
    return counted_margin(kind_counts(mine), kind_counts(theirs), reserved, i_assign_first)


def counted_margin(mine: dict, theirs: dict, reserved: tuple, i_assign_first: bool) -> int:
    """``final_margin`` from clue counts per kind (``kind_counts``)."""
    if i_assign_first:
        my_kinds = place_wildcards(mine, mine[WILD], theirs)
        their_kinds = place_wildcards(theirs, theirs[WILD], mine, my_kinds)
    else:
        their_kinds = place_wildcards(theirs, theirs[WILD], mine)
        my_kinds = place_wildcards(mine, mine[WILD], theirs, their_kinds)
    total = MAP_POINTS[min(mine[MAP], MOST_MAPS)] - MAP_POINTS[min(theirs[MAP], MOST_MAPS)]
    for kind in NUMBERED:
        value, my_real, their_real = VALUE[kind], mine[kind], theirs[kind]
        total += majority(value, my_real + (kind in my_kinds), their_real + (kind in their_kinds))
        total += ALL_COPIES_BONUS * ((my_real == value) - (their_real == value))
    return total - RESERVED_PENALTY * (bool(reserved[0]) - bool(reserved[1]))


def utility(margin: float, token_lead: int) -> float:
    """How good an end is: the margin, a win counting a little extra; equal points go to
    whoever holds more markers."""
    result = margin if margin else token_lead
    return margin + WIN_BONUS * ((result > 0) - (result < 0))


# --- What a view shows ----------------------------------------------------------------------


def unseen_cards(view: dict, seat: int) -> list[str]:
    """Clues this seat cannot see: in the deck, the discard pile or the rival's hidden
    stack (those the seat knows of excepted), in canonical order."""
    seen = set(view["line"]) | set((view["private"] or {}).get("hidden", []))
    seen |= set((view["private"] or {}).get("looking", []))
    for player in view["players"]:
        seen.update(player["visible"])
        seen.update(player["hidden_known"])
        seen.update(player.get("hidden", []))
        if player["reserved"]:
            seen.add(player["reserved"])
    return [card for card in CLUE_IDS if card not in seen]


def unknown_hidden_count(view: dict, seat: int) -> int:
    rival = view["players"][1 - seat]
    if "hidden" in rival:
        return 0
    return rival["hidden_count"] - len(rival["hidden_known"])


def sample_rival_hidden(view: dict, seat: int, chance: random.Random) -> list[str]:
    """A guess at the rival's hidden clues: those known, plus unseen ones for the rest
    (never wildcards: a wildcard drawn face down is shown at once)."""
    rival = view["players"][1 - seat]
    if "hidden" in rival:
        return list(rival["hidden"])
    candidates = [card for card in unseen_cards(view, seat) if kind_of(card) != WILD]
    count = min(unknown_hidden_count(view, seat), len(candidates))
    return list(rival["hidden_known"]) + chance.sample(candidates, count)


# --- The last move -------------------------------------------------------------------------


def is_last_move(view: dict, seat: int) -> bool:
    """The game's very last move: day 7, this seat's last marker, the rival done."""
    players = view["players"]
    return (
        view["step"] == "move"
        and view["day"] == view["days"]
        and players[seat]["moves_left"] == 1
        and players[1 - seat]["moves_left"] == 0
    )


class Ending:
    """The end a last move leads to: both players' clue counts per kind, reserved clues
    and markers, and what is still uncertain (a Pike look, the rival's Von Kramm draw)."""

    def __init__(self, view: dict, seat: int):
        me, them = view["players"][seat], view["players"][1 - seat]
        self.mine = kind_counts(me["visible"] + (view["private"] or {}).get("hidden", []))
        self.theirs = kind_counts(them["visible"])
        self.reserved = [me["reserved"], them["reserved"]]
        self.tokens = [me["tokens"], them["tokens"]]
        self.pike = 0  # cards I look at, keeping the best
        self.rival_draws = False  # the rival may buy the top card (Von Kramm)

    def after(self, view: dict, action: dict) -> Ending:
        """This ending changed by the move ``action``."""
        end = Ending.__new__(Ending)
        end.mine, end.theirs = dict(self.mine), dict(self.theirs)
        end.reserved, end.tokens = list(self.reserved), list(self.tokens)
        end.pike, end.rival_draws = self.pike, self.rival_draws
        if action["ability"] is not None:
            apply_ability(end, view, action["to"], action["ability"])
        return end

    def cards_key(self) -> tuple:
        return (*self.mine.values(), *self.theirs.values(), *map(bool, self.reserved))


def apply_ability(end: Ending, view: dict, target: str, ability: dict) -> None:
    """What ``ability`` changes in the counts and markers (Shinwell changes nothing that
    still counts)."""
    if target in TAKE_COUNTS:
        for card in ability["take"]:
            if card == end.reserved[0]:
                end.reserved[0] = None
            end.mine[kind_of(card)] += 1
        end.tokens[0] -= take_cost(target, len(ability["take"]))
        end.rival_draws = target == "von_kramm" and end.tokens[1] >= 1
    elif target in MARKER_GAINS or target == "toby":
        kinds = {kind_of(card) for card in view["players"][view["you"]]["visible"]} - {WILD}
        end.tokens[0] += min(MARKER_GAINS.get(target, len(kinds)), view["reserve"])
    elif target == "irene_adler":
        end.theirs[kind_of(ability["steal"])] -= 1
        end.mine[kind_of(ability["steal"])] += 1
        end.tokens[0] -= view["day"]
    elif target == "langdale_pike":
        end.pike = ability["look"]
        end.tokens[0] -= ability["look"]
    elif target == "billy":
        end.mine[kind_of(ability["discard"])] -= 1
        end.tokens[0] += max(0, VALUE[kind_of(ability["discard"])] - view["day"])
    elif target == "violet_hunter":
        end.mine[kind_of(ability["give"])] -= 1
        end.mine[kind_of(ability["take"])] += 1


class Judge:
    """Judges endings against one guess at what the seat cannot see: the rival's hidden
    clues and a few clues a draw could bring. Margins are remembered by counts, since
    many moves lead to the same ones."""

    def __init__(self, hidden: list[str], drawable: list[str], i_assign_first: bool):
        self.hidden = kind_counts(hidden)
        self.drawable = [kind_of(card) for card in drawable]
        self.first = i_assign_first
        self.margins: dict[tuple, int] = {}

    def margin(self, mine: dict, theirs: dict, reserved: list) -> int:
        key = (*mine.values(), *theirs.values(), *map(bool, reserved))
        if key not in self.margins:
            self.margins[key] = counted_margin(mine, theirs, reserved, self.first)
        return self.margins[key]

    def __call__(self, end: Ending) -> float:
        theirs = {kind: count + self.hidden[kind] for kind, count in end.theirs.items()}
        lead = end.tokens[0] - end.tokens[1]
        if end.pike and self.drawable:
            scores = sorted(
                utility(self.margin(plus(end.mine, kind), theirs, end.reserved), lead)
                for kind in self.drawable
            )
            return expected_best(scores, end.pike)
        plain = utility(self.margin(end.mine, theirs, end.reserved), lead)
        if not end.rival_draws or not self.drawable:
            return plain
        # The rival pays a marker for an unseen card when that helps it on average.
        drawn = [
            utility(self.margin(end.mine, plus(theirs, kind), end.reserved), lead + 1)
            for kind in self.drawable
        ]
        return min(plain, sum(drawn) / len(drawn))


def plus(counts: dict, kind: str) -> dict:
    return {**counts, kind: counts[kind] + 1}


def expected_best(sorted_scores: list[float], looked: int) -> float:
    """The mean of the best of ``looked`` cards drawn at random from cards whose values
    are ``sorted_scores`` (ascending): the i-th is the best with chance C(i, n-1)/C(N, n)."""
    total = len(sorted_scores)
    looked = min(looked, total)
    ways = comb(total, looked)
    return sum(score * comb(index, looked - 1) for index, score in enumerate(sorted_scores)) / ways


def choose_last_move(view: dict, seat: int, legal: list[dict], seed: int) -> dict:
    """The move whose final count is best on average over guesses at the rival's hidden
    clues; ties go to the earlier listed move."""
    judges = guesses(view, seat, random.Random(seed))
    start = Ending(view, seat)
    judged: dict[tuple, float] = {}
    best, best_value = legal[0], None
    for action in legal:
        end = start.after(view, action)
        key = (end.cards_key(), *end.tokens, end.pike, end.rival_draws)
        if key not in judged:
            judged[key] = sum(judge(end) for judge in judges) / len(judges)
        if best_value is None or judged[key] > best_value:
            best, best_value = action, judged[key]
    return best


def guesses(view: dict, seat: int, chance: random.Random) -> list[Judge]:
    """A few guesses at the rival's hidden clues and at what a draw could bring (one is
    enough when the rival has no unknown hidden clue)."""
    unseen = unseen_cards(view, seat)
    samples = HIDDEN_SAMPLES if unknown_hidden_count(view, seat) else 1
    judges = []
    for _ in range(samples):
        hidden = sample_rival_hidden(view, seat, chance)
        drawable = [card for card in unseen if card not in hidden]
        drawn = chance.sample(drawable, min(DRAW_SAMPLE, len(drawable)))
        judges.append(Judge(hidden, drawn, view["first"] == seat))
    return judges
