"""The normal computer player: chooses one of the listed actions from its own view alone.

It reads the view (its hand, what it has seen this case, the public table) and the static
card ledger, never the state. It is deterministic: ties go to the first card in ledger
order, then to the nearest seat on the left. ``seed`` is accepted for the common
signature and not needed. Its policy, and where it departs from the plainest one, is
written out in ``docs/rules/i-say-holmes.md`` ("Computer players"). A window's timeout
answers for each waiting seat with ``bot_action``.
"""

from __future__ import annotations

from games.i_say_holmes.rules import cards

EXAMINING = ("CLUE", "SHOW", "LOOK", "LOOK+", "ARREST")
FEWEST_CARDS = ("DRAW1", "DRAW2", "SWAP")
I_SAY_ORDER = ("pipe", "hat", "glass")
# Seen-notes that tell what a seat holds now (while its hand_epoch has not moved).
TELLING = ("look", "clue", "show", "irreg", "give", "swap", "mastermind", "alibi")
ARRESTS = ("ARREST", "LOOK+", "IMPROMPTU")
EXPOSING = ARRESTS + ("LOOK", "CLUE", "SHOW", "SWAP")
# The bot's own notes written when cards left its hand other than by being played.
MOVED_OUT = ("alibi", "mastermind", "give", "swap", "fog")


def bot_action(view: dict, seat: int, legal_actions: list[dict], seed: int = 0) -> dict:
    if len(legal_actions) == 1:
        return legal_actions[0]
    me = Me(view, seat)
    kinds = {action["type"] for action in legal_actions}
    if "allow" in kinds:
        return _answer_window(me, legal_actions)
    if "choose" in kinds:
        return _choose(me, legal_actions)
    if "accuse" in kinds:
        return min(legal_actions, key=lambda action: me.suspect_rank(action["target"]))
    return _take_turn(me, legal_actions)


class Me:
    """What the bot knows: its seat, hand, the table's public facts and its notes."""

    def __init__(self, view: dict, seat: int):
        self.view = view
        self.seat = seat
        self.count = len(view["seats"])
        self.hand = [card["id"] for card in view["you"]["hand"]]
        drawn = view["you"]["drawn"]
        if drawn and drawn["id"] not in self.hand:
            self.hand.append(drawn["id"])
        self.holds_villain = any(cards.is_villain(card) for card in self.hand)
        self.known = self._known_villains()
        self.cleared = self._cleared()
        self.watchers = self._watchers()

    def _known_villains(self) -> set[int]:
        seats = self.view["seats"]
        return {
            entry["from"]
            for entry in self.view["you"]["seen"]
            if entry["how"] in TELLING
            and entry["epoch"] == seats[entry["from"]]["hand_epoch"]
            and any(card["type"] == cards.VILLAIN for card in entry["cards"])
        }

    def _cleared(self) -> set[int]:
        """Seats whose whole hand the bot saw, villain-free, and which changed unseen since."""
        seats = self.view["seats"]
        return {
            entry["from"]
            for entry in self.view["you"]["seen"]
            if entry["how"] == "look"
            and entry["epoch"] == seats[entry["from"]]["hand_epoch"]
            and not any(card["type"] == cards.VILLAIN for card in entry["cards"])
        } - self.known

    def _watchers(self) -> set[int]:
        """Opponents who saw a villain the bot still holds, its hand unchanged since.

        Notes are in time order; once cards left the bot's hand unseen (a pass, a swap, the
        fog), an earlier look is stale to the one who took it, as it is to the bot's own
        known-villain test."""
        watchers: set[int] = set()
        for entry in self.view["you"]["seen"]:
            if entry["how"] in MOVED_OUT:
                watchers.clear()
            elif entry["how"] == "shown" and any(
                card["type"] == cards.VILLAIN and card["id"] in self.hand for card in entry["cards"]
            ):
                watchers.add(entry["from"])
        return watchers

    def distance(self, other: int) -> int:
        return (other - self.seat) % self.count

    def hand_count(self, other: int) -> int:
        return self.view["seats"][other]["hand_count"]

    def suspect_rank(self, other: int) -> tuple:
        """Known villains first, then the most cards, then the nearest on the left."""
        return (
            other not in self.known,
            other in self.cleared,
            -self.hand_count(other),
            self.distance(other),
        )


# --- windows and choices --------------------------------------------------------------------


def _answer_window(me: Me, legal: list[dict]) -> dict:
    window = me.view["pending"]
    instruction = window["instruction"]
    counters = {cards.row(a["card"]).slug: a for a in legal if a["type"] == "counter"}
    if me.holds_villain and instruction in EXPOSING:
        return counters.get("alibi") or counters.get("mastermind") or {"type": "allow"}
    if me.holds_villain and instruction in ("DRAW1", "DRAW2"):
        return counters.get("alibi") or {"type": "allow"}  # more cards delay an escape
    return {"type": "allow"}


