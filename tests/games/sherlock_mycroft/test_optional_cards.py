"""The optional cards: the Sherlock/Mycroft card (reserving a clue), Moriarty and Moran."""

import pytest

from games.sherlock_mycroft import rules

from .helpers import (
    ALICE,
    BOB,
    at_day,
    event_types,
    move,
    place,
    play,
    refused,
    set_tokens,
    stacked,
)

LINE = ["button-1", "fingerprint-1", "map-1", "wild-1"]
RESERVE_CARD = {"reserve_card": True}


def test_it_gives_the_card_to_the_second_player_who_may_reserve_after_a_move():
    state = stacked(top=LINE, variants=RESERVE_CARD)
    assert state["card_holder"] == BOB
    state, _ = play(state, ALICE, move("watson"))
    assert state["step"] == "move"  # alice does not hold the card

    state, _ = play(state, BOB, move("toby"))

    assert (state["step"], state["turn"]) == ("reserve", BOB)
    listed = rules.legal_actions(state, BOB)
    assert listed[-1] == {"type": "reserve", "card": None} and len(listed) == 5

    state, events = play(state, BOB, {"type": "reserve", "card": "fingerprint-1"})

    assert state["reserved"][BOB] == "fingerprint-1"
    assert state["card_holder"] == ALICE
    assert state["line"] == ["button-1", "map-1", "wild-1", "false_pass-1"]
    assert event_types(events)[:2] == ["reserved", "line_refilled"]
    assert (state["step"], state["turn"]) == ("move", ALICE)


def test_it_lets_a_player_decline_to_reserve():
    state = stacked(top=LINE, variants=RESERVE_CARD)
    state, _ = play(state, ALICE, move("watson"))
    state, _ = play(state, BOB, move("toby"))

    state, _ = play(state, BOB, {"type": "reserve", "card": None})

    assert state["reserved"][BOB] is None and state["card_holder"] == BOB


def test_it_refuses_to_reserve_a_card_not_in_the_line():
    state = stacked(top=LINE, variants=RESERVE_CARD)
    state, _ = play(state, ALICE, move("watson"))
    state, _ = play(state, BOB, move("toby"))

    assert refused(state, BOB, {"type": "reserve", "card": "map-2"}) == "not_in_line"


def test_it_lets_a_clue_taker_collect_the_reserved_clue_at_the_same_price():
    state = place(stacked(top=LINE, variants=RESERVE_CARD), ["bullet-3"], "reserved", ALICE)
    assert {"take": ["bullet-3"]} in [
        a["ability"] for a in rules.legal_actions(state, ALICE) if a["to"] == "watson"
    ]

    state, events = play(state, ALICE, move("lestrade", {"take": ["map-1", "bullet-3"]}))

    assert state["visible"][ALICE] == ["bullet-3", "map-1"]
    assert state["reserved"][ALICE] is None and state["tokens"][ALICE] == 2
    assert events[1].data["reserved_clue"] == "bullet-3"


def test_it_keeps_the_reserved_clue_away_from_other_abilities():
    state = stacked(day_one=("violet_hunter", "toby"), top=LINE, variants=RESERVE_CARD)
    place(state, ["bullet-3"], "reserved", BOB)
    place(state, ["map-3"], "visible", ALICE)

    swap = {"give": "map-3", "take": "bullet-3"}
    assert refused(state, ALICE, move("violet_hunter", swap)) == "not_in_line"
    assert refused(state, ALICE, move("watson", {"take": ["bullet-3"]})) == "not_in_line"


def test_it_offers_no_reserve_with_a_clue_already_reserved():
    state = place(stacked(top=LINE, variants=RESERVE_CARD), ["bullet-3"], "reserved", BOB)
    state, _ = play(state, ALICE, move("watson"))

    state, _ = play(state, BOB, move("toby"))

    assert (state["step"], state["turn"]) == ("move", ALICE)


def test_it_costs_three_points_to_leave_a_reserved_clue():
    state = place(stacked(variants=RESERVE_CARD), ["bullet-3"], "reserved", BOB)
    state["card_holder"] = ALICE
    while not rules.is_over(state):
        seat = rules.turn(state)
        action = next(a for a in rules.legal_actions(state, seat) if a.get("ability") is None)
        if action["type"] == "reserve":
            action = {"type": "reserve", "card": None}
        state, _ = play(state, seat, action)

    assert rules.outcome(state)["breakdown"][BOB]["reserved_clue"] == -3


def villain_day(state: dict) -> dict:
    """Day 1 played without abilities; the villain is the first card of the deck."""
    for character in ("watson", "mrs_hudson", "lestrade"):
        state, _ = play(state, ALICE, move(character))
        state, _ = play(state, BOB, move(character))
    return state


def villain_game(villain: str) -> dict:
    return villain_day(stacked(top=LINE, variants={villain: True}))


