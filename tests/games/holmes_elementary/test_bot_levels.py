"""The three computer players: listed moves under every house rule, worlds sampled only
from what a seat may see, and each level stronger than the one below it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.holmes_elementary import GAME, rules
from games.holmes_elementary.rules import bot, bot_expert
from games.holmes_elementary.rules.bot_worlds import sample_world
from games.holmes_elementary.rules.cards import ALL_CARDS
from games.rng import seeded

HOUSE_RULES = {
    "usual rules": {},
    "no looks at the discard": {"discard_look": False},
    "short game, random first": {"max_rounds": 3, "first_player": "random"},
}


def positions(players: int, seed: int, options: dict, count: int):
    """``count`` positions of a seeded game played at random: (state, the seat to move)."""
    config = GAME.example_config(players)
    config["options"].update(options)
    state = rules.setup(config, [f"p{n}" for n in range(players)], seed)
    chooser = random.Random(seed)
    found = []
    while not rules.is_over(state) and len(found) < count:
        seat = rules.waiting_for(state)[0]
        legal = rules.legal_actions(state, seat)
        if chooser.random() < 0.3:
            found.append((state, seat))
        state, _ = rules.apply(state, seat, chooser.choice(legal))
    return found


@pytest.mark.parametrize("options", HOUSE_RULES.values(), ids=HOUSE_RULES.keys())
@pytest.mark.parametrize("level", ["easy", "normal", "expert"])
def test_it_plays_a_listed_move_at_every_level_under_every_house_rule(level, options):
    bot = GAME.bots[level]
    checked = 0
    for players, seed in ((2, 11), (3, 12), (4, 13), (6, 14)):
        for state, seat in positions(players, seed, options, 6):
            legal = rules.legal_actions(state, seat)
            action = bot(rules.view(state, seat), seat, legal, seed)
            assert action in legal, (level, options, state["phase"], action)
            checked += 1

    assert checked >= 12


@pytest.mark.parametrize("options", HOUSE_RULES.values(), ids=HOUSE_RULES.keys())
def test_it_looks_at_the_discard_only_where_the_table_allows(options):
    looks = Counter()
    for seed in (21, 22):
        config = GAME.example_config(3)
        config["options"].update(options)
        state = rules.setup(config, ["alice", "bob", "charlie"], seed)
        levels = ["expert", "normal", "easy"]
        while not rules.is_over(state):
            seat = rules.waiting_for(state)[0]
            legal = rules.legal_actions(state, seat)
            action = GAME.bots[levels[seat]](rules.view(state, seat), seat, legal, seed)
            looks[action["type"] == "view_discard"] += 1
            state, _ = rules.apply(state, seat, action)

    allowed = options.get("discard_look", True)
    assert looks[True] > 0 if allowed else looks[True] == 0
    assert looks[False] > 50


def test_it_samples_worlds_that_show_the_seat_exactly_its_own_view():
    """A sampled world holds each card once, and the seat sees in it what it sees at the
    table: the hidden cards are filled in, nothing the seat knows is changed."""
    rng = seeded(5)
    checked = 0
    for players, seed in ((2, 31), (4, 32), (6, 33)):
        for state, seat in positions(players, seed, {}, 8):
            view = rules.view(state, seat)
            world, rng = sample_world(view, seat, rng, discard_look=True)
            spots = [
                world["spots"][suit] for suit in world["spots"] if suit not in world["emptied_by"]
            ]
            cards = [*spots, *world["deck"], *world["discard"]]
            cards += [card for player in world["players"] for card in player["hand"]]

            assert sorted(cards) == sorted(ALL_CARDS)
            assert rules.view(world, seat) == view
            checked += 1

    assert checked >= 12


def test_it_never_lets_the_sampled_worlds_see_other_hands_or_the_spots():
    """Two tables that differ only in what the seat cannot see get the same worlds."""
    state, seat = positions(3, 41, {}, 3)[-1]
    other = _hidden_cards_swapped(state, seat)
    assert other["players"][(seat + 1) % 3]["hand"] != state["players"][(seat + 1) % 3]["hand"]
    assert rules.view(other, seat) == rules.view(state, seat)

    first, _ = sample_world(rules.view(state, seat), seat, seeded(9), discard_look=True)
    second, _ = sample_world(rules.view(other, seat), seat, seeded(9), discard_look=True)

    assert first == second


def _hidden_cards_swapped(state: dict, seat: int) -> dict:
    """The state with the next seat's hand exchanged for deck cards ``seat`` never saw."""
    other = dict(state)
    other["players"] = [dict(player) for player in state["players"]]
    nxt = (seat + 1) % len(state["players"])
    held = other["players"][nxt]["hand"]
    deck = list(state["deck"])
    unseen = [card for card in deck if card not in state["players"][seat]["seen"]]
    swap = unseen[: len(held)]
    other["players"][nxt]["hand"] = sorted(swap, key=ALL_CARDS.index)
    other["deck"] = [card for card in deck if card not in swap] + list(held)
    return other


def match(players: int, test: str, others: str, seeds) -> float:
    """The wins of one ``test`` seat (rotating) against ``others`` seats, shared wins split."""
    wins = 0.0
    for seed in seeds:
        under_test = seed % players
        levels = [test if seat == under_test else others for seat in range(players)]
        state = rules.setup(GAME.example_config(players), [f"p{n}" for n in range(players)], seed)
        while not rules.is_over(state):
            seat = rules.waiting_for(state)[0]
            legal = rules.legal_actions(state, seat)
            action = GAME.bots[levels[seat]](rules.view(state, seat), seat, legal, seed)
            state, _ = rules.apply(state, seat, action)
        winners = rules.outcome(state)["winners"]
        wins += (under_test in winners) / len(winners)
    return wins


def test_it_makes_the_expert_beat_the_normal_bot_more_often_than_its_share():
    games = 12
    assert match(2, "expert", "normal", range(100, 100 + games)) > games / 2


def test_it_makes_the_normal_bot_beat_the_easy_one_more_often_than_its_share():
    games = 24
    assert match(3, "normal", "easy", range(200, 200 + games)) > games / 3


def test_at_six_players_the_expert_leaves_the_normal_move_only_for_a_clear_gain(monkeypatch):
    def departures() -> list[tuple[dict, dict]]:
        """(expert's move, normal's move) where they differ, over a normal game's turns."""
        found = []
        for state, seat in positions(6, 5, {}, 40):
            legal = rules.legal_actions(state, seat)
            view = rules.view(state, seat)
            usual = bot.bot_action(view, seat, legal, 0)
            chosen = bot_expert.expert_action(view, seat, legal, 0)
            if chosen != usual:
                found.append((chosen, usual))
        return found

    monkeypatch.setattr(bot_expert, "USUAL_EDGE", 0.0)
    assert departures(), "the search alone leaves the normal move somewhere"
    monkeypatch.setattr(bot_expert, "USUAL_EDGE", 100.0)  # more than any position is worth
    assert departures() == []
