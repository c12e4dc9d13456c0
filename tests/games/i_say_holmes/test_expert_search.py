"""The expert's look-ahead guesses the hidden cards from its seat's view alone: a world it
samples looks to it exactly like the real table, and the hidden cards of the real state
(other hands, the draw pile, token values) never change what it does."""

from __future__ import annotations

import random

from games.i_say_holmes import rules
from games.i_say_holmes.rules import cards, search
from games.i_say_holmes.rules.bot import bot_action
from games.i_say_holmes.rules.expert import expert_action
from tests.games.i_say_holmes.helpers import new_game


def _turns_of(seat: int, players: int, seed: int, every: int = 3):
    """States of a game of normal players where ``seat`` is to play a card or draw, one in
    ``every`` such turns."""
    state = new_game(players, seed)
    met = 0
    while not rules.is_over(state):
        mover = rules.waiting_for(state)[0]
        legal = rules.legal_actions(state, mover)
        if mover == seat and state["pending"] is None and len(legal) > 1:
            met += 1
            if met % every == 0:
                yield state
        state, _ = rules.apply(state, mover, bot_action(rules.view(state, mover), mover, legal))


def _hidden_shuffled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same table as ``seat`` sees it, with what it cannot see dealt differently: the
    opponents' cards that its notes do not name and the draw pile change places, and the
    tokens' ids (so their values) are dealt anew by the public counts."""
    noted = {card for entry in state["seen"][seat] for card in entry["cards"]}
    other = [s for s in range(len(state["hands"])) if s != seat]
    places = [
        (s, n) for s in other for n, card in enumerate(state["hands"][s]) if card not in noted
    ]
    hidden = [state["hands"][s][n] for s, n in places] + list(state["draw"])
    rng.shuffle(hidden)
    hands = [list(held) for held in state["hands"]]
    for (s, n), card in zip(places, hidden, strict=False):
        hands[s][n] = card
    telegrams = [t for held in state["holdings"] for t in held["telegrams"]]
    telegrams += state["pool"]["telegrams"]
    rng.shuffle(telegrams)
    holdings = [dict(held) for held in state["holdings"]]
    for held in holdings:
        held["telegrams"] = [telegrams.pop() for _ in held["telegrams"]]
    pool = {**state["pool"], "telegrams": telegrams}
    return {
        **state,
        "hands": hands,
        "draw": hidden[len(places) :],
        "holdings": holdings,
        "pool": pool,
    }


def test_a_sampled_world_looks_to_the_seat_exactly_like_the_table():
    rng = random.Random(5)
    checked = 0
    for players, seed in ((3, 1), (5, 2), (8, 3)):
        for state in _turns_of(1, players, seed):
            view = rules.view(state, 1)
            world = search.sample_world(view, rng)
            assert rules.view(world, 1) == view
            everything = [card for held in world["hands"] for card in held] + world["draw"]
            everything += world["discard"] + world["set_aside"] + [world["current"]["card"]]
            assert sorted(everything) == sorted(cards.LEDGER_ORDER)
            checked += 1
    assert checked > 10


def test_the_expert_does_the_same_whatever_the_hidden_cards_are():
    rng = random.Random(7)
    compared = moved_villain = 0
    for players, seed in ((3, 4), (4, 5), (6, 6)):
        for state in _turns_of(0, players, seed, every=4):
            other = _hidden_shuffled(state, 0, rng)
            assert rules.view(other, 0) == rules.view(state, 0)
            if other["hands"] != state["hands"]:
                moved_villain += _villain_places(other) != _villain_places(state)
            legal = rules.legal_actions(state, 0)
            assert rules.legal_actions(other, 0) == legal
            seed_for_bot = rng.randrange(2**31)
            assert expert_action(rules.view(state, 0), 0, legal, seed_for_bot) == expert_action(
                rules.view(other, 0), 0, legal, seed_for_bot
            )
            compared += 1
    assert compared > 10 and moved_villain > 3


def _villain_places(state: dict) -> list:
    return [sorted(cards.VILLAIN_CARDS.intersection(held)) for held in state["hands"]]
