"""The expert computer player: the normal player's habits, sharpened by an estimate of
where the villains are and of the score.

From its view alone (its hand, its notes of this case, hand sizes, the piles, the tokens
each seat holds) it works out, seat by seat, how likely each opponent is to hold a villain
(``villain_odds``): a villain dealt this case is in some hand, one never dealt only if it
has been drawn; cards it has seen in a hand unchanged since are not villains, and a hand
seen villain-free, or whose highest card shown is worth less than a villain, weighs little.
While it has placed no villain it spends its looks (the Irregulars, Lestrade, Clues,
Disguises) on the likeliest hands, and it accuses the likeliest seat. It plays Arrests for
their case points as Normal does (at six players or more on the likeliest seat), sends
telegrams to its right-hand neighbour ahead of plain cards, takes I Say tokens from the
opponent ahead and gives Fleet Street tokens to the one behind (``expected_scores``: the
tokens' public counts at their mean values). It keeps its own villain to escape with until
someone has seen it.

On its turn it then looks ahead (``_search``): the heuristic's choice, its next best
plays and the turn's way out are each played in a few worlds sampled from the view alone
(``search.sample_world``) and played out by normal players to the end of the case; a
candidate replaces the heuristic's choice only when it did clearly better over the same
worlds. Windows, secret choices and accusations are answered by the heuristic alone.
Its choices depend on the view and ``seed`` only.
"""

from __future__ import annotations

import random

from games.base import Refusal
from games.i_say_holmes.rules import cards, search, tokens
from games.i_say_holmes.rules.actions import apply
from games.i_say_holmes.rules.bot import EXPOSING, I_SAY_ORDER, TELLING, Me, villain_score

# How much a hand weighs, per card, where a villain is unlikely: seen villain-free (it may
# have drawn one since), or showing a highest card worth less than the villain.
UNLIKELY = 0.15
LOOKS = ("CLUE", "SHOW", "LOOK")
# From this many players on, an Arrest goes to the likeliest seat rather than the nearest.
LIKELIEST_ARREST_FROM = 6
# Below that, a seat at least this likely to hold a villain is worth an arrest.
ARREST_ODDS = 0.3
# The look-ahead: worlds sampled a decision, and plays tried in each besides the way out.
WORLDS = 8
CANDIDATES = 3
# How many standard errors a candidate's gain over the heuristic's choice must clear.
CONFIDENCE = 1.0


def expert_action(
    view: dict, seat: int, legal_actions: list[dict], seed: int = 0, worlds: int = WORLDS
) -> dict:
    if len(legal_actions) == 1:
        return legal_actions[0]
    me = Me(view, seat)
    odds = villain_odds(me)
    kinds = {action["type"] for action in legal_actions}
    if "allow" in kinds:
        return _answer_window(me, legal_actions)
    if "choose" in kinds:
        return _choose(me, legal_actions)
    if "accuse" in kinds:
        return max(legal_actions, key=lambda action: _suspicion(me, odds, action["target"]))
    candidates = _candidates(me, odds, legal_actions)
    if len(candidates) == 1 or worlds < 1:
        return candidates[0]
    return _search(view, seat, candidates, random.Random(seed), worlds)


# --- looking ahead --------------------------------------------------------------------------


def _candidates(me: Me, odds: dict[int, float], legal: list[dict]) -> list[dict]:
    """The heuristic's choice first, then its next best plays (one per card and fields,
    copies of a card being alike) and the turn's way out (draw, keep or end the turn)."""
    choice = _take_turn(me, odds, legal)
    plays = [action for action in legal if action["type"] == "play"]
    plays.sort(key=lambda action: -_score(me, odds, action))
    chosen, keys = [choice], {_play_key(choice)}
    for action in plays:
        if sum(each["type"] == "play" for each in chosen) >= CANDIDATES:
            break
        if _play_key(action) not in keys:
            chosen.append(action)
            keys.add(_play_key(action))
    chosen += [action for action in legal if action["type"] != "play" and action != choice]
    return chosen


def _play_key(action: dict) -> tuple:
    """Two plays alike but for the copy of a card they play (or give) are one candidate."""
    return tuple(
        sorted(
            (name, cards.row(value).slug if name in ("card", "give", "villain") else value)
            for name, value in action.items()
        )
    )


