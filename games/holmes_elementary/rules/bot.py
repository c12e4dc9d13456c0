"""A computer player that decides from its seat's view alone, deterministically.

It plays toward cases and guesses a spot only when its notes leave a single rank:

- Notes: ``you.seen`` (every card it has held or been shown) and the table's wrong
  guesses. A spot's candidates are the ranks of its suit that nobody named wrongly and
  that the bot has not seen; the hidden card is always among them, so a guess on a
  single candidate is always right.
- A hand's score is (how many suits can take distinct ranks at once, distinct suits,
  distinct ranks): the first number is seven when the hand holds a case.
- Action phase: with a case in hand it passes on to solve it. Otherwise it plays a card
  it can spare (one whose loss keeps the first number), trying suits in the order
  Locale, Mystery, Clue, Help, Action, Method, Sherlock; the opponent is the leader
  (most tokens, then most cards), or for Method the one with most cards.
- Sleuth: the first case in suit order, lowest ranks first.
- Deduction: a sure guess; else a look at the discard pile when six or more cards were
  added since its last look (and the table's house rules allow looks); else draw one and
  discard one.
- Choices: it discards its worst cards one at a time (those whose loss hurts the score
  least, the latest of equals) and keeps the Locale card that scores best.

``seed`` is unused: the bot needs no chance.
"""

from __future__ import annotations

from functools import lru_cache

from games.holmes_elementary.rules.cards import RANKS, canonical, card_id, rank_of, suit_of

ACTION_PREFERENCE = ("L", "X", "C", "H", "A", "M", "S")
TARGETED_AT_LEADER = frozenset("CHA")
FRESH_DISCARDS = 6  # new cards in the pile that make another look worth a turn

Score = tuple[int, int, int]


def bot_action(view: dict, seat: int, legal_actions: list[dict], seed: int) -> dict:
    action = decide(view, seat, legal_actions)
    if action in legal_actions:
        return action
    # A safety net only: `decide` picks from what is listed (a test plays every house rule).
    return {"type": "pass"} if {"type": "pass"} in legal_actions else legal_actions[0]


def decide(view: dict, seat: int, legal: list[dict]) -> dict:
    """The move the bot wants, before `bot_action` checks that it is listed."""
    hand = [card["id"] for card in view["you"]["hand"]]
    pending = view["pending"]
    if pending is not None and pending["player"] == seat:
        if pending["kind"] == "locale":
            options = [card["id"] for card in view["you"]["options"]]
            return {"type": "keep", "card": best_option(hand, options)}
        return {"type": "discard", "cards": worst_cards(hand, pending["count"])}
    solves = [action for action in legal if action["type"] == "solve"]
    if view["phase"] == "action":
        return {"type": "pass"} if solves else _action_phase(view, seat, hand)
    if view["phase"] == "sleuth" and solves:
        return solves[0]
    return _deduction(view, seat, legal)


# --- scoring hands --------------------------------------------------------------------------


def suits_matched(hand) -> int:
    """The most suits that can each take one card, no two cards of the same rank
    (a bipartite matching of suits to ranks)."""
    return _suits_matched(tuple(hand))


@lru_cache(maxsize=1 << 16)
def _suits_matched(hand: tuple[str, ...]) -> int:
    # Cached: the expert's rollouts score the same few hands again and again.
    masks: dict[str, int] = {}
    for card in hand:
        masks[card[0]] = masks.get(card[0], 0) | 1 << rank_of(card)
    every_rank = 0
    for mask in masks.values():
        every_rank |= mask
    bound = min(len(masks), every_rank.bit_count())
    # Most hands reach the bound greedily (the scarcest suits choose first) ...
    used = 0
    for mask in sorted(masks.values(), key=int.bit_count):
        free = mask & ~used
        used |= free & -free
    if used.bit_count() == bound:
        return bound
    return _matched_by_augmenting(list(masks.values()))  # ... the rest need the search


def _matched_by_augmenting(masks: list[int]) -> int:
    """A maximum matching of suits (each a bit mask of its ranks) to ranks, by augmenting
    paths (Kuhn's algorithm)."""
    owner: dict[int, int] = {}  # a rank's bit -> the suit (index) that has it

    def place(suit: int, tried: list[int]) -> bool:
        free = masks[suit] & ~tried[0]
        while free:
            bit = free & -free
            free ^= bit
            tried[0] |= bit
            if bit not in owner or place(owner[bit], tried):
                owner[bit] = suit
                return True
        return False

    return sum(place(suit, [0]) for suit in range(len(masks)))


