"""What each seat and a spectator see, and what stays private."""

import json

from games.base import events_for
from games.sherlock_mycroft import GAME, private_items, rules

from .helpers import ALICE, BOB, at_day, move, place, play, stacked

LINE = ["button-1", "fingerprint-1", "map-1", "wild-1"]
TOP_LEVEL = {
    "game",
    "you",
    "day",
    "days",
    "step",
    "turn",
    "waiting_for",
    "first",
    "roles",
    "variants",
    "board",
    "line",
    "deck_count",
    "discard_count",
    "character_deck_count",
    "villains_discarded",
    "reserve",
    "players",
    "kinds",
    "pending",
    "private",
    "result",
}


def test_it_gives_every_viewer_the_same_top_level_keys():
    state = stacked()

    for viewer in (ALICE, BOB, None):
        assert set(rules.view(state, viewer)) == TOP_LEVEL
    assert rules.view(state, BOB)["you"] == BOB
    assert rules.view(state, None)["you"] is None


def test_it_shows_markers_on_the_board_by_seat_and_posture():
    state, _ = play(stacked(), ALICE, move("toby"))

    toby = rules.view(state, BOB)["board"][4]
    assert toby["id"] == "toby" and toby["name"] == "Toby" and toby["face_up"]
    assert toby["markers"] == [{"seat": ALICE, "standing": False}]
    assert rules.view(state, BOB)["players"][ALICE]["markers_in_hand"] == 2


def test_it_shows_the_rival_how_many_hidden_clues_but_not_which():
    state = place(stacked(), ["bullet-4", "button-6"], "hidden", ALICE)

    mine, theirs = rules.view(state, ALICE), rules.view(state, BOB)
    spectator = rules.view(state, None)

    assert mine["private"] == {"hidden": ["bullet-4", "button-6"], "looking": []}
    assert theirs["players"][ALICE]["hidden_count"] == 2
    for other in (theirs, spectator):
        dumped = json.dumps(other)
        assert "bullet-4" not in dumped and "button-6" not in dumped
    assert private_items(state, ALICE) == {"bullet-4", "button-6"}


def test_it_lists_a_stolen_card_publicly():
    state = at_day(
        stacked(day_one=("irene_adler", "toby")),
        2,
        alice=("watson", "mrs_hudson", "lestrade"),
        bob=("watson", "mrs_hudson", "lestrade"),
    )
    place(state, ["bullet-2"], "visible", BOB)

    state, _ = play(state, ALICE, move("irene_adler", {"steal": "bullet-2"}, "watson"))

    assert rules.view(state, BOB)["players"][ALICE]["hidden_known"] == ["bullet-2"]


def test_it_shows_a_pike_look_to_the_looker_alone():
    state = stacked(top=[*LINE, "bullet-1", "footprint-1"])

    state, events = play(state, ALICE, move("langdale_pike", {"look": 2}))

    assert rules.view(state, ALICE)["private"]["looking"] == ["bullet-1", "footprint-1"]
    assert rules.view(state, BOB)["private"]["looking"] == []
    assert rules.view(state, BOB)["pending"] == {"looking_count": 2}
    seen_by_bob = json.dumps(rules.view(state, BOB)) + str(events_for(events, BOB))
    assert "bullet-1" not in seen_by_bob and "footprint-1" not in seen_by_bob


def test_it_tabulates_each_kind_for_the_page():
    state = place(stacked(), ["cigarette-1", "cigarette-2", "cigarette-3"], "visible", ALICE)
    place(state, ["cigarette-4", "map-2", "map-3"], "visible", BOB)
    place(state, ["cigarette-5"], "hidden", BOB)

    kinds = {k["kind"]: k for k in rules.view(state, BOB)["kinds"]}

    assert kinds["cigarette"]["counts"] == [3, 1]
    assert kinds["cigarette"]["leader"] == ALICE
    assert kinds["cigarette"]["points"] == [4, 0]
    assert kinds["cigarette"]["your_count"] == 2  # with bob's hidden one
    assert kinds["map"]["points"] == [0, 1] and kinds["map"]["leader"] is None
    assert kinds["wild"]["points"] is None
    assert "your_count" not in rules.view(state, None)["kinds"][0]


def test_it_never_shows_the_deck_order_or_the_discards():
    state, _ = play(
        stacked(day_one=("shinwell_johnson", "toby"), top=LINE),
        ALICE,
        move("shinwell_johnson", {"discard": ["map-1"]}),
    )
    deck_top = state["deck"][:5]

    for viewer in (ALICE, BOB, None):
        view = rules.view(state, viewer)
        assert view["discard_count"] == 1 and "deck" not in view and "discard" not in view
        assert not any(card in json.dumps(view["players"]) for card in deck_top)


def test_it_allows_notes():
    assert GAME.rules.may_write_notes(stacked(), ALICE) is True