def _search(view: dict, seat: int, candidates: list[dict], rng, worlds: int) -> dict:
    """Each candidate played in the same sampled worlds, each world then played out to the
    end of the case by normal players. A candidate replaces the heuristic's choice (the
    first) only when it did better in the same worlds by a clear margin: a few worlds are
    noisy, and the heuristic is a good prior."""
    gains: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        world = search.sample_world(view, rng)
        values = []
        for action in candidates:
            after = apply(world, seat, action)
            if isinstance(after, Refusal):  # cannot happen from a faithful view; be safe
                values.append(float("-inf"))
                continue
            values.append(search.standing(search.rollout(after[0]), seat))
        for number, value in enumerate(values):
            gains[number].append(value - values[0])
    best, best_margin = 0, 0.0
    for number in range(1, len(candidates)):
        margin = _clear_margin(gains[number])
        if margin > best_margin:
            best, best_margin = number, margin
    return candidates[best]


def _clear_margin(gains: list[float]) -> float:
    """How far the mean gain over the heuristic's choice stands above its noise (0 when
    it does not stand above it by ``CONFIDENCE`` standard errors)."""
    count = len(gains)
    mean = sum(gains) / count
    spread = (sum((gain - mean) ** 2 for gain in gains) / max(1, count - 1)) ** 0.5
    margin = mean - CONFIDENCE * spread / count**0.5
    return margin if margin > 0 and mean != float("inf") else 0.0


# --- where the villains are -----------------------------------------------------------------


def villain_odds(me: Me) -> dict[int, float]:
    """For each opponent, the chance it holds at least one villain now."""
    known_cards = _known_hands(me)
    public = _public_cards(me.view)
    ceilings = _ceilings(me)
    slots = _unknown_slots(me, known_cards)
    clear_of = {seat: 1.0 for seat in slots}
    for villain in cards.VILLAINS:
        if villain in me.hand or villain in public:
            continue
        holder = next((seat for seat, held in known_cards.items() if villain in held), None)
        if holder is not None:
            clear_of[holder] = 0.0
            continue
        weights = {
            seat: slot * (UNLIKELY if cards.cp(villain) > ceilings.get(seat, 99) else 1.0)
            for seat, slot in slots.items()
        }
        total = sum(weights.values())
        in_hands = _chance_in_hands(me, villain)
        for seat, weight in weights.items():
            if total:
                clear_of[seat] *= 1 - in_hands * weight / total
    return {seat: 1 - clear for seat, clear in clear_of.items()}


def _ceilings(me: Me) -> dict[int, int]:
    """A shown card is one of the highest of its hand: nothing there is worth more case
    points (a Disguise or the Irregulars showed it), while that hand is unchanged."""
    seats = me.view["seats"]
    ceilings: dict[int, int] = {}
    for entry in me.view["you"]["seen"]:
        source = entry["from"]
        if entry["how"] in ("show", "irreg") and entry["epoch"] == seats[source]["hand_epoch"]:
            shown = entry["cards"][0]["cp"]
            ceilings[source] = min(shown, ceilings.get(source, 99))
    return ceilings


def _known_hands(me: Me) -> dict[int, set[str]]:
    """Cards the bot's notes place in an opponent's hand, that hand unchanged since."""
    seats = me.view["seats"]
    known: dict[int, set[str]] = {}
    for entry in me.view["you"]["seen"]:
        source = entry["from"]
        if entry["how"] in TELLING and entry["epoch"] == seats[source]["hand_epoch"]:
            known.setdefault(source, set()).update(card["id"] for card in entry["cards"])
    return known


def _public_cards(view: dict) -> set[str]:
    face_up = view["discard"] + view["set_aside"]
    if view["current"]:
        face_up.append(view["current"]["card"])
    return {card["id"] for card in face_up}


def _chance_in_hands(me: Me, villain: str) -> float:
    """A villain dealt this case stays in some hand (Irene discards it face up); one left
    in the draw pile is in a hand only if drawn since."""
    pile_at_deal = len(cards.LEDGER_ORDER) - len(cards.deal_out_stack(me.count))
    if (cards.SET_UP_NUMBER[villain] or 99) <= me.count:
        return 1.0
    drawn = max(0, pile_at_deal - me.view["draw_count"])
    return min(1.0, drawn / pile_at_deal)


