"""Every instruction of the ledger, carried out once its window is allowed."""

import pytest

from games.i_say_holmes import rules
from tests.games.i_say_holmes.helpers import act, allow, play, refused, table

OTHERS = [["london-2", "dartmoor-1", "bakerst-1"], ["train-1", "clue-2", "moriarty"]]


@pytest.mark.parametrize(
    ("card", "current", "drawn"),
    [
        ("suspicion-4", "stokemoran-1", 1),
        ("boat", "afoot", 1),
        ("chase", "afoot", 1),
        ("yard-2", "hansom-1", 2),
        ("detective-2", "yard-1", 2),
    ],
)
def test_it_makes_the_target_draw(card, current, drawn):
    state = table([[card, "clue-1"], *OTHERS], current=current)

    state = allow(play(state, 0, card, target=2), 2)

    assert len(state["hands"][2]) == 3 + drawn


def test_it_gives_a_gift_token_to_an_opponent_who_lacks_one():
    state = table([["fleet-1", "clue-1"], *OTHERS], current="hansom-1")
    for kind in ("pipe", "hat", "glass"):
        state["holdings"][1][kind] = f"{kind}-1"

    assert (
        refused(state, 0, {"type": "play", "card": "fleet-1", "target": 1, "token": "pipe"})
        == "bad_target"
    )
    state = allow(play(state, 0, "fleet-1", target=2, token="glass"), 2)

    assert state["holdings"][2]["glass"] is not None
    assert state["holdings"][0]["glass"] is None


def test_it_plays_fleet_street_without_a_target_when_nobody_lacks_a_token():
    state = table([["fleet-1", "clue-1"], *OTHERS], current="hansom-1")
    for seat in (1, 2):
        for kind in ("pipe", "hat", "glass"):
            state["holdings"][seat][kind] = f"{kind}-{seat}"

    assert rules.legal_actions(state, 0)[0] == {"type": "play", "card": "fleet-1"}
    state = play(state, 0, "fleet-1")

    assert state["turn"]["seat"] == 1


def test_it_shows_two_random_cards_for_a_clue():
    state = table([["clue-1", "arrest-1"], *OTHERS], current="london-1")

    state = allow(play(state, 0, "clue-1", target=2), 2)

    note = state["seen"][0][-1]
    assert note["how"] == "clue" and len(note["cards"]) == 2
    assert set(note["cards"]) <= {"train-1", "clue-2", "moriarty"}
    assert state["seen"][2][-1] == {**note, "from": 0, "how": "shown", "epoch": 0}


def test_it_asks_a_disguised_target_for_one_of_its_highest_cards():
    state = table(
        [["disguise-1", "arrest-1"], ["london-2", "bakerst-1", "bakerst-2"], ["train-1"]],
        current="stokemoran-1",
    )
    state = allow(play(state, 0, "disguise-1", target=1), 1)

    assert rules.legal_actions(state, 1) == [
        {"type": "choose", "card": "bakerst-1"},
        {"type": "choose", "card": "bakerst-2"},
    ]
    assert refused(state, 1, {"type": "choose", "card": "london-2"}) == "not_highest"
    state = act(state, 1, {"type": "choose", "card": "bakerst-2"})[0]

    assert state["seen"][0][-1]["cards"] == ["bakerst-2"]


def test_it_wires_a_telegram_from_the_pool_then_from_a_holder():
    state = table([["telegram-2", "clue-1"], *OTHERS], current="stokemoran-1")
    top = state["pool"]["telegrams"][0]

    state = allow(play(state, 0, "telegram-2", target=1), 1)
    assert state["holdings"][1]["telegrams"] == [top]

    state = table([["telegram-2", "clue-1"], *OTHERS], current="stokemoran-1")
    state["holdings"][0]["telegrams"] = state["pool"]["telegrams"]
    state["pool"]["telegrams"] = []
    assert refused(state, 0, {"type": "play", "card": "telegram-2", "target": 1}) == "bad_token"
    state = allow(play(state, 0, "telegram-2", target=1, token_from=0), 1)
    assert len(state["holdings"][0]["telegrams"]) == 7
    assert len(state["holdings"][1]["telegrams"]) == 1


