"""The expert: the normal bot's moves, weighed by search from the seat's view alone.

Where the choice matters (which card to play, if any; and in the Deduction phase,
whether to draw, look at the discard pile, or risk a guess on a spot with few
candidates) it samples worlds the view could stand for (``bot_worlds``), plays each
candidate move in every world and then every seat on with the fast policy until its own
next turn (at five or six players, to the end of its turn: ``RIVALS_UP_TO``), and keeps
the move with the best average position (at five or six players, the normal bot's move
unless another is clearly ahead: ``USUAL_EDGE``). Every candidate meets the same worlds, played
with the same draws, so their differences are the moves' and not luck's. A fixed number
of worlds, drawn from ``seed``, makes each decision repeatable.

Everything else (sure guesses, solving, discards, Locale's keep) is the normal bot's.
"""

from __future__ import annotations

from games.base import Refusal
from games.holmes_elementary.rules.actions import apply
from games.holmes_elementary.rules.bot import bot_action, candidates, decide, score, without
from games.holmes_elementary.rules.bot_rollout import rollout, value
from games.holmes_elementary.rules.bot_worlds import discard_look_allowed, sample_world
from games.holmes_elementary.rules.cards import SUITS, TARGETED_SUITS, suit_of
from games.rng import seeded

# The moves a rollout costs grow with the table; fewer worlds keep a decision's time flat.
# At five and six players a rollout stops with the seat's own turn (below), so it is
# cheap and more of them fit: their noise is what limits the search there.
ROLLOUTS_PER_DECISION = {2: 64, 3: 48, 4: 40, 5: 200, 6: 200}
# Up to four players a rollout runs on through the rivals' turns to the seat's next one.
# At five and six that costs five turns a rollout, too few rollouts fit, and their noise
# drowns the moves' differences: there a rollout ends with the seat's own turn.
RIVALS_UP_TO = 4
MIN_WORLDS = 2
RISKY_CANDIDATES = 3  # a spot with at most this many candidate ranks is worth a risky guess
# Where a rollout ends with the seat's own turn (five and six players), its value is
# short-sighted and noisy: a searched move replaces the normal bot's only when it is
# ahead by this much a world, in case tokens.
USUAL_EDGE = 0.1


def expert_action(view: dict, seat: int, legal: list[dict], seed: int) -> dict:
    choices = candidate_moves(view, seat, legal)
    if len(choices) < 2:
        return bot_action(view, seat, legal, seed)
    best = search(view, seat, legal, choices, seed)
    return best if best in legal else bot_action(view, seat, legal, seed)


def candidate_moves(view: dict, seat: int, legal: list[dict]) -> list[dict]:
    """The moves worth a search, the normal bot's first; one move alone needs none."""
    usual = decide(view, seat, legal)
    pending = view["pending"]
    if pending is not None or usual["type"] in ("solve", "guess"):
        return [usual]
    if view["phase"] == "action":
        if any(action["type"] == "solve" for action in legal):
            return [usual]
        moves = [usual, {"type": "pass"}, *_plays(view, seat)]
    else:
        moves = [usual, {"type": "draw_discard"}, {"type": "view_discard"}]
        moves += _risky_guesses(view, seat)
    unique = []
    for move in moves:
        if move in legal and move not in unique:
            unique.append(move)
    return unique


def _plays(view: dict, seat: int) -> list[dict]:
    """One play per suit in hand: the card of that suit the hand misses least."""
    hand = [card["id"] for card in view["you"]["hand"]]
    target = _leader(view, seat)
    plays = []
    for suit in SUITS:
        cards = [card for card in hand if suit_of(card) == suit]
        if not cards:
            continue
        card = _least_missed(hand, cards)
        play = {"type": "play", "card": card}
        if suit in TARGETED_SUITS:
            play["target"] = target
        plays.append(play)
    return plays


def _least_missed(hand: list[str], cards: list[str]) -> str:
    """Of ``cards``, the one whose loss leaves ``hand`` scoring best (the latest of equals)."""
    best = cards[0]
    for card in cards[1:]:
        if score(without(hand, [card])) >= score(without(hand, [best])):
            best = card
    return best


def _leader(view: dict, seat: int) -> int:
    players = view["players"]
    count = len(players)
    order = [players[(seat + step) % count] for step in range(1, count)]
    return max(order, key=lambda player: (player["tokens"], player["hand_count"]))["seat"]


def _risky_guesses(view: dict, seat: int) -> list[dict]:
    guesses = []
    for spot in view["spots"]:
        if not spot["open"] or seat in spot["barred"]:
            continue
        ranks = candidates(view, spot["suit"])
        if 1 < len(ranks) <= RISKY_CANDIDATES:
            guesses.append({"type": "guess", "suit": spot["suit"], "rank": ranks[0]})
    return guesses


def search(view: dict, seat: int, legal: list[dict], moves: list[dict], seed: int) -> dict:
    """The move with the best average position, by successive halving: every move meets
    the same few worlds, the better half meets more, and so on until one is left."""
    budget = ROLLOUTS_PER_DECISION.get(len(view["players"]), min(ROLLOUTS_PER_DECISION.values()))
    rounds = max(1, (len(moves) - 1).bit_length())
    looks = discard_look_allowed(view, legal)
    rivals_too = len(view["players"]) <= RIVALS_UP_TO
    edge = 0.0 if rivals_too else USUAL_EDGE
    rng = seeded(seed)
    alive = list(range(len(moves)))
    totals = [0.0] * len(moves)
    while True:
        for _ in range(max(MIN_WORLDS, budget // rounds // len(alive))):
            world, rng = sample_world(view, seat, rng, looks)
            for index in alive:
                totals[index] += _played_out(world, seat, moves[index], rivals_too)
            if 0 in alive:  # the normal bot's move, ``candidate_moves`` puts it first
                totals[0] += edge
        alive.sort(key=lambda index: (-totals[index], index))
        if len(alive) <= 2:
            return moves[alive[0]]
        alive = alive[: (len(alive) + 1) // 2]


def _played_out(world: dict, seat: int, move: dict, rivals_too: bool) -> float:
    result = apply(world, seat, move)
    if isinstance(result, Refusal):  # a world the move does not fit: never the best
        return -100.0
    return value(rollout(result[0], seat, rivals_too), seat)
