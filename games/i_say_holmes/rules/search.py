"""The expert's look-ahead: guess the hidden cards from a seat's view, play the case out.

``sample_world(view, rng)`` builds a whole game state from one seat's view alone: its own
hand and notes, the public table, and a random deal of everything it cannot see that
agrees with what it has seen (cards noted in a hand unchanged since stay there, a hand's
shown highest card caps the rest, the cards dealt this case are still in hands, no hand
could have escaped). ``rollout`` plays a state on with the normal player in every seat
until the case closes; ``standing`` says how that left a seat against its best rival.
Nothing here reads a real state: the only input is the view.
"""

from __future__ import annotations

import random

from games.i_say_holmes.rules import cards, settling, tokens
from games.i_say_holmes.rules.actions import HANDLERS
from games.i_say_holmes.rules.bot import TELLING, bot_action
from games.i_say_holmes.rules.decision import open_decision
from games.i_say_holmes.rules.legal import legal_actions
from games.i_say_holmes.rules.setup import OPTION_DEFAULTS
from games.i_say_holmes.rules.state import OVER, draft

# A rollout that has not closed the case after this many moves is scored where it stands.
ROLLOUT_MOVES = 160
# Tries at a deal that keeps every constraint before one that keeps the card counts only.
DEAL_TRIES = 12
# The bot's own notes written when cards left its hand other than by being played.
MOVED_OUT = ("alibi", "mastermind", "give", "swap", "fog")
# What a token whose value is hidden is worth on average (see expert.expected_scores).
I_SAY_MEAN = 1.8
TELEGRAM_MEAN = (-6 / 8, 4 / 8, 3 / 8)  # to its holder, the left and the right neighbour
# A game won in a rollout weighs as much as this many points of lead.
WIN_WEIGHT = 6.0

# The few fields of a card the normal player reads, shared (never changed) by every view.
_CARD = {
    card: {"id": card, "type": cards.kind(card), "cp": cards.cp(card)} for card in cards.ALL_CARDS
}


# --- a world that agrees with the view ----------------------------------------------------


def sample_world(view: dict, rng: random.Random) -> dict:
    """A full state the seat ``view["viewer"]`` cannot tell from the real one."""
    me = view["viewer"]
    count = len(view["seats"])
    hands, draw = _deal_hidden(view, rng)
    state = {
        "engine": view["engine"],
        "players": [seat["name"] for seat in view["seats"]],
        # The clocks do not change the play: their defaults stand in for the real ones.
        "options": {
            **OPTION_DEFAULTS,
            "max_cases": view["max_cases"],
            "fast_play": view["fast_play"],
        },
        "rng": format(rng.getrandbits(64), "016x"),
        "phase": view["phase"],
        "case": view["case"],
        "cases_closed": view["cases_closed"],
        "max_cases": view["max_cases"],
        "last_case": view["last_case"],
        "result": None,
        "hands": hands,
        "draw": draw,
        "discard": [card["id"] for card in view["discard"]],
        "set_aside": [card["id"] for card in view["set_aside"]],
        "current": {"card": view["current"]["card"]["id"], "holder": view["current"]["holder"]},
        "location": view["location"],
        "travel": view["travel"],
        "hand_epoch": [seat["hand_epoch"] for seat in view["seats"]],
        "seen": _notes(view, me, count),
        "turn": {key: view["turn"][key] for key in ("seat", "step", "deduction", "count")},
        "drawn": view["you"]["drawn"]["id"] if view["you"]["drawn"] else None,
        "resume": None,
        "pending": None,
        "impromptu": None,
    }
    state["pool"], state["holdings"] = _deal_tokens(view, rng)
    return state


