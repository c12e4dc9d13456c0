"""The end: wildcards placed in turn, majorities, maps, the bonus and the tie-breaks."""

import pytest

from games.base import SYSTEM
from games.sherlock_mycroft import private_items, rules
from games.sherlock_mycroft.rules.scoring import breakdown, kind_points

from .helpers import ALICE, BOB, at_day, move, place, play, refused, stacked


@pytest.mark.parametrize(
    ("kind", "mine", "theirs", "points"),
    [
        ("cigarette", 3, 1, 4),
        ("button", 7, 0, 10),
        ("bullet", 2, 2, 0),
        ("bullet", 0, 0, 0),
        ("bullet", 1, 2, 0),
        ("false_pass", 1, 0, 3),
    ],
)
def test_it_scores_a_kind_for_the_majority_less_the_rivals_count(kind, mine, theirs, points):
    assert kind_points(kind, mine, theirs) == points


@pytest.mark.parametrize(("fragments", "points"), list(enumerate([0, -1, 1, 3, 6, 10])))
def test_it_scores_map_fragments_alone(fragments, points):
    assert kind_points("map", fragments, 5 - fragments) == points


def test_it_gives_the_bonus_only_for_every_real_copy():
    cards = [[f"false_pass-{n}" for n in (1, 2)] + ["wild-1"], ["button-1"]]
    scores = breakdown(cards, [{"wild-1": "false_pass"}, None], [None, None])

    assert scores[ALICE]["false_pass"] == 3  # 3 - 0, no bonus: a wildcard is no copy
    assert scores[BOB]["button"] == 7


def last_move(alice_cards=(), bob_cards=(), alice_hidden=(), bob_hidden=()) -> dict:
    """Day 7, Bob's last move to make: Toby (no ability used) ends the game."""
    state = stacked()
    state = at_day(state, 7, alice=("watson", "mrs_hudson", "lestrade"), bob=("watson",))
    for marker in state["markers"][ALICE]:
        marker["standing"] = False
    state["markers"][BOB] = [
        {"on": "watson", "standing": True},
        {"on": "mrs_hudson", "standing": False},
        {"on": "lestrade", "standing": False},
    ]
    state["moves_left"] = [0, 1]
    state["turn"] = BOB
    place(state, list(alice_cards), "visible", ALICE)
    place(state, list(bob_cards), "visible", BOB)
    place(state, list(alice_hidden), "hidden", ALICE)
    place(state, list(bob_hidden), "hidden", BOB)
    return state


def test_it_reveals_hidden_clues_and_asks_wildcards_first_player_first():
    state = last_move(
        alice_cards=["bullet-1", "wild-1", "wild-2"],
        alice_hidden=["button-1"],
        bob_cards=["wild-3", "bullet-2"],
        bob_hidden=["bullet-3"],
    )
    state, events = play(state, BOB, move("toby", origin="watson"))

    assert events[-1].type != "game_over"
    revealed = next(e for e in events if e.type == "clues_revealed")
    assert revealed.data["hidden"] == [["button-1"], ["bullet-3"]]
    assert (state["step"], state["turn"]) == ("assign", ALICE)
    assert private_items(state, ALICE) == set() == private_items(state, BOB)
    view = rules.view(state, BOB)
    assert view["players"][ALICE]["hidden"] == ["button-1"]
    assert [a["assign"] for a in rules.legal_actions(state, ALICE)] == [
        {},
        {"wild-1": "bullet"},
        {"wild-1": "button"},
        {"wild-1": "bullet", "wild-2": "button"},
    ]

    state, _ = play(
        state,
        ALICE,
        {"type": "assign_wildcards", "assign": {"wild-2": "bullet", "wild-1": "button"}},
    )
    assert (state["step"], state["turn"]) == ("assign", BOB)
    state, events = play(state, BOB, {"type": "assign_wildcards", "assign": {"wild-3": "bullet"}})

    result = rules.outcome(state)
    # Bullets: bob's 2 (one hidden) and a wildcard beat alice's 1 and a wildcard, 6 - 2.
    # Buttons: alice's hidden one and a wildcard against none, 7 - 0.
    assert (result["breakdown"][ALICE]["bullet"], result["breakdown"][BOB]["bullet"]) == (0, 4)
    assert result["breakdown"][ALICE]["button"] == 7
    assert result["scores"] == {"0": 7, "1": 4}
    assert result["winners"] == [ALICE] and result["result"] == "win"
    assert events[-1].type == "game_over"


@pytest.mark.parametrize(
    "assign",
    [
        {"wild-3": "bullet"},
        {"wild-1": "map"},
        {"wild-1": "dagger"},
        {"wild-1": "bullet", "wild-2": "bullet"},
        {"wild-1": "fingerprint"},
        {"bullet-1": "bullet"},
    ],
)
def test_it_refuses_a_bad_wildcard_assignment(assign):
    state = last_move(alice_cards=["bullet-1", "map-1", "wild-1", "wild-2"])
    state, _ = play(state, BOB, move("toby", origin="watson"))

    assert refused(state, ALICE, {"type": "assign_wildcards", "assign": assign}) == (
        "bad_assignment"
    )


def test_it_asks_no_one_who_cannot_place_a_wildcard():
    state = last_move(alice_cards=["wild-1", "map-1"], bob_cards=["bullet-2"])

    state, events = play(state, BOB, move("toby", origin="watson"))

    assert rules.is_over(state) and events[-1].type == "game_over"
    assert rules.outcome(state)["breakdown"][ALICE]["map"] == -1


def test_it_breaks_a_tie_on_markers_then_calls_a_draw():
    state = last_move(alice_cards=["bullet-1"], bob_cards=["bullet-2"])
    state["tokens"], state["reserve"] = [6, 5], 13

    won, _ = play(state, BOB, move("toby", origin="watson"))

    assert rules.outcome(won)["winners"] == [ALICE]
    assert rules.outcome(won)["decided_by"] == "markers"
    state["tokens"], state["reserve"] = [5, 5], 14
    drawn, _ = play(state, BOB, move("toby", origin="watson"))
    assert rules.outcome(drawn)["result"] == "draw" and rules.outcome(drawn)["winners"] == []


def test_it_times_out_the_assignment_with_the_best_one():
    state = last_move(
        alice_cards=["false_pass-1", "fingerprint-1", "wild-1"],
        bob_cards=["fingerprint-2", "false_pass-2"],
    )
    state, _ = play(state, BOB, move("toby", origin="watson"))

    state, _ = play(state, SYSTEM, {"type": "timeout"})

    assert state["assigned"][ALICE] == {"wild-1": "fingerprint"}  # 9 - 1 beats 3 - 1


def test_it_offers_no_reserve_after_the_last_move_of_the_game():
    state = last_move(bob_cards=["bullet-2"])
    state["variants"]["reserve_card"] = True
    state["card_holder"] = BOB

    state, _ = play(state, BOB, move("toby", origin="watson"))

    assert rules.is_over(state)
