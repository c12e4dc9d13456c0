"""Moving action markers, the end of a day (spent characters) and the dawn of the next."""

import pytest

from games.sherlock_mycroft import rules

from .helpers import ALICE, BOB, add_character, at_day, move, play, refused, stacked

PERMANENTS = ("watson", "mrs_hudson", "lestrade")


def day_two() -> dict:
    state = stacked(day_one=("langdale_pike", "toby"))
    state = at_day(state, 2, alice=PERMANENTS, bob=("watson", "toby", "langdale_pike"))
    return add_character(state, "von_kramm")


def test_it_lays_day_one_markers_from_the_hand():
    state, _ = play(stacked(), ALICE, move("toby"))

    marker = next(m for m in state["markers"][ALICE] if m["on"] == "toby")
    assert marker["standing"] is False
    assert state["moves_left"] == [2, 3] and state["turn"] == BOB


def test_it_refuses_a_from_on_day_one():
    assert refused(stacked(), ALICE, move("toby", origin="watson")) == "from_on_day_one"


def test_it_moves_a_standing_marker_after_day_one():
    state, _ = play(day_two(), ALICE, move("von_kramm", origin="lestrade"))

    assert {m["on"]: m["standing"] for m in state["markers"][ALICE]} == {
        "watson": True,
        "mrs_hudson": True,
        "von_kramm": False,
    }


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (move("toby"), "from_required"),
        (move("toby", origin="toby"), "no_standing_marker"),
        (move("toby", origin="nowhere"), "no_standing_marker"),
        (move("moriarty_twin", origin="watson"), "unknown_character"),
        (move("gregson", origin="watson"), "not_in_play"),
        (move("lestrade", origin="watson"), "own_marker_there"),
        (move("watson", origin="watson"), "own_marker_there"),
    ],
)
def test_it_refuses_a_bad_move_after_day_one(action, code):
    assert refused(day_two(), ALICE, action) == code


def test_it_refuses_to_move_a_marker_that_already_lies_down():
    state, _ = play(day_two(), ALICE, move("von_kramm", origin="lestrade"))
    state, _ = play(state, BOB, move("lestrade", origin="watson"))

    assert refused(state, ALICE, move("lestrade", origin="von_kramm")) == "no_standing_marker"


def test_it_refuses_a_face_down_character():
    state = day_two()
    state["board"][3]["face_up"] = False  # langdale_pike

    assert refused(state, ALICE, move("langdale_pike", origin="watson")) == "spent"


def test_it_lets_a_marker_join_the_rivals_character():
    state, _ = play(day_two(), ALICE, move("toby", origin="watson"))

    assert {s for s in (0, 1) if any(m["on"] == "toby" for m in state["markers"][s])} == {0, 1}


def play_day_one(state, alice, bob):
    for a, b in zip(alice, bob, strict=True):
        state, _ = play(state, ALICE, move(a))
        state, log = play(state, BOB, move(b))
    return state, log


def test_it_spends_shared_characters_but_never_the_permanent_ones():
    state, log = play_day_one(
        stacked(day_one=("langdale_pike", "toby")),
        ["watson", "langdale_pike", "toby"],
        ["watson", "langdale_pike", "mrs_hudson"],
    )

    faces = {card["id"]: card["face_up"] for card in state["board"]}
    assert faces["watson"] and not faces["langdale_pike"] and faces["toby"]
    ended = next(e for e in log if e.type == "day_ended")
    assert ended.data == {"day": 1, "spent": ["langdale_pike"], "refreshed": []}


def test_it_refreshes_a_spent_character_the_next_evening():
    state, _ = play_day_one(
        stacked(day_one=("langdale_pike", "toby")),
        ["watson", "langdale_pike", "toby"],
        ["watson", "langdale_pike", "mrs_hudson"],
    )
    moves = [
        (ALICE, "irene_adler", "watson"),
        (BOB, "lestrade", "watson"),
        (ALICE, "watson", "langdale_pike"),
        (BOB, "watson", "langdale_pike"),
        (ALICE, "mrs_hudson", "toby"),
        (BOB, "irene_adler", "mrs_hudson"),
    ]
    for seat, to, origin in moves:
        state, log = play(state, seat, move(to, origin=origin))

    ended = next(e for e in log if e.type == "day_ended")
    assert ended.data["refreshed"] == ["langdale_pike"]
    assert ended.data["spent"] == ["irene_adler"]
    faces = {card["id"]: card["face_up"] for card in state["board"]}
    assert faces["langdale_pike"] and not faces["irene_adler"]


def test_it_stands_every_marker_and_draws_a_character_at_dawn():
    state, log = play_day_one(
        stacked(day_one=("langdale_pike", "toby")),
        ["watson", "mrs_hudson", "lestrade"],
        ["watson", "mrs_hudson", "lestrade"],
    )

    assert state["day"] == 2 and state["moves_left"] == [3, 3]
    assert all(m["standing"] for markers in state["markers"] for m in markers)
    assert state["board"][-1] == {"id": "irene_adler", "space": "day2", "face_up": True}
    started = next(e for e in log if e.type == "day_started")
    assert started.data == {"day": 2, "character": "irene_adler", "villains": []}


def test_it_lets_the_first_player_lead_every_day():
    state = stacked(first=1)
    assert state["turn"] == BOB
    for a, b in zip(
        ["watson", "mrs_hudson", "lestrade"], ["watson", "mrs_hudson", "toby"], strict=True
    ):
        state, _ = play(state, BOB, move(a))
        state, _ = play(state, ALICE, move(b))

    assert (state["day"], state["turn"]) == (2, BOB)


def test_it_ends_the_game_after_the_seventh_day():
    state = stacked()
    days = set()
    while not rules.is_over(state):
        seat = rules.turn(state)
        action = next(a for a in rules.legal_actions(state, seat) if a.get("ability") is None)
        state, _ = play(state, seat, action)
        days.add(state["day"])

    assert days == {1, 2, 3, 4, 5, 6, 7}
    assert len(state["board"]) == 11 and len(state["character_deck"]) == 1
    assert rules.outcome(state) is not None
