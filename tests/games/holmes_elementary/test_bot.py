"""The computer player: listed moves only, from its view alone, sure guesses only, and
better than chance."""

from __future__ import annotations

import random

import pytest

from games.holmes_elementary import GAME, rules
from games.holmes_elementary.rules.bot import (
    bot_action,
    candidates,
    decide,
    suits_matched,
    worst_card,
)
from tests.games.holmes_elementary.helpers import make_state

CASE = ["X01", "S02", "H03", "A05", "M06", "C07", "L10"]


def run(seed: int, players: int, bots: set[int]) -> tuple[dict, list[dict]]:
    """A game where ``bots`` play the bot and the others play at random."""
    chooser = random.Random(seed)
    state = rules.setup(GAME.example_config(players), [f"p{n}" for n in range(players)], seed)
    bot_guesses = []
    while not rules.is_over(state):
        seat = rules.waiting_for(state)[0]
        legal = rules.legal_actions(state, seat)
        if seat in bots:
            action = bot_action(rules.view(state, seat), seat, legal, seed)
            assert action in legal
            assert bot_action(rules.view(state, seat), seat, legal, seed + 1) == action
        else:
            action = chooser.choice(legal)
        state, events = rules.apply(state, seat, action)
        bot_guesses += [e.data for e in events if e.type == "guessed" and seat in bots]
    return state, bot_guesses


def test_it_only_ever_guesses_right_and_finishes_games_of_bots():
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        state, guesses = run(seed, players, set(range(players)))

        assert rules.outcome(state)["reason"] == "five_tokens"
        assert all(guess["correct"] for guess in guesses)


@pytest.mark.parametrize("discard_look", [True, False], ids=["looks allowed", "no looks"])
def test_it_wants_only_listed_moves_under_every_house_rule(discard_look):
    """Not once does the bot fall back on its safety net: with looks at the discard pile
    forbidden it draws and discards instead of asking for a look and passing."""
    wanted, fell_back = 0, []
    for seed, players in ((4, 2), (5, 3), (6, 4), (7, 6)):
        config = GAME.example_config(players)
        config["options"]["discard_look"] = discard_look
        state = rules.setup(config, [f"p{n}" for n in range(players)], seed)
        while not rules.is_over(state):
            seat = rules.waiting_for(state)[0]
            legal, view = rules.legal_actions(state, seat), rules.view(state, seat)
            action = decide(view, seat, legal)
            wanted += 1
            if action not in legal:
                fell_back.append((seed, state["round"], action))
            state, _ = rules.apply(state, seat, bot_action(view, seat, legal, seed))

    assert wanted > 100
    assert fell_back == []


def test_it_beats_two_random_players_most_of_the_time():
    wins = sum(
        seed % 3 in rules.outcome(run(seed, 3, {seed % 3})[0])["winners"] for seed in range(24)
    )

    assert wins >= 0.6 * 24


def test_it_scores_hands_by_the_suits_it_can_give_distinct_ranks():
    assert suits_matched(CASE) == 7
    assert suits_matched(["X01", "S01", "H01"]) == 1
    assert suits_matched(["X01", "X02", "S01"]) == 2
    assert worst_card([*CASE, "X02"]) == "X02"


def test_it_passes_to_solve_and_then_solves():
    state = make_state([[*CASE, "X02"], ["H01"]])
    legal = rules.legal_actions(state, 0)

    assert bot_action(rules.view(state, 0), 0, legal, 0) == {"type": "pass"}
    state, _ = rules.apply(state, 0, {"type": "pass"})
    action = bot_action(rules.view(state, 0), 0, rules.legal_actions(state, 0), 0)
    assert action == {"type": "solve", "cards": CASE}


def test_it_guesses_a_spot_its_notes_narrow_to_one_rank():
    state = make_state([["X01"], ["H01"]], phase="deduction")
    seen = [f"C{rank:02d}" for rank in range(1, 11) if rank not in (6, 9)]
    state["players"][0]["seen"] = "".join(["X01", *seen])
    state["players"][1]["wrong"] = "C09"
    view = rules.view(state, 0)

    assert candidates(view, "C") == [6]
    assert bot_action(view, 0, rules.legal_actions(state, 0), 0) == {
        "type": "guess",
        "suit": "C",
        "rank": 6,
    }


def test_it_keeps_the_locale_card_that_helps_its_case_most():
    state = make_state([["L02", "X01", "S02"], ["H01"]], deck=["C01", "H03", "C02"])
    state, _ = rules.apply(state, 0, {"type": "play", "card": "L02"})

    action = bot_action(rules.view(state, 0), 0, rules.legal_actions(state, 0), 0)

    assert action == {"type": "keep", "card": "H03"}
