"""Set-up, options and the engine's interface."""

import json

import pytest

from games.i_say_holmes import GAME, rules
from tests.games.i_say_holmes.helpers import NAMES, all_cards, new_game


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


@pytest.mark.parametrize(("players", "cases"), [(3, 5), (4, 5), (5, 4), (6, 4), (7, 3), (8, 3)])
def test_it_picks_the_number_of_cases_from_the_table_size(players, cases):
    state = rules.setup(GAME.example_config(players), NAMES[:players], 1)

    assert state["max_cases"] == cases


def test_it_takes_the_tables_options():
    state = new_game(4, cases=2, window_seconds=45, fast_play=True)

    assert state["max_cases"] == 2
    assert state["options"] == {"cases": 2, "window_seconds": 45, "fast_play": True}


@pytest.mark.parametrize(
    ("options", "players"),
    [({"colour": 1}, 4), ({"cases": 0}, 4), ({"window_seconds": 3}, 4), ({}, 2), ({}, 9)],
)
def test_it_refuses_options_or_tables_it_cannot_play(options, players):
    with pytest.raises(ValueError):
        rules.setup({"options": options}, NAMES[:players] + ["x"] * 9, 1)


def test_it_describes_itself_to_the_site():
    assert GAME.name == "i_say_holmes" and GAME.min_players == 3 and GAME.max_players == 8
    assert GAME.clean_options({}) == {"cases": None, "window_seconds": 20, "fast_play": False}
    assert GAME.example_config(4) == {
        "options": {"cases": None, "window_seconds": 20, "fast_play": False}
    }
    state = rules.setup(GAME.example_config(3), NAMES[:3], 1)
    assert json.loads(json.dumps(state)) == state
    assert GAME.rules.may_write_notes(state, 0) is True
    assert rules.turn(state) == state["turn"]["seat"]
    assert rules.deadline_seconds(state) is None