def _unknown_slots(me: Me, known_cards: dict[int, set[str]]) -> dict[int, float]:
    """How many of each opponent's cards could be a villain the bot has not placed."""
    slots = {}
    for seat in range(me.count):
        if seat == me.seat:
            continue
        count = me.hand_count(seat)
        if count < 2:
            slots[seat] = 0.0  # a lone villain in hand would have escaped at once
            continue
        unseen = max(0, count - len(known_cards.get(seat, ())))
        slots[seat] = unseen * (UNLIKELY if seat in me.cleared else 1.0)
    return slots


def _suspicion(me: Me, odds: dict[int, float], seat: int) -> tuple:
    return (seat in me.known, odds[seat], me.hand_count(seat), -me.distance(seat))


# --- windows and choices --------------------------------------------------------------------


def _answer_window(me: Me, legal: list[dict]) -> dict:
    instruction = me.view["pending"]["instruction"]
    counters = {cards.row(a["card"]).slug: a for a in legal if a["type"] == "counter"}
    if me.holds_villain and instruction in EXPOSING:
        return counters.get("alibi") or counters.get("mastermind") or {"type": "allow"}
    if me.holds_villain and instruction in ("DRAW1", "DRAW2"):
        return counters.get("alibi") or {"type": "allow"}
    return {"type": "allow"}


def _choose(me: Me, legal: list[dict]) -> dict:
    """Show an innocent card; pass or fog away anything but a villain it hopes to escape
    with (unless someone has seen it) and the Interrupts that guard it."""
    options = [action["card"] for action in legal]
    if me.view["pending"]["reason"] in ("show", "irreg"):
        innocent = [card for card in options if not cards.is_villain(card)]
        return {"type": "choose", "card": cards.in_ledger_order(innocent or options)[0]}
    return {"type": "choose", "card": min(options, key=lambda card: _parting_rank(me, card))}


def _parting_rank(me: Me, card: str) -> tuple:
    if cards.is_villain(card):
        group = 0 if me.watchers else 3
    elif cards.is_interrupt(card):
        group = 2
    else:
        group = 1
    return (group, -cards.cp(card), cards.LEDGER_INDEX[card])


# --- a turn ---------------------------------------------------------------------------------


def _take_turn(me: Me, odds: dict[int, float], legal: list[dict]) -> dict:
    plays = [action for action in legal if action["type"] == "play"]
    others = {action["type"]: action for action in legal if action["type"] != "play"}
    best, score = None, float("-inf")
    for action in plays:
        value = _score(me, odds, action)
        if value > score:
            best, score = action, value
    for fallback in ("draw", "keep", "end_turn"):
        if fallback in others and (best is None or score < 0):
            return others[fallback]
    return best if best is not None else legal[0]


def _score(me: Me, odds: dict[int, float], action: dict) -> float:
    """How much the bot likes this play, fields and all."""
    row = cards.row(action["card"])
    code = row.instruction
    target = action.get("target")
    chance = odds.get(target, 0.0) if target is not None else 0.0
    if code in ("ARREST", "LOOK+") and target in me.known:
        return 100 + _tie_break(me, action)
    if me.holds_villain:
        special = villain_score(me, row.slug, action)
        if special is not None:
            return special + _field_bonus(me, odds, action) + _tie_break(me, action)
    if code == "LOOK+":
        return 50 + 40 * chance  # a free look, and an arrest if a villain is there
    if code == "ARREST" and me.count >= LIKELIEST_ARREST_FROM:
        # At a big table an arrest on a hunch often finds one of the many villains:
        # played for its case points, as Normal does, at the likeliest seat.
        return row.cp + 0.9 * chance
    if code == "ARREST":
        if chance >= ARREST_ODDS and not me.holds_villain:
            return 60 + 30 * chance
        return -5 + chance  # kept for a known villain; if it must go, at the likeliest
    if code == "WIRE" and me.distance(target) == me.count - 1:
        # A telegram costs its holder and may pay the holder's left neighbour, the bot:
        # worth more than any plain card's case points.
        return 3.2 + _field_bonus(me, odds, action)
    # With no villain placed, a look is worth more than a token or case points.
    hunting = not me.known and not me.holds_villain
    if hunting and row.slug == "irregulars":
        return 40 + _field_bonus(me, odds, action)  # every opponent shows a highest card
    if hunting and code == "LOOK":
        return 20 + 20 * chance + _field_bonus(me, odds, action)
    if row.type == cards.I_SAY and "token" not in action and not me.holds_villain:
        return -10
    if hunting and code in ("CLUE", "SHOW"):
        bonus = 2 * chance + _field_bonus(me, odds, action)
        return row.cp + bonus + _tie_break(me, action)
    return row.cp + _field_bonus(me, odds, action) + _tie_break(me, action)


