"""The ``normal`` computer player: greedy on the majorities it can still win, no
look-ahead, no randomness. It reads only its seat's view.

Its yardstick is the *margin* on a kind (its points there minus the rival's), counting
the wildcards each player would place there at the end. A card's ``gain`` is how much
taking it moves that margin, with small bonuses for what the margin misses: map
fragments still to come, widening a narrow lead. Markers are worth a point each early in
the game and almost nothing on the last day. The game's very last move is judged by the
final count itself (``endgame.choose_last_move``).
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
from games.sherlock_mycroft.rules.endgame import (
    choose_last_move,
    is_last_move,
    majority,
    place_wildcards,
    tally,
)

WILDCARD_WORTH = 2.0
MAP_START = (1.5, 0.5, -1.0)  # a first fragment: early in the week, days 5-6, day 7
LEAD_BONUS = 0.5
RIVAL_SHARE = 0.5  # how much denying the rival a line card counts
RESERVED_PICKUP = 3.0  # collecting one's reserved clue avoids its penalty
PIKE_BASE, PIKE_STEP = 1.5, 0.5
SHINWELL_THRESHOLD = 3
RESERVE_THRESHOLD = 3


def bot_action(view: dict, seat: int, legal_actions: list[dict], seed: int) -> dict:
    """One of ``legal_actions``, chosen from ``view`` alone; ``seed`` only varies the
    guesses at the rival's hidden clues on the last move."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    if is_last_move(view, seat):
        return choose_last_move(view, seat, legal_actions, seed)
    counts = Counts(view, seat)
    chooser = CHOOSERS.get(view["step"])
    return chooser(view, seat, legal_actions, counts) if chooser else legal_actions[0]


normal_bot = bot_action


MOST_MAPS = len(MAP_POINTS) - 1


def marker_worth(day: int) -> float:
    return 1.0 if day <= 4 else 0.7 if day <= 6 else 0.1


# --- Counting majorities ------------------------------------------------------------------


def margin(kind: str, mine: int, theirs: int, boosts: tuple[int, int] = (0, 0)) -> int:
    """My points on ``kind`` minus the rival's, with real counts ``mine`` and ``theirs``
    and ``boosts`` the wildcards each places there (maps take none): ``kind_points`` for
    both, inlined, since it is counted thousands of times a decision by the expert."""
    if kind == MAP:
        return MAP_POINTS[min(mine, MOST_MAPS)] - MAP_POINTS[min(theirs, MOST_MAPS)]
    value = VALUE[kind]  # also the number of copies
    bonus = ALL_COPIES_BONUS * ((mine == value) - (theirs == value))
    return majority(value, mine + boosts[0], theirs + boosts[1]) + bonus


