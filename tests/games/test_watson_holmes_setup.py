"""Set-up of the flagship game: tokens, the sixth and seventh seats, characters, options."""

import json

import pytest

from games import GAMES, get_rules
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BOB,
    NAMES,
    make_case,
    new_game,
    token_totals,
)


def test_it_is_registered_under_its_name():
    # The registry holds the rules the module exports, the defaults for the rest.
    assert GAMES["watson_holmes"].rules.apply is engine.apply
    assert get_rules("watson_holmes") is GAMES["watson_holmes"].rules
    assert get_rules("watson_holmes").deadline_seconds({}) is None


def test_it_names_the_known_engines_for_an_unknown_one():
    with pytest.raises(KeyError, match="watson_holmes"):
        get_rules("cluedo")


@pytest.mark.parametrize("count", range(1, 6))
def test_it_gives_everyone_ten_carriages_from_the_stock(count):
    state = new_game(count)
    assert [p["carriages"] for p in state["players"]] == [10] * count
    assert state["stock"]["carriages"] == 57 - 10 * count
    assert token_totals(state) == {"carriages": 57, "police": 6, "call_off": 6, "lockpick": 2}


@pytest.mark.parametrize(("count", "share"), [(6, 9), (7, 8)])
def test_it_shares_the_57_carriages_equally_when_ten_each_is_too_many(count, share):
    state = new_game(count)
    assert [p["carriages"] for p in state["players"]] == [share] * count
    assert state["stock"]["carriages"] == 57 - share * count


@pytest.mark.parametrize("count", range(1, 6))
def test_it_gives_up_to_five_players_a_police_token(count):
    state = new_game(count)
    assert [p["police"] for p in state["players"]] == [1] * count
    assert [p["call_off"] for p in state["players"]] == [0] * count


def test_it_gives_the_sixth_and_seventh_players_a_call_off_instead():
    state = new_game(7)
    assert [p["police"] for p in state["players"]] == [1, 1, 1, 1, 1, 0, 0]
    assert [p["call_off"] for p in state["players"]] == [0, 0, 0, 0, 0, 1, 1]


def test_it_counts_the_sixth_and_seventh_players_from_the_diary():
    state = new_game(7, host=3)
    # Clockwise from seat 3: 3, 4, 5, 6, 0 get police; 1 and 2 come sixth and seventh.
    assert [p["police"] for p in state["players"]] == [1, 0, 0, 1, 1, 1, 1]
    assert state["diary"] == 3 and state["turn"] == 3


def test_it_applies_the_case_start_overrides():
    case = make_case(start={"carriages": 6, "lockpick": 1, "police": 0})
    state = new_game(2, case=case)
    alice = state["players"][ALICE]
    assert (alice["carriages"], alice["police"], alice["call_off"], alice["lockpick"]) == (
        6,
        0,
        0,
        1,
    )


def test_it_hands_out_only_what_the_stock_holds():
    case = make_case(start={"carriages": 10, "lockpick": 1})
    state = new_game(3, case=case)
    # Two lockpicks exist: the third player in Diary order gets none.
    assert [p["lockpick"] for p in state["players"]] == [1, 1, 0]
    case = make_case(start={"carriages": 20})
    state = new_game(3, case=case)
    assert [p["carriages"] for p in state["players"]] == [19, 19, 19]


def test_it_deals_one_hidden_character_each_without_wiggins_under_four_players():
    for seed in range(30):
        state = new_game(3, seed=seed)
        characters = [p["character"] for p in state["players"]]
        assert len(set(characters)) == 3
        assert "wiggins" not in characters


def test_it_keeps_wiggins_in_the_deck_from_four_players():
    dealt = set()
    for seed in range(60):
        dealt |= {p["character"] for p in new_game(7, seed=seed)["players"]}
    assert "wiggins" in dealt and len(dealt) == 8


def test_it_deals_the_solo_player_a_character():
    state = new_game(1)
    assert state["players"][ALICE]["character"] is not None


def test_it_gives_the_same_game_for_the_same_seed():
    assert new_game(5, seed=42) == new_game(5, seed=42)
    deals = {tuple(p["character"] for p in new_game(5, seed=s)["players"]) for s in range(10)}
    assert len(deals) > 1


def test_it_can_choose_the_start_player_at_random():
    diaries = {new_game(4, seed=seed, random_start=True)["diary"] for seed in range(40)}
    assert diaries == {0, 1, 2, 3}


def test_it_gives_the_diary_to_the_host_by_default():
    assert new_game(3, host=BOB)["diary"] == BOB


def test_its_state_round_trips_through_json():
    state = new_game(4)
    assert json.loads(json.dumps(state)) == state


def test_it_starts_everyone_in_the_case_start_zone():
    zones = {"start": "city", "travel_cost": 2, "names": {"city": "London"}}
    state = new_game(2, case=make_case(zones=zones))
    assert [p["zone"] for p in state["players"]] == ["city", "city"]


@pytest.mark.parametrize("players", [[], NAMES + ["heidi"]])
def test_it_refuses_a_table_of_the_wrong_size(players):
    with pytest.raises(ValueError):
        engine.setup({"case": make_case()}, players, 1)


def test_it_refuses_a_case_with_a_location_number_twice():
    case = make_case()
    case["locations"].append(dict(case["locations"][0]))
    with pytest.raises(ValueError, match="twice"):
        engine.setup({"case": case}, ["alice"], 1)
