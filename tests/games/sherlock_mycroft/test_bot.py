"""The normal computer player: a listed action, chosen from the view alone, the greedy
way; the game's last move chosen by the final count."""

import random

from games.sherlock_mycroft import rules
from games.sherlock_mycroft.rules.bot import bot_action
from games.sherlock_mycroft.rules.cards import CLUE_IDS
from games.sherlock_mycroft.rules.endgame import final_margin, is_last_move
from games.sherlock_mycroft.rules.scoring import assignment_options, best_assignment, margin

from .helpers import ALICE, BOB, at_day, move, place, play, set_tokens, stacked

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


def last_move_position() -> dict:
    """Day 7, Alice's last marker, Bob done. Each holds one fingerprint, footprint and
    button; the line offers one more of each. Alice can afford only Watson (1 marker)."""
    line = ["fingerprint-1", "footprint-1", "button-1", "bullet-1"]
    state = stacked(day_one=("shinwell_johnson", "toby"), top=line, first=BOB)
    state = at_day(
        state, 7, alice=("toby", "mrs_hudson", "lestrade"), bob=("watson", "mrs_hudson", "toby")
    )
    state["markers"][ALICE] = [{**m, "standing": m["on"] == "toby"} for m in state["markers"][0]]
    state["markers"][BOB] = [{**m, "standing": False} for m in state["markers"][BOB]]
    state["moves_left"] = [1, 0]
    state["turn"] = ALICE
    place(state, ["fingerprint-2", "footprint-2", "button-2"], "visible", ALICE)
    place(state, ["fingerprint-3", "footprint-3", "button-3"], "visible", BOB)
    return set_tokens(state, 1, 5)


def test_it_takes_a_winning_clue_on_the_last_move_rather_than_deny_what_bob_cannot_take():
    state = last_move_position()
    view, legal = rules.view(state, ALICE), rules.legal_actions(state, ALICE)
    denial = move("shinwell_johnson", {"discard": ["button-1", "footprint-1", "fingerprint-1"]})
    assert is_last_move(view, ALICE)
    assert {**denial, "from": "toby"} in legal  # the rule of thumb used to deny so

    action = bot_action(view, ALICE, legal, 0)
    state, _ = play(state, ALICE, action)

    assert action == move("watson", {"take": ["fingerprint-1"]}, "toby")
    assert rules.outcome(state)["winners"] == [ALICE]


def test_its_final_count_places_wildcards_as_the_rules_best_assignment_does():
    for number in range(300):
        chance = random.Random(number)
        cards = chance.sample(CLUE_IDS, 36)
        alice, bob = cards[: chance.randrange(4, 18)], cards[18 : 18 + chance.randrange(4, 18)]
        reserved = [chance.choice([None, "x"]), chance.choice([None, "y"])]
        first = best_assignment(assignment_options(alice), [alice, bob], [None, None], reserved, 0)
        second = best_assignment(assignment_options(bob), [alice, bob], [first, None], reserved, 1)

        expected = margin([alice, bob], [first, second], reserved, ALICE)
        assert final_margin(alice, bob, tuple(reserved), True) == expected