class Counts:
    """The bot's real clues per kind (visible and hidden), the rival's visible ones, and
    the kinds where each would place its face-up wildcards if the game ended now."""

    def __init__(self, view: dict, seat: int):
        me, them = view["players"][seat], view["players"][1 - seat]
        self.mine, my_wilds = tally(me["visible"] + (view["private"] or {}).get("hidden", []))
        self.theirs, their_wilds = tally(them["visible"])
        self.day = view["day"]
        self.my_wild_kinds = place_wildcards(self.mine, my_wilds, self.theirs)
        self.their_wild_kinds = place_wildcards(self.theirs, their_wilds, self.mine)
        self.maps_out = 5 - self.mine[MAP] - self.theirs[MAP]
        self.known: dict[tuple, float] = {}  # gains and losses counted so far, by kind

    def gain(self, card: str, rival: bool = False) -> float:
        key = (kind_of(card), rival, True)
        if key not in self.known:
            self.known[key] = self.kind_gain(key[0], rival)
        return self.known[key]

    def loss(self, card: str, rival: bool = False) -> float:
        key = (kind_of(card), rival, False)
        if key not in self.known:
            self.known[key] = self.kind_loss(key[0], rival)
        return self.known[key]

    def kind_gain(self, kind: str, rival: bool) -> float:
        if kind == WILD:
            return WILDCARD_WORTH
        a, b = self.pair(kind, rival)
        if kind == MAP:
            return map_gain(a, self.maps_out, self.day)
        boosts = self.boosts(kind, rival)
        gain = margin(kind, a + 1, b, boosts) - margin(kind, a, b, boosts)
        if gain == 0 and 1 <= a + boosts[0] - b - boosts[1] <= 2:
            gain += LEAD_BONUS
        return gain

    def kind_loss(self, kind: str, rival: bool) -> float:
        if kind == WILD:
            return WILDCARD_WORTH
        a, b = self.pair(kind, rival)
        boosts = self.boosts(kind, rival)
        return margin(kind, a, b, boosts) - margin(kind, a - 1, b, boosts)

    def pair(self, kind: str, rival: bool) -> tuple[int, int]:
        a, b = self.mine[kind], self.theirs[kind]
        return (b, a) if rival else (a, b)

    def boosts(self, kind: str, rival: bool) -> tuple[int, int]:
        mine, theirs = int(kind in self.my_wild_kinds), int(kind in self.their_wild_kinds)
        return (theirs, mine) if rival else (mine, theirs)

    def copy(self) -> Counts:
        twin = Counts.__new__(Counts)
        twin.__dict__.update(self.__dict__)
        twin.mine = dict(self.mine)
        twin.known = {}
        return twin

    def add(self, card: str) -> None:
        kind = kind_of(card)
        if kind != WILD:
            self.mine[kind] += 1
            self.known = {}


def map_gain(held: int, still_out: int, day: int) -> float:
    """A map fragment: what the next one adds (1 = -1, 2 = +2, ...), but a first one is
    worth what it promises while others may still come."""
    if held == 0:
        if still_out < 2:
            return MAP_POINTS[1]
        return MAP_START[0 if day <= 4 else 1 if day <= 6 else 2]
    return MAP_POINTS[min(held + 1, len(MAP_POINTS) - 1)] - MAP_POINTS[held]


# --- Moves --------------------------------------------------------------------------------


def choose_move(view: dict, seat: int, legal: list[dict], counts: Counts) -> dict:
    """The (from, to) pair whose best ability is worth most; an ability worth nothing is
    skipped. Ties go to the earlier pair."""
    best, best_value = None, None
    for value, action in rated_moves(view, seat, legal, counts):
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def rated_moves(view: dict, seat: int, legal: list[dict], counts: Counts) -> list[tuple]:
    """Per (from, to) pair, in listed order: (worth, the pair's best action), the move
    without ability (worth 0) when no ability is worth anything."""
    pairs: dict[tuple, list[dict]] = {}
    for action in legal:
        pairs.setdefault((action["from"], action["to"]), []).append(action)
    rated = []
    for (_origin, target), actions in pairs.items():
        value, action = value_of_pair(view, seat, target, actions, counts)
        if value <= 0:
            value, action = 0, next(a for a in actions if a["ability"] is None)
        rated.append((value, action))
    return rated


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
    """The kinds where a wildcard gains most against the rival's final counts (its
    wildcards included once placed); kinds score apart, so the best few are the best."""
    players = view["players"]
    mine, wilds = tally(players[seat]["visible"] + players[seat]["hidden"])
    theirs, _ = tally(players[1 - seat]["visible"] + players[1 - seat]["hidden"])
    their_kinds = set((players[1 - seat]["assigned"] or {}).values())
    chosen = place_wildcards(mine, wilds, theirs, their_kinds)
    return next((a for a in legal if set(a["assign"].values()) == chosen), legal[0])


CHOOSERS = {
    "move": choose_move,
    "keep": choose_keep,
    "von_kramm": choose_von_kramm,
    "moriarty": choose_moriarty,
    "reserve": choose_reserve,
    "assign": choose_assignment,
}
