"""The computer player: greedy on the majorities it can still win, no look-ahead, no
randomness. It reads only its seat's view.

Its yardstick is the *margin* on a kind (its points there minus the rival's). A card's
``gain`` is how much taking it moves that margin, with small bonuses for what the margin
misses: starting a pair of map fragments, widening a narrow lead. Markers are worth a
point each early in the game and almost nothing on the last day.
"""

from __future__ import annotations

from games.sherlock_mycroft.rules.cards import (
    ALL_COPIES_BONUS,
    MAP,
    MAP_POINTS,
    VALUE,
    WILD,
    kind_of,
    rank,
    take_cost,
)
from games.sherlock_mycroft.rules.scoring import best_assignment

WILDCARD_WORTH = 2.0
MAP_START = 0.5  # half of what a second fragment makes of the first
LEAD_BONUS = 0.5
RIVAL_SHARE = 0.5  # how much denying the rival a line card counts
RESERVED_PICKUP = 3.0  # collecting one's reserved clue avoids its penalty
PIKE_BASE, PIKE_STEP = 1.5, 0.5
SHINWELL_THRESHOLD = 3
RESERVE_THRESHOLD = 3


def bot_action(view: dict, seat: int, legal_actions: list[dict], seed: int) -> dict:
    """One of ``legal_actions``, chosen from ``view`` alone; ``seed`` is unused."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    counts = Counts(view, seat)
    chooser = CHOOSERS.get(view["step"])
    return chooser(view, seat, legal_actions, counts) if chooser else legal_actions[0]


def marker_worth(day: int) -> float:
    return 1.0 if day <= 4 else 0.7 if day <= 6 else 0.1


# --- Counting majorities ------------------------------------------------------------------


def points(kind: str, mine: int, theirs: int) -> int:
    if kind == MAP:
        return MAP_POINTS[max(0, min(mine, len(MAP_POINTS) - 1))]
    value = VALUE[kind]
    return (value - theirs if mine > theirs else 0) + (ALL_COPIES_BONUS if mine == value else 0)


def margin(kind: str, mine: int, theirs: int) -> int:
    if kind == MAP:
        return points(MAP, mine, 0) - points(MAP, theirs, 0)
    return points(kind, mine, theirs) - points(kind, theirs, mine)


class Counts:
    """The bot's real clues per kind (visible and hidden) and the rival's visible ones."""

    def __init__(self, view: dict, seat: int):
        me, them = view["players"][seat], view["players"][1 - seat]
        mine = me["visible"] + (view["private"] or {}).get("hidden", [])
        self.mine = tally(mine)
        self.theirs = tally(them["visible"])

    def gain(self, card: str, rival: bool = False) -> float:
        a, b = self.pair(card, rival)
        return card_gain(kind_of(card), a, b)

    def loss(self, card: str, rival: bool = False) -> float:
        kind = kind_of(card)
        if kind == WILD:
            return WILDCARD_WORTH
        a, b = self.pair(card, rival)
        return margin(kind, a, b) - margin(kind, a - 1, b)

    def pair(self, card: str, rival: bool) -> tuple[int, int]:
        kind = kind_of(card)
        a, b = self.mine.get(kind, 0), self.theirs.get(kind, 0)
        return (b, a) if rival else (a, b)

    def copy(self) -> Counts:
        twin = Counts.__new__(Counts)
        twin.mine, twin.theirs = dict(self.mine), self.theirs
        return twin

    def add(self, card: str) -> None:
        self.mine[kind_of(card)] = self.mine.get(kind_of(card), 0) + 1


def tally(cards: list[str]) -> dict[str, int]:
    result: dict[str, int] = {}
    for card in cards:
        result[kind_of(card)] = result.get(kind_of(card), 0) + 1
    return result


def card_gain(kind: str, a: int, b: int) -> float:
    if kind == WILD:
        return WILDCARD_WORTH
    if kind == MAP and a == 0:
        return MAP_START
    gain = margin(kind, a + 1, b) - margin(kind, a, b)
    if kind != MAP and gain == 0 and 1 <= a - b <= 2:
        gain += LEAD_BONUS
    return gain


# --- Moves --------------------------------------------------------------------------------


def choose_move(view: dict, seat: int, legal: list[dict], counts: Counts) -> dict:
    """The (from, to) pair whose best ability is worth most; an ability worth nothing is
    skipped. Ties go to the earlier pair."""
    pairs: dict[tuple, list[dict]] = {}
    for action in legal:
        pairs.setdefault((action["from"], action["to"]), []).append(action)
    best, best_value = None, None
    for (_origin, target), actions in pairs.items():
        value, action = value_of_pair(view, seat, target, actions, counts)
        if value <= 0:
            value, action = 0, next(a for a in actions if a["ability"] is None)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def value_of_pair(view, seat, target, actions, counts) -> tuple[float, dict | None]:
    variants = [a for a in actions if a["ability"] is not None]
    if not variants:
        return 0, None
    rate = VALUERS.get(target)
    return rate(view, seat, target, variants, counts) if rate else (0, None)


def by_ability(variants: list[dict], wanted: dict) -> dict | None:
    for action in variants:
        ability = action["ability"]
        if {k: sorted(v) if isinstance(v, list) else v for k, v in ability.items()} == wanted:
            return action
    return None


def value_take(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    w = marker_worth(view["day"])
    reserved = view["players"][seat]["reserved"]
    sizes = sorted({len(a["ability"]["take"]) for a in variants})
    best = (0, None)
    for size in sizes:
        picked, total = pick_cards(view["line"], reserved, size, counts)
        if len(picked) < size:
            continue
        action = by_ability(variants, {"take": sorted(picked)})
        value = total - take_cost(target, size) * w
        if action and (best[1] is None or value > best[0]):
            best = (value, action)
    return best


def pick_cards(line: list[str], reserved: str | None, size: int, counts: Counts):
    """Greedy: the best card, then the best given that one, and so on."""
    trial = counts.copy()
    pool = sorted(line, key=rank) + ([reserved] if reserved else [])
    picked, total = [], 0.0
    for _ in range(size):
        best_card, best_score = None, None
        for card in pool:
            if card in picked:
                continue
            if card == reserved:
                score = trial.gain(card) + RESERVED_PICKUP
            else:
                score = trial.gain(card) + RIVAL_SHARE * trial.gain(card, rival=True)
            if best_score is None or score > best_score:
                best_card, best_score = card, score
        if best_card is None:
            break
        picked.append(best_card)
        total += best_score
        trial.add(best_card)
    return picked, total


def value_markers(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    if target == "toby":
        amount = len({kind_of(c) for c in view["players"][seat]["visible"]} - {WILD})
    else:
        amount = {"mrs_hudson": 3, "wiggins": 5}[target]
    return min(amount, view["reserve"]) * marker_worth(view["day"]), variants[0]


def value_steal(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    def worth(action):
        card = action["ability"]["steal"]
        return counts.gain(card) + counts.loss(card, rival=True)

    action = best_of(variants, worth)
    return worth(action) - view["day"] * marker_worth(view["day"]), action


def value_look(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    w = marker_worth(view["day"])

    def worth(action):
        n = action["ability"]["look"]
        return PIKE_BASE + PIKE_STEP * (n - 1) - n * w

    action = best_of(variants, worth)
    return worth(action), action


def value_intimidation(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    threats = [(counts.gain(c, rival=True), c) for c in sorted(view["line"], key=rank)]
    threats = [t for t in threats if t[0] >= SHINWELL_THRESHOLD]
    threats.sort(key=lambda t: -t[0])  # stable: canonical order among equals
    chosen = threats[:3]
    if not chosen:
        return 0, None
    action = by_ability(variants, {"discard": sorted(c for _, c in chosen)})
    return sum(g - 1 for g, _ in chosen), action


def value_errand(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    w, day = marker_worth(view["day"]), view["day"]

    def worth(action):
        card = action["ability"]["discard"]
        return max(0, VALUE[kind_of(card)] - day) * w - counts.loss(card)

    action = best_of(variants, worth)
    return worth(action), action


def value_swap(view, seat, target, variants, counts) -> tuple[float, dict | None]:
    def worth(action):
        return counts.gain(action["ability"]["take"]) - counts.loss(action["ability"]["give"])

    action = best_of(variants, worth)
    return worth(action), action


def best_of(actions: list[dict], worth) -> dict:
    """The first action of highest worth."""
    best, best_value = actions[0], worth(actions[0])
    for action in actions[1:]:
        value = worth(action)
        if value > best_value:
            best, best_value = action, value
    return best


VALUERS = {
    "watson": value_take,
    "lestrade": value_take,
    "gregson": value_take,
    "von_kramm": value_take,
    "mrs_hudson": value_markers,
    "wiggins": value_markers,
    "toby": value_markers,
    "irene_adler": value_steal,
    "langdale_pike": value_look,
    "shinwell_johnson": value_intimidation,
    "billy": value_errand,
    "violet_hunter": value_swap,
}


# --- Other choices ------------------------------------------------------------------------


def choose_keep(view, seat, legal, counts) -> dict:
    return best_of(legal, lambda a: counts.gain(a["card"]))


def choose_von_kramm(view, seat, legal, counts) -> dict:
    wanted = view["day"] <= 6
    return next((a for a in legal if a["pay"] is wanted), legal[0])


def choose_moriarty(view, seat, legal, counts) -> dict:
    clues = [a for a in legal if a["give"] != "markers"]
    if not clues:
        return legal[0]
    cheapest = best_of(clues, lambda a: -counts.loss(a["give"]))
    markers = next((a for a in legal if a["give"] == "markers"), None)
    if markers and 2 * marker_worth(view["day"]) < counts.loss(cheapest["give"]):
        return markers
    return cheapest


def choose_reserve(view, seat, legal, counts) -> dict:
    cards = [a for a in legal if a["card"] is not None]
    if not cards:
        return legal[0]

    def worth(action):
        return counts.gain(action["card"]) + counts.gain(action["card"], rival=True)

    best = best_of(cards, worth)
    if worth(best) >= RESERVE_THRESHOLD:
        return best
    return next(a for a in legal if a["card"] is None)


def choose_assignment(view, seat, legal, counts) -> dict:
    players = view["players"]
    cards = [players[s]["visible"] + players[s].get("hidden", []) for s in (0, 1)]
    assigned = [players[s]["assigned"] for s in (0, 1)]
    reserved = [players[s]["reserved"] for s in (0, 1)]
    options = [a["assign"] for a in legal]
    chosen = best_assignment(options, cards, assigned, reserved, seat)
    return next(a for a in legal if a["assign"] == chosen)


CHOOSERS = {
    "move": choose_move,
    "keep": choose_keep,
    "von_kramm": choose_von_kramm,
    "moriarty": choose_moriarty,
    "reserve": choose_reserve,
    "assign": choose_assignment,
}