def _deal_hidden(view: dict, rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """Every opponent's hand and the draw pile: the cards noted in a hand stay there; the
    unseen cards of this case's deal fill hands first (they never went to the pile), then
    cards that started in the pile fill the rest, the leftovers making the pile."""
    me = view["viewer"]
    count = len(view["seats"])
    mine = [card["id"] for card in view["you"]["hand"]]
    public = {card["id"] for card in view["discard"] + view["set_aside"]}
    public.add(view["current"]["card"]["id"])
    placed = _placed(view, public | set(mine))
    seen_anywhere = public | set(mine) | {card for held in placed.values() for card in held}
    hidden = [card for card in cards.LEDGER_ORDER if card not in seen_anywhere]
    dealt = set(cards.deal_out_stack(count))
    ceilings = _ceilings(view)
    slots = {
        seat: max(0, view["seats"][seat]["hand_count"] - len(placed.get(seat, ())))
        for seat in range(count)
        if seat != me
    }
    best = None
    for _ in range(DEAL_TRIES):
        hands, draw = _one_deal(hidden, dealt, placed, slots, rng)
        hands[me] = list(mine)
        best = hands, draw
        if _plausible(hands, me, ceilings):
            break
    return best


def _one_deal(hidden, dealt, placed, slots, rng):
    from_deal = [card for card in hidden if card in dealt]
    from_pile = [card for card in hidden if card not in dealt]
    rng.shuffle(from_deal)
    rng.shuffle(from_pile)
    openings = [seat for seat, number in slots.items() for _ in range(number)]
    rng.shuffle(openings)
    # The dealt cards take hand places first; any beyond them went back by a reshuffle.
    first = from_deal[: len(openings)]
    rest = from_deal[len(openings) :] + from_pile
    rng.shuffle(rest)
    fillers = first + rest[: len(openings) - len(first)]
    draw = rest[len(openings) - len(first) :]
    hands = [list(placed.get(seat, ())) for seat in range(len(slots) + 1)]
    for seat, card in zip(openings, fillers, strict=False):
        hands[seat].append(card)
    return hands, draw


def _plausible(hands, me, ceilings) -> bool:
    """No opponent's hand could have escaped, and none beats the highest card it showed."""
    for seat, held in enumerate(hands):
        if seat == me or not held:
            continue
        if cards.ESCAPING_CARDS.issuperset(held):
            return False
        ceiling = ceilings.get(seat)
        if ceiling is not None and max(cards.cp(card) for card in held) > ceiling:
            return False
    return True


def _placed(view: dict, elsewhere: set[str]) -> dict[int, list[str]]:
    """Cards the seat's notes put in an opponent's hand that has not changed unseen since
    (less those played since, now face up, or back in the seat's own hand)."""
    seats = view["seats"]
    placed: dict[int, list[str]] = {}
    taken: set[str] = set()
    for entry in view["you"]["seen"]:
        source = entry["from"]
        if source is None or entry["how"] not in TELLING:
            continue
        if entry["epoch"] != seats[source]["hand_epoch"]:
            continue
        for card in entry["cards"]:
            card_id = card["id"]
            if card_id not in elsewhere and card_id not in taken:
                placed.setdefault(source, []).append(card_id)
                taken.add(card_id)
    for seat, held in placed.items():
        del held[seats[seat]["hand_count"] :]  # never more than the hand holds
    return placed


def _ceilings(view: dict) -> dict[int, int]:
    seats = view["seats"]
    ceilings: dict[int, int] = {}
    for entry in view["you"]["seen"]:
        source = entry["from"]
        if entry["how"] in ("show", "irreg") and entry["epoch"] == seats[source]["hand_epoch"]:
            ceilings[source] = min(entry["cards"][0]["cp"], ceilings.get(source, 99))
    return ceilings


def _notes(view: dict, me: int, count: int) -> list[list[dict]]:
    """The seat's own notes as they are; of the others' only what the seat knows they saw
    of its hand (current while its hand has not changed unseen since)."""
    seen = [[] for _ in range(count)]
    own = view["you"]["seen"]
    epoch = view["seats"][me]["hand_epoch"]
    last_out = max((n for n, entry in enumerate(own) if entry["how"] in MOVED_OUT), default=-1)
    for number, entry in enumerate(own):
        ids = [card["id"] for card in entry["cards"]]
        seen[me].append({**entry, "cards": ids})
        if entry["how"] == "shown" and entry["from"] is not None:
            then = epoch if number > last_out else epoch - 1
            seen[entry["from"]].append({"from": me, "cards": ids, "how": "clue", "epoch": then})
    return seen


def _deal_tokens(view: dict, rng: random.Random) -> tuple[dict, list[dict]]:
    """Token ids by the public counts; which id (so which value) each is, at random."""
    seats = view["seats"]
    pool_view = view["pool"]
    telegrams = list(tokens.TELEGRAMS)
    rng.shuffle(telegrams)
    holdings = [tokens.empty_holdings() for _ in seats]
    for seat, public in enumerate(seats):
        holdings[seat]["telegrams"] = [telegrams.pop() for _ in range(public["telegrams"])]
        holdings[seat]["books"] = list(public["books"])
        holdings[seat]["villains"] = [_VILLAIN_SLUG[name] for name in public["villains"]]
    pool = {"telegrams": telegrams[: pool_view["telegrams"]]}
    for kind in tokens.I_SAY_TYPES:
        ids = tokens.i_say_ids(kind)
        rng.shuffle(ids)
        for seat, public in enumerate(seats):
            if kind in public["i_say"]:
                holdings[seat][kind] = ids.pop()
        pool[kind] = ids[: pool_view[kind]]
    pool["books"] = [book["name"] for book in pool_view["books"]]
    pool["villains"] = [_VILLAIN_SLUG[name] for name in pool_view["villains"]]
    return pool, holdings


_VILLAIN_SLUG = {name: slug for slug, name in tokens.VILLAIN_NAMES.items()}


# --- playing it out -------------------------------------------------------------------------


def rollout(state: dict, moves: int = ROLLOUT_MOVES) -> dict:
    """The normal player moves for every seat until the case closes (or ``moves`` run out)."""
    case = state["case"]
    for _ in range(moves):
        if state["phase"] == OVER or state["case"] != case:
            break
        seats = open_decision(state)[1]
        if not seats:
            break
        seat = seats[0]
        legal = legal_actions(state, seat)
        action = legal[0] if len(legal) == 1 else bot_action(_lean_view(state, seat), seat, legal)
        state = perform_listed(state, seat, action)
    return state


def perform_listed(state: dict, seat: int, action: dict) -> dict:
    """``apply`` for an action ``legal_actions`` listed, without checking it again: each
    check returns the action's own fields as its parameters."""
    after = draft(state)
    HANDLERS[action["type"]][1](after, seat, {k: v for k, v in action.items() if k != "type"})
    settling.settle(after)
    return dict(after)


def _lean_view(state: dict, seat: int) -> dict:
    """The parts of ``view`` the normal player reads, built without copying the cards."""
    holdings = state["holdings"]
    drawn = state["drawn"] if state["turn"]["seat"] == seat else None
    return {
        "seats": [
            {"hand_count": len(held), "hand_epoch": epoch, "books": holdings[number]["books"]}
            for number, (held, epoch) in enumerate(
                zip(state["hands"], state["hand_epoch"], strict=True)
            )
        ],
        "you": {
            "hand": [_CARD[card] for card in state["hands"][seat]],
            "drawn": _CARD[drawn] if drawn else None,
            "seen": [
                {**entry, "cards": [_CARD[card] for card in entry["cards"]]}
                for entry in state["seen"][seat]
            ],
        },
        "pending": state["pending"],
    }


def standing(state: dict, seat: int) -> float:
    """``seat``'s points less its best rival's, hidden values at their mean; a finished
    game counts its win (shared or not) on top."""
    points = expected_points(state)
    mine = points[seat]
    rivals = max(points[other] for other in range(len(points)) if other != seat)
    value = mine - rivals
    if state["phase"] == OVER:
        winners = state["result"]["winners"]
        value += WIN_WEIGHT * (winners.count(seat) / len(winners))
    return value


def expected_points(state: dict) -> list[float]:
    count = len(state["holdings"])
    points = [0.0] * count
    for seat, held in enumerate(state["holdings"]):
        points[seat] += sum(tokens.BOOK_VP[name] for name in held["books"])
        points[seat] += sum(tokens.VILLAIN_VP[slug] for slug in held["villains"])
        points[seat] += I_SAY_MEAN * sum(held[kind] is not None for kind in tokens.I_SAY_TYPES)
        wires = len(held["telegrams"])
        points[seat] += TELEGRAM_MEAN[0] * wires
        points[(seat + 1) % count] += TELEGRAM_MEAN[1] * wires
        points[(seat - 1) % count] += TELEGRAM_MEAN[2] * wires
    return points
