"""The computer player: a listed action, chosen from the view alone, the greedy way."""

import random

from games.sherlock_mycroft import rules
from games.sherlock_mycroft.rules.bot import bot_action

from .helpers import ALICE, BOB, at_day, move, place, play, stacked

LINE = ["button-1", "fingerprint-1", "map-1", "wild-1"]


def bot_choice(state: dict, seat: int) -> dict:
    return bot_action(rules.view(state, seat), seat, rules.legal_actions(state, seat), 0)


def test_it_takes_the_two_richest_clues_with_lestrade_on_day_one():
    action = bot_choice(stacked(top=LINE), ALICE)

    assert action == move("lestrade", {"take": ["button-1", "fingerprint-1"]})


def test_it_pays_von_kramm_until_the_last_day():
    state = at_day(
        stacked(day_one=("von_kramm", "toby"), top=LINE),
        2,
        alice=("watson", "mrs_hudson", "lestrade"),
        bob=("watson", "mrs_hudson", "lestrade"),
    )
    state, _ = play(state, ALICE, move("von_kramm", {"take": ["map-1"]}, "watson"))
    assert bot_choice(state, BOB) == {"type": "von_kramm_reply", "pay": True}

    state["day"] = 7
    assert bot_choice(state, BOB) == {"type": "von_kramm_reply", "pay": False}


def test_it_keeps_the_card_pike_shows_that_helps_most():
    state = place(stacked(top=[*LINE, "false_pass-1", "fingerprint-2"]), ["map-2"], "visible", 0)
    state, _ = play(state, ALICE, move("langdale_pike", {"look": 2}))

    assert bot_choice(state, ALICE) == {"type": "keep", "card": "fingerprint-2"}


def test_it_chooses_the_same_action_from_the_same_view():
    state = stacked()
    view, legal = rules.view(state, ALICE), rules.legal_actions(state, ALICE)

    assert bot_action(view, ALICE, legal, 1) == bot_action(view, ALICE, legal, 2)


def test_it_always_chooses_a_listed_action_and_beats_a_random_player():
    wins = 0
    for game in range(6):
        bot_seat, chance = game % 2, random.Random(game)
        config = {"variants": {"reserve_card": True, "moriarty": True, "moran": True}}
        state = rules.setup(config if game % 3 == 0 else {}, ["a", "b"], game)
        while not rules.is_over(state):
            seat = rules.turn(state)
            legal = rules.legal_actions(state, seat)
            if seat == bot_seat:
                action = bot_action(rules.view(state, seat), seat, legal, game)
                assert action in legal
            else:
                action = chance.choice(legal)
            state, _ = play(state, seat, action)
        wins += rules.outcome(state)["winners"] == [bot_seat]

    assert wins >= 5