def _choose(me: Me, legal: list[dict]) -> dict:
    options = [action["card"] for action in legal]
    reason = me.view["pending"]["reason"]
    if reason in ("show", "irreg"):
        innocent = [card for card in options if not cards.is_villain(card)]
        pick = cards.in_ledger_order(innocent or options)[0]
    else:
        pick = min(options, key=_giveaway_rank)
    return {"type": "choose", "card": pick}


def _giveaway_rank(card: str) -> tuple:
    """Villains first, then high non-Interrupt cards, then Alibis, then Masterminds."""
    if cards.is_villain(card):
        group = 2
    elif not cards.is_interrupt(card):
        group = 1
    else:
        group = 3 if cards.row(card).slug == "alibi" else 4
    return (group, -cards.cp(card) if group == 1 else 0, cards.LEDGER_INDEX[card])


# --- a turn ---------------------------------------------------------------------------------


def _take_turn(me: Me, legal: list[dict]) -> dict:
    plays = [action for action in legal if action["type"] == "play"]
    others = {action["type"]: action for action in legal if action["type"] != "play"}
    best, score = _best_play(me, plays)
    if "draw" in others and (best is None or score < 0):
        return others["draw"]
    if "keep" in others and (best is None or score < 0):
        return others["keep"]
    if "end_turn" in others and (best is None or score < 0):
        return others["end_turn"]
    return best if best is not None else legal[0]


def _best_play(me: Me, plays: list[dict]) -> tuple[dict | None, float]:
    by_card: dict[str, list[dict]] = {}
    for action in plays:
        by_card.setdefault(action["card"], []).append(action)
    best, best_score = None, float("-inf")
    for card in cards.in_ledger_order(by_card):
        action = min(by_card[card], key=lambda a: _field_rank(me, a))
        score = _score(me, action)
        if score > best_score:
            best, best_score = action, score
    return best, best_score


def _score(me: Me, action: dict) -> float:
    row = cards.row(action["card"])
    if row.slug in ("arrest", "sherlock", "watson") and action.get("target") in me.known:
        return 100
    if me.holds_villain:
        score = villain_score(me, row.slug, action)
        if score is not None:
            return score
    if row.slug in ("sherlock", "watson") and action.get("target") not in me.cleared:
        return 50  # a free look, and an arrest if it finds a villain
    if row.type == cards.I_SAY and "token" not in action and not me.holds_villain:
        return -10
    if row.slug == "arrest" and (me.holds_villain or action.get("target") in me.cleared):
        return -5
    return row.cp


def villain_score(me: Me, slug: str, action: dict) -> float | None:
    """Holding a villain, the bot hopes to escape with it, unless an opponent has seen it:
    then it gets rid of it before they arrest. Irene always beats drawing a card."""
    exposed = bool(me.watchers)
    if slug == "irene":
        return 95 if exposed else 0.5
    if slug == "mycroft":
        return 85 if exposed else -20
    if slug == "constabulary" and "give" in action:
        return 90 if exposed and cards.is_villain(action["give"]) else 80
    return None


def _field_rank(me: Me, action: dict) -> tuple:
    """How much the bot likes these fields for this card: lower is better."""
    code = cards.row(action["card"]).instruction
    return (
        _give_rank(me, action),
        _target_rank(me, code, action.get("target")),
        _token_rank(me, action),
        cards.LEDGER_INDEX[action["villain"]] if "villain" in action else 0,
    )


def _give_rank(me: Me, action: dict) -> tuple:
    if cards.row(action["card"]).instruction != "GIVE":
        return ()
    gift = action.get("give")
    if gift is None:
        return (3,)
    if cards.is_villain(gift):
        # A villain an opponent has seen goes first; else the bot keeps it to escape with.
        return (0 if me.watchers else 2, cards.LEDGER_INDEX[gift])
    if cards.is_interrupt(gift):
        return (4,)
    return (1, -cards.cp(gift), cards.LEDGER_INDEX[gift])


def _target_rank(me: Me, code: str | None, target: int | None) -> tuple:
    if target is None:
        return ()
    if code in EXAMINING:
        return me.suspect_rank(target)
    if code in FEWEST_CARDS:
        return (me.hand_count(target), me.distance(target))
    if code == "WIRE":
        return (-len(me.view["seats"][target]["books"]), me.distance(target))
    if code == "GIVE":
        return (-me.hand_count(target), me.distance(target))
    return (me.distance(target),)


def _token_rank(me: Me, action: dict) -> tuple:
    token, source = action.get("token"), action.get("token_from")
    return (
        I_SAY_ORDER.index(token) if token else 0,
        -1 if source == me.seat else (me.distance(source) if source is not None else 0),
    )
