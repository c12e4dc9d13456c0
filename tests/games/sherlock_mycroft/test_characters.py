"""Each character's ability, its price and the refusals it can meet."""

import pytest

from games.sherlock_mycroft import private_items, rules

from .helpers import (
    ALICE,
    BOB,
    all_cards,
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


def game(day_one=("langdale_pike", "toby"), top=LINE) -> dict:
    return stacked(day_one=day_one, top=top)


def test_it_lets_watson_take_one_line_clue_for_one_marker():
    state, events = play(game(), ALICE, move("watson", {"take": ["map-1"]}))

    assert state["visible"][ALICE] == ["map-1"]
    assert state["tokens"][ALICE] == 4 and state["reserve"] == 15
    assert state["line"] == ["button-1", "fingerprint-1", "wild-1", "false_pass-1"]
    assert event_types(events) == ["moved", "clues_taken", "line_refilled"]


def test_it_refuses_watson_without_a_marker_to_pay():
    state = set_tokens(game(), 0, 5)

    assert refused(state, ALICE, move("watson", {"take": ["map-1"]})) == "cannot_pay"
    assert play(state, ALICE, move("watson"))[0]["tokens"][ALICE] == 0  # may still go


def test_it_refuses_a_clue_that_is_not_in_the_line():
    assert refused(game(), ALICE, move("watson", {"take": ["button-2"]})) == "not_in_line"


def test_it_lets_mrs_hudson_give_three_markers():
    state, _ = play(game(), ALICE, move("mrs_hudson", {}))

    assert state["tokens"][ALICE] == 8 and state["reserve"] == 11


def test_it_gives_only_what_the_reserve_holds():
    state = set_tokens(game(), 15, 8)  # reserve 1

    state, events = play(state, ALICE, move("mrs_hudson", {}))

    assert state["tokens"][ALICE] == 16 and state["reserve"] == 0
    assert events[0].data["gained"] == 1


def test_it_lets_lestrade_take_two_clues_for_three_markers():
    state, _ = play(game(), ALICE, move("lestrade", {"take": ["wild-1", "button-1"]}))

    assert state["visible"][ALICE] == ["button-1", "wild-1"]
    assert state["tokens"][ALICE] == 2


def test_it_refuses_lestrade_with_the_wrong_number_of_clues():
    assert refused(game(), ALICE, move("lestrade", {"take": ["wild-1"]})) == "wrong_count"


def irene_day(day=3) -> dict:
    state = at_day(
        game(day_one=("irene_adler", "gregson")),
        day,
        alice=("watson", "mrs_hudson", "lestrade"),
        bob=("watson", "mrs_hudson", "lestrade"),
    )
    return place(state, ["bullet-2", "wild-2", "map-3"], "visible", BOB)


def test_it_lets_irene_steal_a_visible_clue_for_the_days_number():
    state = irene_day(day=3)

    state, events = play(state, ALICE, move("irene_adler", {"steal": "bullet-2"}, "watson"))

    assert state["hidden"][ALICE] == ["bullet-2"]
    assert state["hidden_known"][ALICE] == ["bullet-2"]
    assert state["visible"][BOB] == ["wild-2", "map-3"]
    assert state["tokens"][ALICE] == 2
    assert "clue_stolen" in event_types(events)
    assert private_items(state, ALICE) == set()  # everyone saw it go


def test_it_lets_irene_steal_a_map_fragment():
    state, _ = play(irene_day(), ALICE, move("irene_adler", {"steal": "map-3"}, "watson"))

    assert state["hidden"][ALICE] == ["map-3"]


@pytest.mark.parametrize("card", ["wild-2", "button-1", "bullet-3"])
def test_it_refuses_irene_a_wildcard_or_a_card_the_rival_does_not_show(card):
    state = place(irene_day(), ["bullet-3"], "hidden", BOB)

    assert refused(state, ALICE, move("irene_adler", {"steal": card}, "watson")) == (
        "not_stealable"
    )


def test_it_refuses_irene_to_a_player_who_cannot_pay_the_day():
    state = set_tokens(irene_day(day=6), 5, 5)

    assert refused(state, ALICE, move("irene_adler", {"steal": "bullet-2"}, "watson")) == (
        "cannot_pay"
    )


def test_it_lets_gregson_take_up_to_three_clues_at_two_markers_each():
    state = set_tokens(game(day_one=("gregson", "toby")), 7, 5)
    take = {"take": ["map-1", "button-1", "fingerprint-1"]}

    state, _ = play(state, ALICE, move("gregson", take))

    assert state["visible"][ALICE] == ["button-1", "fingerprint-1", "map-1"]
    assert state["tokens"][ALICE] == 1


@pytest.mark.parametrize(
    ("take", "code"),
    [
        ([], "wrong_count"),
        (["map-1", "button-1", "fingerprint-1", "wild-1"], "wrong_count"),
        (["map-1", "map-1"], "duplicate_card"),
        (["map-1", "button-1", "fingerprint-1"], "cannot_pay"),
    ],
)
def test_it_refuses_gregson_a_bad_break_in(take, code):
    state = game(day_one=("gregson", "toby"))

    assert refused(state, ALICE, move("gregson", {"take": take})) == code


def test_it_lets_wiggins_give_five_markers():
    state, _ = play(game(day_one=("wiggins", "toby")), ALICE, move("wiggins", {}))

    assert state["tokens"][ALICE] == 10


def test_it_lets_pike_look_privately_and_keep_exactly_one_card():
    state = game(top=[*LINE, "bullet-1", "footprint-1", "cigarette-1"])

    state, events = play(state, ALICE, move("langdale_pike", {"look": 3}))

    assert (state["step"], state["turn"]) == ("keep", ALICE)
    assert state["pending"]["looking"] == ["bullet-1", "footprint-1", "cigarette-1"]
    assert state["tokens"][ALICE] == 2
    secret = next(e for e in events if e.type == "looked_cards")
    assert secret.audience == (ALICE,)
    assert private_items(state, ALICE) == {"bullet-1", "footprint-1", "cigarette-1"}
    assert sorted(all_cards(state)) == sorted(rules.CLUE_IDS)

    state, events = play(state, ALICE, {"type": "keep", "card": "footprint-1"})

    assert state["hidden"][ALICE] == ["footprint-1"]
    assert state["discard"] == ["bullet-1", "cigarette-1"]
    assert (state["step"], state["turn"]) == ("move", BOB)
    assert next(e for e in events if e.type == "pike_discarded").data["count"] == 2
    assert private_items(state, ALICE) == {"footprint-1"}


def test_it_shows_a_wildcard_that_pike_keeps():
    state = game(top=[*LINE, "wild-2", "button-2"])
    state, _ = play(state, ALICE, move("langdale_pike", {"look": 2}))

    state, events = play(state, ALICE, {"type": "keep", "card": "wild-2"})

    assert state["visible"][ALICE] == ["wild-2"] and state["hidden"][ALICE] == []
    assert "wildcard_revealed" in event_types(events)


def test_it_refuses_pike_a_card_he_did_not_show():
    state, _ = play(game(), ALICE, move("langdale_pike", {"look": 1}))

    assert refused(state, ALICE, {"type": "keep", "card": "map-1"}) == "not_eligible"


@pytest.mark.parametrize(("look", "code"), [(0, "wrong_count"), (4, "wrong_count")])
def test_it_refuses_pike_a_look_outside_one_to_three(look, code):
    assert refused(game(), ALICE, move("langdale_pike", {"look": look})) == code


def test_it_refuses_pike_more_cards_than_are_left():
    state = game()
    place(state, state["deck"][2:], "visible", BOB)  # two cards left to draw

    assert refused(state, ALICE, move("langdale_pike", {"look": 3})) == "not_enough_cards"


def test_it_reshuffles_the_discards_when_pike_empties_the_deck():
    state = game()
    deck = list(state["deck"])
    place(state, deck[1:40], "visible", BOB)
    place(state, deck[40:], "discard")

    state, events = play(state, ALICE, move("langdale_pike", {"look": 2}))

    assert "deck_reshuffled" in event_types(events)
    assert len(state["pending"]["looking"]) == 2
    assert sorted(all_cards(state)) == sorted(rules.CLUE_IDS)


def test_it_lets_toby_count_visible_kinds_with_maps_but_not_wildcards_or_hidden_clues():
    state = place(game(), ["explosive-1", "explosive-2", "map-2", "cigarette-1"], "visible", 0)
    place(state, ["wild-2"], "visible", ALICE)
    place(state, ["bullet-1"], "hidden", ALICE)

    state, events = play(state, ALICE, move("toby", {}))

    assert events[0].data["gained"] == 3
    assert state["tokens"][ALICE] == 8


def test_it_lets_shinwell_discard_line_clues():
    state = game(day_one=("shinwell_johnson", "toby"))

    state, _ = play(state, ALICE, move("shinwell_johnson", {"discard": ["map-1", "wild-1"]}))

    assert state["discard"] == ["map-1", "wild-1"]
    assert state["line"] == ["button-1", "fingerprint-1", "false_pass-1", "false_pass-2"]
    assert state["tokens"][ALICE] == 5


@pytest.mark.parametrize(
    ("discard", "code"),
    [
        (["map-1", "wild-1", "button-1", "fingerprint-1"], "wrong_count"),
        (["map-1", "map-1"], "duplicate_card"),
        (["map-2"], "not_in_line"),
    ],
)
def test_it_refuses_shinwell_a_bad_discard(discard, code):
    state = game(day_one=("shinwell_johnson", "toby"))

    assert refused(state, ALICE, move("shinwell_johnson", {"discard": discard})) == code


def billy_day(day: int) -> dict:
    state = at_day(
        game(day_one=("billy", "toby")),
        day,
        alice=("watson", "mrs_hudson", "lestrade"),
        bob=("watson", "mrs_hudson", "lestrade"),
    )
    return place(state, ["fingerprint-3", "map-2", "wild-2", "false_pass-1"], "visible", 0)


def test_it_lets_billy_turn_a_clue_into_its_value_less_the_day():
    state, events = play(billy_day(3), ALICE, move("billy", {"discard": "fingerprint-3"}, "watson"))

    assert state["tokens"][ALICE] == 11  # 9 - 3 = 6
    assert "fingerprint-3" in state["discard"]
    assert events[0].data["gained"] == 6


def test_it_never_takes_markers_for_billy():
    state, events = play(billy_day(5), ALICE, move("billy", {"discard": "false_pass-1"}, "watson"))

    assert state["tokens"][ALICE] == 5 and events[0].data["gained"] == 0


@pytest.mark.parametrize("card", ["map-2", "wild-2", "bullet-1", "button-1"])
def test_it_refuses_billy_a_map_a_wildcard_or_a_clue_not_shown(card):
    state = place(billy_day(2), ["bullet-1"], "hidden", ALICE)

    assert refused(state, ALICE, move("billy", {"discard": card}, "watson")) == "not_eligible"


def von_kramm_day() -> dict:
    return at_day(
        game(day_one=("von_kramm", "toby"), top=[*LINE, "bullet-1", "wild-2"]),
        2,
        alice=("watson", "mrs_hudson", "lestrade"),
        bob=("watson", "mrs_hudson", "lestrade"),
    )


def test_it_lets_von_kramm_take_a_clue_then_offers_the_rival_the_top_card():
    state, events = play(von_kramm_day(), ALICE, move("von_kramm", {"take": ["map-1"]}, "watson"))

    assert (state["step"], state["turn"]) == ("von_kramm", BOB)
    assert state["line"] == ["button-1", "fingerprint-1", "wild-1"]  # refilled after
    assert rules.legal_actions(state, BOB) == [
        {"type": "von_kramm_reply", "pay": True},
        {"type": "von_kramm_reply", "pay": False},
    ]
    assert rules.legal_actions(state, ALICE) == []

    state, events = play(state, BOB, {"type": "von_kramm_reply", "pay": True})

    assert state["hidden"][BOB] == ["bullet-1"] and state["tokens"][BOB] == 4
    assert state["line"] == ["button-1", "fingerprint-1", "wild-1", "wild-2"]
    assert (state["step"], state["turn"]) == ("move", BOB)
    hidden = next(e for e in events if e.type == "hidden_card")
    assert hidden.audience == (BOB,) and hidden.data["card"] == "bullet-1"
    assert private_items(state, BOB) == {"bullet-1"}


def test_it_lets_the_rival_decline_von_kramms_offer():
    state, _ = play(von_kramm_day(), ALICE, move("von_kramm", {"take": ["map-1"]}, "watson"))

    state, _ = play(state, BOB, {"type": "von_kramm_reply", "pay": False})

    assert state["hidden"][BOB] == [] and state["tokens"][BOB] == 5
    assert state["line"] == ["button-1", "fingerprint-1", "wild-1", "bullet-1"]


def test_it_shows_a_wildcard_the_rival_draws_through_von_kramm():
    state = place(von_kramm_day(), ["wild-2"], "deck")
    state, _ = play(state, ALICE, move("von_kramm", {"take": ["map-1"]}, "watson"))

    state, events = play(state, BOB, {"type": "von_kramm_reply", "pay": True})

    assert state["visible"][BOB] == ["wild-2"] and state["hidden"][BOB] == []
    assert "wildcard_revealed" in event_types(events)


def test_it_asks_a_rival_without_markers_nothing():
    state = set_tokens(von_kramm_day(), 5, 0)

    state, _ = play(state, ALICE, move("von_kramm", {"take": ["map-1"]}, "watson"))

    assert (state["step"], state["turn"]) == ("move", BOB)


def test_it_offers_nothing_when_von_kramms_ability_is_skipped():
    state, _ = play(von_kramm_day(), ALICE, move("von_kramm", None, "watson"))

    assert (state["step"], state["turn"]) == ("move", BOB)


def test_it_lets_violet_swap_a_visible_clue_into_the_taken_cards_place():
    state = place(game(day_one=("violet_hunter", "toby")), ["map-3"], "visible", ALICE)

    state, _ = play(state, ALICE, move("violet_hunter", {"give": "map-3", "take": "map-1"}))

    assert state["line"] == ["button-1", "fingerprint-1", "map-3", "wild-1"]
    assert state["visible"][ALICE] == ["map-1"]


@pytest.mark.parametrize(
    ("ability", "code"),
    [
        ({"give": "map-3", "take": "map-2"}, "not_in_line"),
        ({"give": "button-1", "take": "map-1"}, "not_eligible"),
    ],
)
def test_it_refuses_violet_a_bad_swap(ability, code):
    state = place(game(day_one=("violet_hunter", "toby")), ["map-3"], "visible", ALICE)

    assert refused(state, ALICE, move("violet_hunter", ability)) == code


@pytest.mark.parametrize(
    ("to", "ability"),
    [
        ("watson", {}),
        ("watson", {"take": "map-1"}),
        ("watson", {"take": [1]}),
        ("mrs_hudson", {"take": ["map-1"]}),
        ("langdale_pike", {"look": "2"}),
        ("langdale_pike", {"look": True}),
        ("toby", {"extra": 1}),
    ],
)
def test_it_refuses_an_ability_object_that_does_not_fit_the_character(to, ability):
    assert refused(game(), ALICE, move(to, ability)) == "bad_ability"
