"""The computer players of I Say, Holmes!: each strength moves legally, the normal one no
longer makes the blunders issue 40 found, and a stronger level beats a weaker one."""

from __future__ import annotations

import random

import pytest

from games.base import BOT_LEVELS
from games.i_say_holmes import GAME, rules
from games.i_say_holmes.rules.bot import bot_action
from tests.games.i_say_holmes.helpers import table


def _seen_by(state: dict, watcher: int, seat: int) -> dict:
    """``watcher`` looked at ``seat``'s whole hand, as a Lestrade would show it."""
    shown = list(state["hands"][seat])
    epoch = state["hand_epoch"]
    state["seen"][watcher].append(
        {"from": seat, "cards": shown, "how": "look", "epoch": epoch[seat]}
    )
    state["seen"][seat].append(
        {"from": watcher, "cards": shown, "how": "shown", "epoch": epoch[watcher]}
    )
    return state


def _normal_move(state: dict, seat: int = 0) -> dict:
    legal = rules.legal_actions(state, seat)
    action = bot_action(rules.view(state, seat), seat, legal, 0)
    assert action in legal
    return action


def test_it_drops_a_villain_with_irene_rather_than_drawing():
    # Nothing follows the Hansom Cab; Irene may be played while the story is moving.
    state = table(
        [["moriarty", "irene", "clue-1"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )
    assert {"type": "draw"} in rules.legal_actions(state, 0)

    assert _normal_move(state) == {"type": "play", "card": "irene", "villain": "moriarty"}


def test_it_keeps_its_villain_to_escape_while_nobody_has_seen_it():
    state = table(
        [["moriarty", "irene", "london-2"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )

    assert _normal_move(state) == {"type": "play", "card": "london-2"}


def test_it_drops_a_villain_once_an_opponent_has_just_seen_it():
    state = table(
        [["moriarty", "irene", "london-2"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )
    state = _seen_by(state, watcher=1, seat=0)

    assert _normal_move(state) == {"type": "play", "card": "irene", "villain": "moriarty"}


def test_it_gives_away_a_villain_an_opponent_has_just_seen():
    hands = [["moriarty", "constabulary-1", "bakerst-1"], ["london-1", "clue-1"], ["dartmoor-1"]]
    unseen = table(hands, current="westend-1")
    seen = _seen_by(table(hands, current="westend-1"), watcher=2, seat=0)

    assert _normal_move(unseen)["give"] == "bakerst-1"
    assert _normal_move(seen)["give"] == "moriarty"


def test_it_forgets_a_look_once_its_hand_has_changed_unseen():
    state = table(
        [["moriarty", "irene", "london-2"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )
    state = _seen_by(state, watcher=1, seat=0)
    # Then a card left its hand in an Alibi's pass: the look is stale to seat 1.
    state["seen"][0].append({"from": 2, "cards": ["clue-2"], "how": "alibi", "epoch": 0})

    assert _normal_move(state) == {"type": "play", "card": "london-2"}


@pytest.mark.parametrize("players", [3, 5, 8])
def test_every_level_moves_legally_from_random_positions(players):
    choices = random.Random(players)
    asked = 0
    for seed in (7, 8):
        state = rules.setup({"options": {"max_cases": 3}}, [f"p{n}" for n in range(players)], seed)
        while not rules.is_over(state):
            seat = choices.choice(rules.waiting_for(state))
            legal = rules.legal_actions(state, seat)
            view = rules.view(state, seat)
            for level in BOT_LEVELS:
                assert GAME.bots[level](view, seat, legal, choices.randrange(2**31)) in legal
                asked += 1
            state, _ = rules.apply(state, seat, choices.choice(legal))
    assert asked > 150


def _wins_of_one_seat(level: str, others: str, players: int, seeds: range) -> float:
    """Games won by one ``level`` seat (rotated round the table) among ``others`` seats."""
    won = 0.0
    for seed in seeds:
        tested = seed % players
        state = rules.setup({"options": {"max_cases": 6}}, [f"p{n}" for n in range(players)], seed)
        while not rules.is_over(state):
            seat = rules.waiting_for(state)[0]
            bot = GAME.bots[level if seat == tested else others]
            legal = rules.legal_actions(state, seat)
            state, _ = rules.apply(state, seat, bot(rules.view(state, seat), seat, legal, seed))
        winners = rules.outcome(state)["winners"]
        won += winners.count(tested) / len(winners)
    return won


def test_normal_beats_easy_seats_more_often_than_its_fair_share():
    games = 40
    assert _wins_of_one_seat("normal", "easy", 4, range(games)) > games / 4


def test_expert_beats_normal_seats_more_often_than_its_fair_share():
    games = 40
    assert _wins_of_one_seat("expert", "normal", 4, range(games)) > games / 4
