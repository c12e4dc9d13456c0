"""The computer players of I Say, Holmes!: the normal one no longer makes the blunders
issue 40 found."""

from __future__ import annotations

from games.i_say_holmes import rules
from games.i_say_holmes.rules.bot import bot_action
from tests.games.i_say_holmes.helpers import table


def _seen_by(state: dict, watcher: int, seat: int) -> dict:
    """``watcher`` looked at ``seat``'s whole hand, as a Lestrade would show it."""
    shown = list(state["hands"][seat])
    epoch = state["hand_epoch"]
    state["seen"][watcher].append(
        {"from": seat, "cards": shown, "how": "look", "epoch": epoch[seat]}
    )
    state["seen"][seat].append(
        {"from": watcher, "cards": shown, "how": "shown", "epoch": epoch[watcher]}
    )
    return state


def _normal_move(state: dict, seat: int = 0) -> dict:
    legal = rules.legal_actions(state, seat)
    action = bot_action(rules.view(state, seat), seat, legal, 0)
    assert action in legal
    return action


def test_it_drops_a_villain_with_irene_rather_than_drawing():
    # Nothing follows the Hansom Cab; Irene may be played while the story is moving.
    state = table(
        [["moriarty", "irene", "clue-1"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )
    assert {"type": "draw"} in rules.legal_actions(state, 0)

    assert _normal_move(state) == {"type": "play", "card": "irene", "villain": "moriarty"}


def test_it_keeps_its_villain_to_escape_while_nobody_has_seen_it():
    state = table(
        [["moriarty", "irene", "london-2"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )

    assert _normal_move(state) == {"type": "play", "card": "london-2"}


def test_it_drops_a_villain_once_an_opponent_has_just_seen_it():
    state = table(
        [["moriarty", "irene", "london-2"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )
    state = _seen_by(state, watcher=1, seat=0)

    assert _normal_move(state) == {"type": "play", "card": "irene", "villain": "moriarty"}


def test_it_gives_away_a_villain_an_opponent_has_just_seen():
    hands = [["moriarty", "constabulary-1", "bakerst-1"], ["london-1", "clue-1"], ["dartmoor-1"]]
    unseen = table(hands, current="westend-1")
    seen = _seen_by(table(hands, current="westend-1"), watcher=2, seat=0)

    assert _normal_move(unseen)["give"] == "bakerst-1"
    assert _normal_move(seen)["give"] == "moriarty"


def test_it_forgets_a_look_once_its_hand_has_changed_unseen():
    state = table(
        [["moriarty", "irene", "london-2"], ["london-1"], ["dartmoor-1"]], current="hansom-1"
    )
    state = _seen_by(state, watcher=1, seat=0)
    # Then a card left its hand in an Alibi's pass: the look is stale to seat 1.
    state["seen"][0].append({"from": 2, "cards": ["clue-2"], "how": "alibi", "epoch": 0})

    assert _normal_move(state) == {"type": "play", "card": "london-2"}
