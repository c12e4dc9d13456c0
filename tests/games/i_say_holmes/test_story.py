"""The story sequence: playing, drawing, I Say cards, Deduction, Fast Play, empty piles."""

from tests.games.i_say_holmes.helpers import act, all_cards, play, refused, table

FILLER = ["suspicion-1", "suspicion-2", "suspicion-3"]


def test_it_moves_a_played_card_in_front_of_the_left_neighbour():
    state = table([["hansom-1", "clue-1"], FILLER, ["bakerst-1"]], current="afoot")

    state = play(state, 0, "hansom-1")

    assert state["current"] == {"card": "hansom-1", "holder": 1}
    assert state["travel"] == "hansom"
    assert state["set_aside"] == ["afoot"]
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "play"


def test_it_flips_the_location_marker_and_takes_the_travel_marker_off():
    state = table([["dartmoor-1", "clue-1"], FILLER, ["bakerst-1"]], current="train-1")

    state = play(state, 0, "dartmoor-1")

    assert state["location"] == "country" and state["travel"] is None
    assert state["discard"] == ["train-1"]


def test_it_refuses_a_card_that_does_not_follow():
    state = table([["dartmoor-1", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1")

    assert refused(state, 0, {"type": "play", "card": "dartmoor-1"}) == "not_suitable"
    assert refused(state, 0, {"type": "play", "card": "moran"}) == "card_not_in_hand"


def test_it_allows_a_draw_only_without_a_following_card():
    state = table([["london-2", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1")
    assert refused(state, 0, {"type": "draw"}) == "must_play"

    state = table(
        [["dartmoor-2", "clue-1"], FILLER, ["bakerst-1"]],
        current="hansom-1",
        draw_top=("london-2",),
    )
    state = act(state, 0, {"type": "draw"})[0]

    assert state["turn"]["step"] == "drawn" and state["drawn"] == "london-2"
    assert refused(state, 0, {"type": "keep"}) == "must_play_drawn"
    assert refused(state, 0, {"type": "play", "card": "clue-1"}) == "only_drawn_card"
    state = play(state, 0, "london-2")
    assert state["current"]["card"] == "london-2" and state["turn"]["seat"] == 1


def test_it_keeps_a_drawn_card_that_does_not_follow():
    state = table(
        [["dartmoor-2", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1", draw_top=("moran",)
    )

    state = act(state, 0, {"type": "draw"})[0]
    state = act(state, 0, {"type": "keep"})[0]

    assert state["hands"][0] == ["dartmoor-2", "clue-1", "moran"]
    assert state["current"] == {"card": "hansom-1", "holder": 1}
    assert state["turn"]["seat"] == 1


def test_it_plays_an_i_say_card_out_of_sequence_without_a_token():
    state = table([["lestrade-1", "clue-1"], FILLER, ["bakerst-1"]], current="westend-1")

    assert (
        refused(state, 0, {"type": "play", "card": "lestrade-1", "target": 2, "token": "pipe"})
        == "bad_token"
    )
    state = play(state, 0, "lestrade-1", target=2)
    state = act(state, 2, {"type": "allow"})[0]

    assert state["current"] == {"card": "westend-1", "holder": 1}
    assert state["discard"] == ["lestrade-1"]
    assert state["seen"][0][-1]["cards"] == ["bakerst-1"]
    assert state["holdings"][0]["pipe"] is None


def test_it_gives_a_token_for_an_i_say_card_in_sequence():
    state = table([["lestrade-1", "clue-1"], FILLER, ["bakerst-1"]], current="london-1")
    assert refused(state, 0, {"type": "play", "card": "lestrade-1", "target": 2}) == "bad_token"

    state = play(state, 0, "lestrade-1", target=2, token="hat")

    assert state["holdings"][0]["hat"] is not None
    assert len(state["pool"]["hat"]) == 4


def test_it_takes_a_token_from_a_holder_when_the_pool_is_empty():
    state = table([["lestrade-1", "clue-1"], FILLER, ["bakerst-1"]], current="london-1")
    state["holdings"][2]["hat"] = "hat-3"
    state["pool"]["hat"] = []

    state = play(state, 0, "lestrade-1", target=2, token="hat", token_from=2)

    assert state["holdings"][0]["hat"] == "hat-3" and state["holdings"][2]["hat"] is None


def test_it_refuses_an_i_say_card_whose_condition_fails():
    state = table([["sherlock", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1")

    assert refused(state, 0, {"type": "play", "card": "sherlock", "target": 1}) == (
        "not_permissible"
    )


def test_it_refuses_fields_a_card_never_takes():
    state = table([["clue-1", "dartmoor-1"], FILLER, ["bakerst-1"]], current="london-1")

    assert (
        refused(state, 0, {"type": "play", "card": "clue-1", "target": 1, "villain": "moriarty"})
        == "bad_field"
    )
    assert refused(state, 0, {"type": "play", "card": "clue-1"}) == "bad_target"
    assert refused(state, 0, {"type": "play", "card": "clue-1", "target": 0}) == "bad_target"
    assert refused(state, 0, {"type": "play", "card": "clue-1", "target": True}) == "bad_target"


def test_it_opens_step_more_for_a_hand_of_seven():
    hand = ["london-2", "clue-1", "clue-2", "train-1", "train-2", "arrest-1", "hansom-4"]
    state = table([hand, FILLER, ["bakerst-1"]], current="hansom-1")

    state = play(state, 0, "london-2")
    assert state["turn"] == {"seat": 0, "step": "more", "deduction": True, "count": 1}
    assert refused(state, 0, {"type": "draw"}) == "wrong_step"
    state = play(state, 0, "clue-1", target=1)
    state = act(state, 1, {"type": "allow"})[0]

    assert state["current"] == {"card": "clue-1", "holder": 1}
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "play"


def test_it_lets_a_deduction_end_without_a_second_card():
    hand = ["london-2", "clue-1", "clue-2", "train-1", "train-2", "arrest-1", "hansom-4"]
    state = table([hand, FILLER, ["bakerst-1"]], current="hansom-1")

    state = play(state, 0, "london-2")
    state = act(state, 0, {"type": "end_turn"})[0]

    assert state["turn"]["seat"] == 1


def test_it_plays_on_with_fast_play_until_a_travel_card():
    state = table(
        [["london-2", "clue-1", "hansom-4", "suspicion-4"], FILLER, ["bakerst-1"]],
        current="hansom-1",
        fast_play=True,
    )

    state = play(state, 0, "london-2")
    assert state["turn"]["step"] == "more"
    state = play(state, 0, "hansom-4")

    assert state["turn"]["seat"] == 1


def test_it_ends_the_turn_when_both_piles_are_empty():
    state = table([["dartmoor-2", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1")
    state["draw"], state["discard"] = [], []

    state = act(state, 0, {"type": "draw"})[0]

    assert state["turn"]["seat"] == 1 and state["hands"][0] == ["dartmoor-2", "clue-1"]


def test_it_reshuffles_the_discard_into_a_new_draw_pile():
    state = table([["dartmoor-2", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1")
    state["discard"], state["draw"] = state["draw"], []

    state = act(state, 0, {"type": "draw"})[0]

    assert state["discard"] == [] and len(state["draw"]) == 125 - 6 - 1 - 1
    assert len(all_cards(state)) == 125


def test_it_counts_turns_and_closes_a_case_that_runs_too_long():
    state = table(
        [["dartmoor-2", "clue-1"], FILLER, ["bakerst-1"]], current="hansom-1", draw_top=("moran",)
    )
    state["turn"]["count"] = 499

    state = act(state, 0, {"type": "draw"})[0]
    state = act(state, 0, {"type": "keep"})[0]

    assert state["last_case"]["how"] == "cold" and state["cases_closed"] == 1
    assert state["case"] == 2 and state["turn"]["count"] == 1  # the next case is dealt
