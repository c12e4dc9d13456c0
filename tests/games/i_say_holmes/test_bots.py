"""The computer players of I Say, Holmes!: each strength moves legally, the normal one no
longer makes the blunders issue 40 found, and a stronger level beats a weaker one."""

from __future__ import annotations

import random
from functools import partial

import pytest

from games.base import BOT_LEVELS
from games.i_say_holmes import GAME, rules
from games.i_say_holmes.rules.bot import bot_action
from games.i_say_holmes.rules.easy import easy_action
from games.i_say_holmes.rules.expert import expert_action
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


def _easy_moves(state: dict, seat: int) -> list[dict]:
    """What the easy player does here, over several seeds (its targets are random)."""
    legal = rules.legal_actions(state, seat)
    moves = [easy_action(rules.view(state, seat), seat, legal, seed) for seed in range(8)]
    assert all(move in legal for move in moves)
    return moves


def test_easy_plays_its_first_following_card_not_its_best():
    # The Clue, the Arrest and Sherlock Holmes would all do more than a Hansom Cab.
    hand = ["moriarty", "hansom-1", "clue-1", "arrest-1", "sherlock"]
    state = table([hand, ["london-2"], ["dartmoor-1"]], current="detective-1")

    assert {move["card"] for move in _easy_moves(state, 0)} == {"hansom-1"}


def test_easy_never_counters_even_to_save_its_villain():
    state = table(
        [["arrest-1", "london-3"], ["moriarty", "alibi-1", "london-2"], ["dartmoor-1"]],
        current="detective-1",
    )
    state, _ = rules.apply(state, 0, {"type": "play", "card": "arrest-1", "target": 1})

    assert {"type": "counter", "card": "alibi-1"} in rules.legal_actions(state, 1)
    assert _easy_moves(state, 1) == [{"type": "allow"}] * 8
    assert bot_action(rules.view(state, 1), 1, rules.legal_actions(state, 1))["type"] == "counter"


def test_easy_never_plays_the_second_card_of_a_deduction():
    hand = ["hansom-1", "westend-1", "bakerst-1", "london-3", "clue-1", "clue-2", "dartmoor-1"]
    state = table([hand, ["london-2"], ["dartmoor-2"]], current="detective-1")
    state, _ = rules.apply(state, 0, {"type": "play", "card": "hansom-1"})

    assert any(action["type"] == "play" for action in rules.legal_actions(state, 0))
    assert _easy_moves(state, 0) == [{"type": "end_turn"}] * 8


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


def _wins_of_one_seat(
    level: str, others: str, players: int, seeds: range, tested_bot=None, max_cases: int = 6
) -> float:
    """Games won by one ``level`` seat (rotated round the table) among ``others`` seats;
    ``tested_bot``, when given, plays that seat instead of the level's own bot."""
    won = 0.0
    tested_bot = tested_bot or GAME.bots[level]
    for seed in seeds:
        tested = seed % players
        options = {"options": {"max_cases": max_cases}}
        state = rules.setup(options, [f"p{n}" for n in range(players)], seed)
        while not rules.is_over(state):
            seat = rules.waiting_for(state)[0]
            bot = tested_bot if seat == tested else GAME.bots[others]
            legal = rules.legal_actions(state, seat)
            state, _ = rules.apply(state, seat, bot(rules.view(state, seat), seat, legal, seed))
        winners = rules.outcome(state)["winners"]
        won += winners.count(tested) / len(winners)
    return won


def test_normal_beats_easy_seats_more_often_than_its_fair_share():
    games = 40
    assert _wins_of_one_seat("normal", "easy", 4, range(games)) > games / 4


def test_expert_beats_normal_seats_more_often_than_its_fair_share():
    # The look-ahead costs tens of milliseconds a turn, so the test gives it two sampled
    # worlds a decision (it plays with eight) and games of one case: 100 of them cost a
    # few seconds. Its fair share is 25; it wins 33 of them (its rules alone win 30).
    games = 100
    expert = partial(expert_action, worlds=2)
    wins = _wins_of_one_seat("expert", "normal", 4, range(games), expert, max_cases=1)
    assert wins > games / 4
