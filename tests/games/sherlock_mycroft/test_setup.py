"""Set-up: the seeded draws in their fixed order, the config and the stacked decks."""

import pytest

from games.rng import seeded
from games.sherlock_mycroft import GAME, rules
from games.sherlock_mycroft.rules.cards import CLUE_IDS, DECK_CHARACTERS

from .helpers import NAMES, stacked


def test_it_draws_the_seeded_setup_in_a_fixed_order():
    state = rules.setup({"first": "random"}, list(NAMES), 7)

    assert [card["id"] for card in state["board"][3:]] == ["wiggins", "billy"]
    assert state["character_deck"] == [
        "shinwell_johnson",
        "gregson",
        "von_kramm",
        "violet_hunter",
        "irene_adler",
        "toby",
        "langdale_pike",
    ]
    assert state["line"] == ["footprint-3", "footprint-2", "map-4", "footprint-7"]
    assert state["first"] == 0


def test_it_shuffles_the_villains_in_after_the_day_one_pair():
    config = {"first": "random", "variants": {"moriarty": True, "moran": True}}
    state = rules.setup(config, list(NAMES), 7)

    assert [card["id"] for card in state["board"][3:]] == ["wiggins", "billy"]
    assert state["character_deck"] == [
        "moriarty",
        "von_kramm",
        "violet_hunter",
        "toby",
        "shinwell_johnson",
        "irene_adler",
        "langdale_pike",
        "gregson",
        "moran",
    ]
    assert state["line"] == ["map-2", "footprint-5", "fingerprint-8", "false_pass-2"]
    assert state["first"] == 1


def test_it_starts_with_five_characters_four_clues_and_five_markers_each():
    state = rules.setup(GAME.example_config(2), list(NAMES), 3)

    assert [card["id"] for card in state["board"][:3]] == ["watson", "mrs_hudson", "lestrade"]
    assert len(state["board"]) == 5 and len(state["character_deck"]) == 7
    assert len(state["line"]) == 4 and len(state["deck"]) == 48
    assert state["tokens"] == [5, 5] and state["reserve"] == 14
    assert sorted(state["line"] + state["deck"]) == sorted(CLUE_IDS)
    assert (state["day"], state["step"], state["turn"]) == (1, "move", 0)


def test_it_gives_the_first_player_the_chosen_role():
    state = rules.setup({"first": 1, "first_role": "mycroft"}, list(NAMES), 1)

    assert state["roles"] == ["sherlock", "mycroft"]
    assert state["turn"] == 1


def test_it_reads_the_optional_cards_from_a_tables_options():
    config = GAME.example_config(2, reserve_card=True, moran=True)
    state = rules.setup(config, list(NAMES), 1)

    assert state["variants"] == {"reserve_card": True, "moriarty": False, "moran": True}
    assert state["card_holder"] == 1  # the second player
    assert "moran" in state["character_deck"]


def test_it_describes_the_game_with_three_optional_cards_off_by_default():
    assert GAME.clean_options({}) == {"reserve_card": False, "moriarty": False, "moran": False}
    assert GAME.example_config(2) == {"options": GAME.clean_options({})}
    assert (GAME.min_players, GAME.max_players, GAME.needs_case) == (2, 2, False)


@pytest.mark.parametrize("players", [["solo"], ["a", "b", "c"], "ab"])
def test_it_refuses_anything_but_two_players(players):
    with pytest.raises(ValueError):
        rules.setup({}, players, 1)


@pytest.mark.parametrize(
    "config",
    [
        {"first": 2},
        {"first": True},
        {"first_role": "watson"},
        {"variants": {"moran": "yes"}},
        {"options": []},
        {"stack": {"clues": ["button-1"]}},
        {"stack": {"characters": list(DECK_CHARACTERS)[:8]}},
        {
            "variants": {"moran": True},
            "stack": {"characters": ["moran", *DECK_CHARACTERS]},
        },
    ],
)
def test_it_refuses_a_bad_value_of_a_known_config_key(config):
    with pytest.raises(ValueError):
        rules.setup(config, list(NAMES), 1)


def test_it_ignores_unknown_config_keys():
    state = rules.setup({"colour": "plum", "options": {"speed": 3}}, list(NAMES), 1)

    assert state["day"] == 1


def test_it_uses_stacked_decks_as_given():
    state = stacked(day_one=("billy", "wiggins"), top=("map-5", "wild-3"))

    assert [card["id"] for card in state["board"][3:]] == ["billy", "wiggins"]
    assert state["line"][:2] == ["map-5", "wild-3"]
    assert state["rng"] == seeded(1)  # nothing was drawn from the generator
