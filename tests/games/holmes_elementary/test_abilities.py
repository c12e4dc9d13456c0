"""The Action phase: each suit's ability, its targets, and what each player learns."""

from __future__ import annotations

from games.holmes_elementary import rules
from tests.games.holmes_elementary.helpers import act, hand, make_state, refused, seen_by, types


def play(state, card, target=None):
    action = {"type": "play", "card": card}
    if target is not None:
        action["target"] = target
    return act(state, 0, action)


def test_it_shows_the_played_card_to_all_and_discards_it_first():
    state = make_state([["X01", "S02"], ["H01"]], deck=["C01", "C02", "C03"])

    state, events = play(state, "X01")

    assert events[0].type == "played" and events[0].audience == "all"
    assert "X01" in state["discard"]
    assert all("X01" in rules.view(state, seat)["you"]["seen"] for seat in (0, 1))


def test_it_draws_two_for_a_mystery():
    state = make_state([["X01", "S02"], ["H01"]], deck=["C01", "C02", "C03"])

    state, events = play(state, "X01")

    assert hand(state, 0) == ["S02", "C01", "C02"]
    assert events[1].data == {"player": 0, "count": 2, "reason": "mystery"}
    assert state["phase"] == "sleuth"


def test_it_shows_the_top_five_to_a_sherlock_without_moving_them():
    deck = ["C01", "C02", "C03", "C04", "C05", "C07"]
    state = make_state([["X01", "S02"], ["H01"]], deck=deck)

    state, events = play(state, "S02")

    assert state["deck"] == deck
    assert types(events) == ["played", "deck_looked", "deck_top"]
    assert events[2].audience == (0,) and events[2].data["cards"] == deck[:5]
    assert events[1].data == {"player": 0, "count": 5}
    assert '"C01"' not in seen_by(events, 1)


def test_it_shows_fewer_when_the_deck_is_short_and_does_not_reshuffle_for_a_look():
    state = make_state([["X01", "S02"], ["H01"]], deck=["C01"], discard=["M01", "M02"])

    state, events = play(state, "S02")

    assert events[2].data["cards"] == ["C01"] and state["deck"] == ["C01"]


def test_it_draws_one_and_makes_the_target_discard_one_at_random_for_a_help():
    state = make_state([["H02", "S02"], ["X01", "X02", "X03"], ["L01"]], deck=["C01"])

    state, events = play(state, "H02", target=1)

    assert "C01" in hand(state, 0)
    assert len(hand(state, 1)) == 2
    lost = events[-1].data["cards"][0]
    assert events[-1].audience == (1,) and lost in state["discard"]
    assert f'"{lost}"' not in seen_by(events, 0) + seen_by(events, 2)


def test_it_still_draws_for_a_help_on_an_empty_hand():
    state = make_state([["H02", "S02"], []], deck=["C01"])

    state, events = play(state, "H02", target=1)

    assert "C01" in hand(state, 0)
    assert events[-1].data == {"player": 1, "count": 0, "reason": "help"}


def test_it_waits_for_the_target_of_an_action_to_choose_two():
    state = make_state([["A02", "S02"], ["X01", "X02", "X03"]])

    state, events = play(state, "A02", target=1)

    assert rules.waiting_for(state) == [1] and rules.turn(state) == 1
    assert events[-1].data == {"player": 1, "kind": "action", "count": 2}
    assert rules.legal_actions(state, 0) == []
    assert len(rules.legal_actions(state, 1)) == 3
    assert refused(state, 1, {"type": "discard", "cards": ["X01", "X01"]}) == "duplicate_card"
    assert refused(state, 1, {"type": "discard", "cards": ["X01", "S09"]}) == "card_not_in_hand"
    assert refused(state, 1, {"type": "keep", "card": "X01"}) == "wrong_choice"
    assert refused(state, 1, {"type": "pass"}) == "choice_pending"
    state, events = act(state, 1, {"type": "discard", "cards": ["X03", "X01"]})
    assert hand(state, 1) == ["X02"]
    assert (state["phase"], rules.waiting_for(state)) == ("sleuth", [0])