def test_it_gives_a_card_with_a_constabulary_or_nothing():
    state = table([["constabulary-1", "moran", "clue-1"], *OTHERS], current="westend-1")
    assert refused(state, 0, {"type": "play", "card": "constabulary-1", "give": "moran"}) == (
        "bad_give"
    )

    given = allow(play(state, 0, "constabulary-1", target=1, give="moran"), 1)
    assert given["hands"][1][-1] == "moran" and given["hand_epoch"][0] == 1
    assert rules.view(given, 2)["pending"] is None

    kept = play(state, 0, "constabulary-1")
    assert kept["pending"] is None and kept["turn"]["seat"] == 1


def test_it_shows_a_whole_hand_to_lestrade():
    state = table([["lestrade-1", "clue-1"], *OTHERS], current="baskerville-1")

    state = allow(play(state, 0, "lestrade-1", target=2), 2)

    assert state["seen"][0][-1]["cards"] == ["train-1", "clue-2", "moriarty"]
    assert state["phase"] == "playing" and state["cases_closed"] == 0


def test_it_arrests_a_villain_found_by_sherlock_and_clears_an_innocent_without_penalty():
    state = table([["sherlock", "clue-1"], *OTHERS], current="baskerville-1")
    innocent = allow(play(state, 0, "sherlock", target=1), 1)
    assert innocent["hands"][0] == ["clue-1"] and len(innocent["hands"][1]) == 3

    guilty = allow(play(state, 0, "sherlock", target=2), 2)
    assert guilty["last_case"]["how"] == "guilty"
    # Moriarty 7 + the accused's train and clue 3 + the others' 5 = 15: the token of 10.
    assert guilty["holdings"][0]["books"] == ["A Study in Scarlet"]
    assert guilty["last_case"]["totals"] == [7, 5, 3]


def test_it_swaps_hands_for_mycroft():
    state = table([["mycroft", "clue-1"], *OTHERS], current="london-1")

    state = allow(play(state, 0, "mycroft", target=1, token="pipe"), 1)

    assert state["hands"][0] == ["london-2", "dartmoor-1", "bakerst-1"]
    assert state["hands"][1] == ["clue-1"]


def test_it_drops_a_villain_for_irene_adler():
    state = table([["irene", "moran", "clue-1"], *OTHERS], current="hansom-1")
    assert refused(state, 0, {"type": "play", "card": "irene"}) == "bad_villain"
    assert refused(state, 0, {"type": "play", "card": "irene", "villain": "moriarty"}) == (
        "bad_villain"
    )

    state = play(state, 0, "irene", villain="moran")

    assert state["discard"] == ["irene", "moran"] and state["hands"][0] == ["clue-1"]
    assert state["pending"] is None


def test_it_makes_every_opponent_draw_for_the_prime_minister():
    state = table([["pm", "clue-1"], *OTHERS], current="london-1")

    state = allow(play(state, 0, "pm", token="pipe"), 1, 2)

    assert [len(hand) for hand in state["hands"]] == [1, 4, 4]


def test_it_draws_and_sees_a_card_of_every_opponent_for_the_irregulars():
    state = table([["irregulars", "clue-1"], *OTHERS], current="yard-1")

    state = allow(play(state, 0, "irregulars"), 1, 2)
    assert rules.waiting_for(state) == [1, 2]
    state = act(state, 2, {"type": "choose", "card": "moriarty"})[0]
    state = act(state, 1, {"type": "choose", "card": "bakerst-1"})[0]

    assert len(state["hands"][0]) == 2
    assert [note["cards"] for note in state["seen"][0]] == [["bakerst-1"], ["moriarty"]]


def test_it_shuffles_the_cards_put_into_the_fog_and_deals_them_back():
    state = table([["fog-1", "clue-1"], *OTHERS], current="hansom-1")

    state = play(state, 0, "fog-1")
    assert rules.waiting_for(state) == [0, 1, 2]
    for seat, card in ((0, "clue-1"), (1, "london-2"), (2, "moriarty")):
        state = act(state, seat, {"type": "choose", "card": card})[0]

    dealt = [state["hands"][0][-1], state["hands"][1][-1], state["hands"][2][-1]]
    assert sorted(dealt) == ["clue-1", "london-2", "moriarty"]
    assert state["hand_epoch"] == [1, 1, 1]
