"""Set-up, options and the engine's interface."""

import json

import pytest

from games.base import OptionsInvalid
from games.i_say_holmes import GAME, rules
from games.i_say_holmes.rules.state import option
from tests.games.i_say_holmes.helpers import NAMES, act, all_cards, new_game, table


@pytest.mark.parametrize("players", range(3, 9))
def test_it_deals_a_case_and_plays_the_opening_card(players):
    state = new_game(players)

    counts = [len(hand) for hand in state["hands"]]
    opener = state["turn"]["seat"]
    assert sorted(counts) == [5] + [6] * (players - 1)
    assert len(state["draw"]) == 125 - 6 * players
    assert state["current"]["card"] == "afoot"
    assert sorted(all_cards(state)) == sorted(set(all_cards(state)))
    assert len(all_cards(state)) == 125
    assert counts[(opener - 1) % players] == 5
    assert state["turn"]["step"] == "play" and state["location"] == "city"
    assert rules.waiting_for(state) == [state["current"]["holder"]] == [opener]


def test_it_shuffles_the_pools_from_the_seed():
    state = rules.setup({}, NAMES[:4], 12)

    assert state["pool"]["telegrams"] == ["tg1", "tg2", "tg8", "tg5", "tg6", "tg7", "tg3", "tg4"]
    assert sorted(state["pool"]["pipe"]) == [f"pipe-{n}" for n in range(1, 6)]


def test_it_is_deterministic_for_a_seed():
    assert new_game(5, 7) == new_game(5, 7)
    assert new_game(5, 7) != new_game(5, 8)


DEFAULTS = {
    "max_cases": 0,
    "fast_play": False,
    "turn_seconds": 0,
    "window_seconds": 30,
    "choice_seconds": 30,
}


@pytest.mark.parametrize("players", range(3, 9))
def test_it_plays_until_his_last_bow_unless_told_otherwise(players):
    state = rules.setup(GAME.example_config(players), NAMES[:players], 1)

    assert state["max_cases"] == 0
    assert state["options"] == DEFAULTS


def test_it_takes_the_tables_options():
    state = new_game(
        4, max_cases=2, fast_play=True, turn_seconds=90, window_seconds=45, choice_seconds=20
    )

    assert state["max_cases"] == 2
    assert state["options"] == {
        "max_cases": 2,
        "fast_play": True,
        "turn_seconds": 90,
        "window_seconds": 45,
        "choice_seconds": 20,
    }


def test_it_reads_the_old_name_of_the_number_of_cases():
    state = new_game(4, cases=3, window_seconds=20, fast_play=False)

    assert state["max_cases"] == 3
    assert state["options"] == {**DEFAULTS, "max_cases": 3, "window_seconds": 20}


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"colour": 1}, 4),
        ({"max_cases": 21}, 4),
        ({"max_cases": -1}, 4),
        ({"cases": 2, "max_cases": 2}, 4),
        ({"window_seconds": -5}, 4),
        ({"turn_seconds": 1.5}, 4),
        ({"choice_seconds": True}, 4),
        ({"fast_play": "yes"}, 4),
        ({}, 2),
        ({}, 9),
    ],
)
def test_it_refuses_options_or_tables_it_cannot_play(options, players):
    with pytest.raises(ValueError):
        rules.setup({"options": options}, NAMES[:players] + ["x"] * 9, 1)


def test_it_describes_itself_to_the_site():
    assert GAME.name == "i_say_holmes" and GAME.min_players == 3 and GAME.max_players == 8
    assert GAME.clean_options({}) == DEFAULTS
    assert GAME.example_config(4) == {"options": DEFAULTS}
    state = rules.setup(GAME.example_config(3), NAMES[:3], 1)
    assert json.loads(json.dumps(state)) == state
    assert GAME.rules.may_write_notes(state, 0) is True
    assert rules.turn(state) == state["turn"]["seat"]


def test_the_site_takes_old_option_names_and_refuses_them_twice():
    assert GAME.clean_options({"cases": 4, "window_seconds": 20, "fast_play": True}) == {
        **DEFAULTS,
        "max_cases": 4,
        "window_seconds": 20,
        "fast_play": True,
    }
    with pytest.raises(OptionsInvalid, match="given twice"):
        GAME.clean_options({"cases": 4, "max_cases": 4})
    # A table stored with the old names, its number of cases left to the table size.
    stored = {"cases": None, "window_seconds": 20, "fast_play": False}
    assert GAME.stored_options(stored) == {**DEFAULTS, "window_seconds": 20}


@pytest.mark.parametrize(
    ("options", "deadlines"),
    [
        ({}, {"play": None, "window": 30, "choose": 30}),
        (
            {"turn_seconds": 60, "window_seconds": 15, "choice_seconds": 40},
            {"play": 60, "window": 15, "choose": 40},
        ),
        (
            {"window_seconds": 0, "choice_seconds": 0},
            {"play": None, "window": None, "choose": None},
        ),
    ],
)
def test_each_kind_of_wait_has_its_own_deadline(options, deadlines):
    # bob (1) plays a Disguise on charlie: charlie's window, then charlie's choice.
    hands = [["london-2"], ["disguise-1", "london-1"], ["bakerst-1", "clue-1"]]
    state = table(hands, current="clue-2", turn=1, **options)

    assert rules.deadline_seconds(state) == deadlines["play"]
    state = act(state, 1, {"type": "play", "card": "disguise-1", "target": 2})[0]
    assert state["pending"]["kind"] == "window"
    assert rules.deadline_seconds(state) == deadlines["window"]
    state = act(state, 2, {"type": "allow"})[0]
    assert state["pending"]["kind"] == "choose"
    assert rules.deadline_seconds(state) == deadlines["choose"]


def test_a_game_begun_under_the_old_names_keeps_its_timers():
    state = new_game(4, seed=3)
    state["options"] = {"cases": 2, "window_seconds": 25, "fast_play": False}

    assert rules.deadline_seconds(state) is None  # its turns had no timer
    assert option(state, "choice_seconds") == 25  # its choices ran on the window's