def test_it_discards_at_once_when_the_action_target_holds_two_or_fewer():
    state = make_state([["A02", "S02"], ["X01", "X02"]])

    state, events = play(state, "A02", target=1)

    assert hand(state, 1) == [] and state["pending"] is None
    assert events[-2].data == {"player": 1, "count": 2, "reason": "action"}


def test_it_shows_the_whole_target_hand_to_a_method_player_only():
    state = make_state([["M02", "S02"], ["X01", "X02"], ["L01"]])

    state, events = play(state, "M02", target=1)

    assert events[1].data == {"player": 0, "target": 1}
    assert events[2].audience == (0,) and events[2].data == {"target": 1, "cards": ["X01", "X02"]}
    assert rules.view(state, 0)["you"]["last_look"] == {
        "kind": "hand",
        "target": 1,
        "cards": ["X01", "X02"],
    }
    assert '"X01"' not in seen_by(events, 2)


def test_it_moves_a_random_card_for_a_clue_seen_by_both_only():
    state = make_state([["C02", "S02"], ["X01", "X02"], ["L01"]])

    state, events = play(state, "C02", target=1)

    stolen = events[-1].data["card"]
    assert stolen in hand(state, 0) and stolen not in hand(state, 1)
    assert events[-1].audience == (0, 1)
    assert events[-2].data == {"player": 0, "target": 1, "count": 1}
    assert f'"{stolen}"' not in seen_by(events, 2)


def test_it_lets_a_locale_player_keep_one_of_three():
    state = make_state([["L02", "S02"], ["X01"]], deck=["C01", "C02", "C03", "C04"])

    state, events = play(state, "L02")

    assert hand(state, 0) == ["S02", "C01", "C02", "C03"]  # they wait in the hand
    assert rules.view(state, 0)["you"]["options"][0]["id"] == "C01"
    assert rules.view(state, 1)["you"]["options"] == []
    assert rules.legal_actions(state, 0) == [
        {"type": "keep", "card": card} for card in ("C01", "C02", "C03")
    ]
    assert refused(state, 0, {"type": "keep", "card": "S02"}) == "not_an_option"
    assert refused(state, 0, {"type": "discard", "cards": ["C01"]}) == "wrong_choice"
    state, events = act(state, 0, {"type": "keep", "card": "C02"})
    assert hand(state, 0) == ["S02", "C02"]
    assert types(events) == ["kept", "discarded", "discarded_cards"]
    assert events[1].data == {"player": 0, "count": 2, "reason": "locale"}
    assert state["phase"] == "sleuth"


def test_it_keeps_the_only_locale_card_drawn_at_once():
    state = make_state([["L02", "S02"], ["X01"]], deck=[], discard=[])

    state, events = play(state, "L02")

    # The Locale card itself was reshuffled into the deck and drawn back, alone.
    assert types(events) == ["played", "reshuffled", "drew", "drew_cards", "kept"]
    assert state["pending"] is None and hand(state, 0) == ["S02", "L02"]


def test_it_refuses_bad_plays():
    state = make_state([["H02", "X01"], ["L01"], ["L02"]])

    assert refused(state, 0, {"type": "play", "card": "C09"}) == "card_not_in_hand"
    assert refused(state, 0, {"type": "play", "card": "H02"}) == "target_required"
    assert refused(state, 0, {"type": "play", "card": "X01", "target": 1}) == "no_target"
    assert refused(state, 0, {"type": "play", "card": "H02", "target": 0}) == "bad_target"
    assert refused(state, 0, {"type": "play", "card": "H02", "target": 3}) == "bad_target"
    assert refused(state, 0, {"type": "play", "card": "H02", "target": "1"}) == "bad_target"
    assert refused(state, 0, {"type": "play", "card": 5}) == "malformed_action"
    assert refused(state, 0, {"type": "play", "card": "X01", "why": 1}) == "malformed_action"


def test_it_lists_every_card_against_every_opponent():
    state = make_state([["H02", "X01"], ["L01"], ["L02"]])

    plays = [a for a in rules.legal_actions(state, 0) if a["type"] == "play"]

    assert plays == [
        {"type": "play", "card": "X01"},
        {"type": "play", "card": "H02", "target": 1},
        {"type": "play", "card": "H02", "target": 2},
    ]