def test_it_makes_moriarty_ask_first_second_second_first():
    state = stacked(top=LINE, variants={"moriarty": True})
    place(state, ["bullet-1", "bullet-2"], "visible", ALICE)
    place(state, ["map-2"], "visible", BOB)
    for character in ("watson", "mrs_hudson", "lestrade"):
        state, _ = play(state, ALICE, move(character))
        state, log = play(state, BOB, move(character))

    assert (state["day"], state["step"], state["turn"]) == (2, "moriarty", ALICE)
    assert "villain_drawn" in event_types(log) and "day_started" not in event_types(log)
    assert rules.legal_actions(state, ALICE)[0] == {"type": "moriarty", "give": "markers"}
    state, _ = play(state, ALICE, {"type": "moriarty", "give": "bullet-1"})
    assert state["turn"] == BOB
    state, _ = play(state, BOB, {"type": "moriarty", "give": "map-2"})
    # Bob has no visible clue left: he returns 2 markers without being asked.
    assert (state["turn"], state["tokens"][BOB]) == (ALICE, 3)
    state, log = play(state, ALICE, {"type": "moriarty", "give": "markers"})

    assert state["tokens"][ALICE] == 3 and state["visible"][ALICE] == ["bullet-2"]
    assert sorted(state["discard"]) == ["bullet-1", "map-2"]
    assert (state["step"], state["turn"]) == ("move", ALICE)
    started = next(e for e in log if e.type == "day_started")
    assert started.data["villains"] == ["moriarty"]
    assert state["board"][-1]["id"] != "moriarty"
    assert state["villains_discarded"] == ["moriarty"]


def test_it_takes_all_markers_from_a_player_moriarty_finds_empty_handed():
    state = stacked(top=LINE, variants={"moriarty": True})
    set_tokens(state, 1, 0)
    for character in ("watson", "mrs_hudson", "lestrade"):
        state, _ = play(state, ALICE, move(character))
        state, log = play(state, BOB, move(character))

    assert state["tokens"] == [0, 0] and state["step"] == "move"
    assert [e.data["returned"] for e in log if e.type == "moriarty"] == [1, 0, 0, 0]


@pytest.mark.parametrize(("give", "code"), [("markers", "cannot_pay"), ("map-2", "not_eligible")])
def test_it_refuses_a_moriarty_choice_that_cannot_be_made(give, code):
    state = stacked(top=LINE, variants={"moriarty": True})
    place(state, ["bullet-1"], "visible", ALICE)
    state = villain_day(state)
    set_tokens(state, 1, state["tokens"][BOB])

    assert refused(state, ALICE, {"type": "moriarty", "give": give}) == code


def test_it_makes_moran_lay_a_marker_down_and_shortens_the_day():
    state = villain_game("moran")
    assert (state["step"], state["turn"]) == ("moran", ALICE)
    assert rules.legal_actions(state, ALICE) == [
        {"type": "moran", "marker": c} for c in ("watson", "mrs_hudson", "lestrade")
    ]

    state, _ = play(state, ALICE, {"type": "moran", "marker": "mrs_hudson"})
    assert refused(state, BOB, {"type": "moran", "marker": "toby"}) == "no_standing_marker"
    state, _ = play(state, BOB, {"type": "moran", "marker": "watson"})

    assert state["moves_left"] == [2, 2] and state["step"] == "move"
    assert state["board"][-1]["id"] == "irene_adler"
    laid = next(m for m in state["markers"][ALICE] if m["on"] == "mrs_hudson")
    assert laid["standing"] is False
    moves = 0
    while state["day"] == 2:
        seat = rules.turn(state)
        action = next(a for a in rules.legal_actions(state, seat) if a["ability"] is None)
        state, _ = play(state, seat, action)
        moves += 1
    assert moves == 4


def test_it_counts_a_moran_marker_on_a_face_down_character_when_spending():
    state = stacked(variants={"moran": True})
    alice, bob = ("watson", "langdale_pike", "toby"), ("watson", "langdale_pike", "lestrade")
    state = at_day(state, 2, alice=alice, bob=bob)
    state["board"][3]["face_up"] = False  # Langdale Pike was spent on day 1
    state["character_deck"].remove("moran")  # Moran has just been drawn at dawn
    state["queue"] = [{"step": "moran", "seat": ALICE}, {"step": "moran", "seat": BOB}]
    state["step"], state["turn"] = "moran", ALICE

    state, _ = play(state, ALICE, {"type": "moran", "marker": "langdale_pike"})
    state, _ = play(state, BOB, {"type": "moran", "marker": "langdale_pike"})
    while state["day"] == 2:
        seat = rules.turn(state)
        action = next(a for a in rules.legal_actions(state, seat) if a["ability"] is None)
        state, log = play(state, seat, action)

    ended = next(e for e in log if e.type == "day_ended")
    assert "langdale_pike" in ended.data["refreshed"] and "langdale_pike" in ended.data["spent"]