def score(hand) -> Score:
    return _score(tuple(hand))


@lru_cache(maxsize=1 << 16)
def _score(hand: tuple[str, ...]) -> Score:
    return (
        _suits_matched(hand),
        len({suit_of(card) for card in hand}),
        len({rank_of(card) for card in hand}),
    )


def without(hand: list[str], cards) -> list[str]:
    gone = set(cards)
    return [card for card in hand if card not in gone]


def worst_card(hand: list[str]) -> str:
    """The card whose loss leaves the best score; the latest in canonical order of equals."""
    best = None
    for card in canonical(hand):
        left = score(without(hand, [card]))
        if best is None or left >= best[0]:
            best = (left, card)
    return best[1]


def worst_cards(hand: list[str], count: int) -> list[str]:
    chosen = []
    for _ in range(count):
        card = worst_card(hand)
        chosen.append(card)
        hand = without(hand, [card])
    return canonical(chosen)


def spare_cards(hand: list[str]) -> list[str]:
    """Cards whose loss keeps as many suits matched."""
    matched = suits_matched(hand)
    return [card for card in canonical(hand) if suits_matched(without(hand, [card])) == matched]


def best_option(hand: list[str], options: list[str]) -> str:
    """The Locale card that scores best beside the rest of the hand; the earliest of equals."""
    best = None
    for option in canonical(options):
        kept = score(without(hand, [other for other in options if other != option]))
        if best is None or kept > best[0]:
            best = (kept, option)
    return best[1]


# --- the phases -----------------------------------------------------------------------------


def _action_phase(view: dict, seat: int, hand: list[str]) -> dict:
    spare = spare_cards(hand)
    for suit in ACTION_PREFERENCE:
        cards = [card for card in spare if suit_of(card) == suit]
        if not cards:
            continue
        action = {"type": "play", "card": cards[-1]}
        if suit in TARGETED_AT_LEADER:
            action["target"] = _leader(view, seat)
        elif suit == "M":
            action["target"] = _fullest_hand(view, seat)
        return action
    return {"type": "pass"}


def _opponents_nearest_first(view: dict, seat: int) -> list[dict]:
    players = view["players"]
    count = len(players)
    return [players[(seat + step) % count] for step in range(1, count)]


def _leader(view: dict, seat: int) -> int:
    """The opponent with most tokens, then most cards, then the nearest after the bot."""
    opponents = _opponents_nearest_first(view, seat)
    return _first_best(opponents, lambda player: (player["tokens"], player["hand_count"]))


def _fullest_hand(view: dict, seat: int) -> int:
    return _first_best(_opponents_nearest_first(view, seat), lambda p: (p["hand_count"],))


def _first_best(players: list[dict], key) -> int:
    """The seat of the first player (in the given order) with the highest key."""
    best = players[0]
    for player in players[1:]:
        if key(player) > key(best):
            best = player
    return best["seat"]


def candidates(view: dict, suit: str) -> list[int]:
    """The ranks the hidden card of ``suit`` may still have, as far as the bot knows."""
    seen = set(view["you"]["seen"])
    named_wrong = {(wrong["suit"], wrong["rank"]) for wrong in view["wrong_guesses"]}
    return [
        rank
        for rank in RANKS
        if card_id(suit, rank) not in seen and (suit, rank) not in named_wrong
    ]


def _deduction(view: dict, seat: int, legal: list[dict]) -> dict:
    for spot in view["spots"]:
        if not spot["open"] or seat in spot["barred"]:
            continue
        ranks = candidates(view, spot["suit"])
        if len(ranks) == 1:
            return {"type": "guess", "suit": spot["suit"], "rank": ranks[0]}
    look = {"type": "view_discard"}  # not listed where a house rule forbids looks
    if look in legal and view["discard_count"] >= view["you"]["discard_looked"] + FRESH_DISCARDS:
        return look
    if {"type": "draw_discard"} in legal:
        return {"type": "draw_discard"}
    return {"type": "pass"}
