"""The three computer players: guessed deals that agree with the seat's view, legal
choices everywhere, and each level beating the one below it over a small seeded sample."""

import json
import random

import pytest

from games.sherlock_mycroft import GAME, rules
from games.sherlock_mycroft.rules.cards import CLUE_IDS, WILD, kind_of
from games.sherlock_mycroft.rules.expert_bot import deal

from .helpers import play

ALL_VARIANTS = {"reserve_card": True, "moriarty": True, "moran": True}


def positions(games: int, variants=None):
    """Every decision of seeded random games: (state, seat, legal)."""
    for number in range(games):
        chance = random.Random(number)
        config = {"variants": variants or {}, "first": number % 2}
        state = rules.setup(config, ["alice", "bob"], 100 + number)
        while not rules.is_over(state):
            seat = rules.turn(state)
            legal = rules.legal_actions(state, seat)
            yield state, seat, legal
            state, _ = play(state, seat, chance.choice(legal))


def test_a_guessed_deal_shows_the_seat_exactly_its_view_and_holds_every_clue_once():
    dealt = 0
    for state, seat, _ in positions(6, ALL_VARIANTS):
        if state["step"] != "move":
            continue
        view = rules.view(state, seat)
        guess = deal(view, seat, random.Random(dealt))
        dealt += 1

        assert rules.view(guess, seat) == view
        rival = guess["hidden"][1 - seat]
        assert not [card for card in rival if kind_of(card) == WILD]
        everywhere = guess["line"] + guess["deck"] + guess["discard"]
        for s in (0, 1):
            everywhere += guess["visible"][s] + guess["hidden"][s]
            everywhere += [guess["reserved"][s]] if guess["reserved"][s] else []
        assert sorted(everywhere) == sorted(CLUE_IDS)
    assert dealt > 100


@pytest.mark.parametrize("level", ["easy", "normal", "expert"])
def test_every_level_chooses_a_listed_action_from_random_positions(level):
    bot = GAME.bots[level]
    asked = set()
    for index, (state, seat, legal) in enumerate(positions(4, ALL_VARIANTS)):
        if index % 5 and state["step"] == "move":
            continue  # every other choice, and one move in five: the expert takes time
        view = rules.view(state, seat)
        shown = json.dumps(view, sort_keys=True)
        action = bot(view, seat, legal, index)

        assert action in legal
        assert json.dumps(view, sort_keys=True) == shown
        asked.add(state["step"])
    assert {"move", "moriarty", "moran", "reserve"} <= asked


def play_match(strong: str, weak: str, games: int) -> tuple[int, int]:
    """Seeded games with seats rotated: the stronger level's wins, and the weaker's."""
    wins = [0, 0]
    for number in range(games):
        strong_seat = number % 2
        levels = {strong_seat: GAME.bots[strong], 1 - strong_seat: GAME.bots[weak]}
        chance = random.Random(number)
        state = rules.setup(GAME.example_config(2), ["alice", "bob"], 7_000 + number)
        while not rules.is_over(state):
            seat = rules.turn(state)
            legal = rules.legal_actions(state, seat)
            action = levels[seat](rules.view(state, seat), seat, legal, chance.randrange(2**31))
            state, _ = play(state, seat, action)
        winners = rules.outcome(state)["winners"]
        if winners:
            wins[0 if winners == [strong_seat] else 1] += 1
    return wins[0], wins[1]


def test_normal_beats_easy_more_often_than_not():
    normal, easy = play_match("normal", "easy", 30)

    assert normal > easy


def test_expert_beats_normal_more_often_than_not():
    expert, normal = play_match("expert", "normal", 12)

    assert expert > normal