def _field_bonus(me: Me, odds: dict[int, float], action: dict) -> float:
    """Below one point: the fields decide between plays of the same card."""
    code = cards.row(action["card"]).instruction
    target = action.get("target")
    if target is None:
        return _token_bonus(me, action)
    if code in LOOKS:
        fresh = target not in me.known and target not in me.cleared
        return 0.5 * odds[target] * fresh + _token_bonus(me, action)
    if code in ("DRAW1", "DRAW2", "SWAP"):
        return 0.5 / (1 + me.hand_count(target)) + 0.3 * (target in me.known)
    if code == "WIRE":
        # A telegram may pay its holder's neighbours: best on the seat to the bot's right.
        right = me.distance(target) == me.count - 1
        bonus = 0.5 if right else 0.2 * (me.distance(target) == 1)
        return bonus + 0.05 * (action.get("token_from") == me.seat)
    if code == "GIFT":
        # Only when nothing else will do; then to the opponent furthest behind.
        return -3.0 - 0.01 * expected_scores(me.view)[target]
    if code == "GIVE":
        return _gift_bonus(me, action)
    return _token_bonus(me, action)


def _gift_bonus(me: Me, action: dict) -> float:
    gift = action.get("give")
    if gift is None:
        return 0.0
    if cards.is_villain(gift):
        return 0.5 if me.watchers else -0.5
    if cards.is_interrupt(gift):
        return -0.5
    return 0.1 + cards.cp(gift) / 100 + me.hand_count(action["target"]) / 1000


def _token_bonus(me: Me, action: dict) -> float:
    token = action.get("token")
    if token is None:
        return 0.0
    source = action.get("token_from")
    taken_from_rival = 0.05 if source is not None and source != me.seat else 0.0
    if taken_from_rival:
        taken_from_rival += 0.001 * expected_scores(me.view)[source]  # rob the leader
    return 0.1 - 0.02 * I_SAY_ORDER.index(token) + taken_from_rival


def _tie_break(me: Me, action: dict) -> float:
    """A whisker for the nearer seat on the left, so equal plays resolve the same way."""
    target = action.get("target")
    return 0.0 if target is None else -me.distance(target) / 10_000


# --- the end of the game --------------------------------------------------------------------

# What a token of unknown value is worth on average: I Say tokens are 1, 1, 2, 2, 3; of the
# eight telegrams the holder loses 6 in all, its left neighbour gains 4, its right 3.
I_SAY_MEAN = 1.8
TELEGRAM_MEAN = {"own": -6 / 8, "left": 4 / 8, "right": 3 / 8}
VILLAIN_BY_NAME = {name: slug for slug, name in tokens.VILLAIN_NAMES.items()}
NON_VILLAIN_CP = 2.0


def expected_scores(view: dict) -> list[float]:
    """Each seat's points as far as the table shows them, unknown values at their mean."""
    seats = view["seats"]
    count = len(seats)
    points = [0.0] * count
    for seat, public in enumerate(seats):
        points[seat] += sum(tokens.BOOK_VP[name] for name in public["books"])
        points[seat] += sum(tokens.VILLAIN_VP[VILLAIN_BY_NAME[name]] for name in public["villains"])
        points[seat] += I_SAY_MEAN * len(public["i_say"])
        wires = public["telegrams"]
        points[seat] += TELEGRAM_MEAN["own"] * wires
        points[(seat + 1) % count] += TELEGRAM_MEAN["left"] * wires
        points[(seat - 1) % count] += TELEGRAM_MEAN["right"] * wires
    return points
