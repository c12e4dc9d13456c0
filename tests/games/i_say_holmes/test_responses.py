"""Response windows: who is waited for, Alibis, Masterminds, several targets, timeouts."""

from games.base import SYSTEM
from games.i_say_holmes import rules
from games.i_say_holmes.rules.actions import autoplay_seed
from games.i_say_holmes.rules.bot import bot_action
from tests.games.i_say_holmes.helpers import act, allow, play, refused, table


def test_it_waits_for_a_target_that_holds_no_interrupt():
    state = table(
        [["suspicion-4", "clue-1"], ["london-2", "dartmoor-1"], ["bakerst-1"]],
        current="stokemoran-1",
    )

    state = play(state, 0, "suspicion-4", target=1)

    assert rules.waiting_for(state) == [1]
    assert rules.legal_actions(state, 1) == [{"type": "allow"}]
    assert rules.legal_actions(state, SYSTEM) == [
        {"type": "timeout"},
        {"type": "autoplay", "seat": 1},
    ]
    assert rules.deadline_seconds(state) == 30
    assert rules.view(state, 2)["pending"]["waiting_for"] == [1]
    assert refused(state, 2, {"type": "allow"}) == "not_waiting_for_you"
    assert refused(state, 1, {"type": "play", "card": "london-2"}) == "wrong_step"
    assert refused(state, 0, {"type": "draw"}) == "not_your_turn"


def test_it_refuses_an_alibi_against_a_mastermind_only_instruction():
    state = table(
        [["telegram-2", "clue-1"], ["alibi-1", "dartmoor-1"], ["bakerst-1"]], current="stokemoran-1"
    )

    state = play(state, 0, "telegram-2", target=1)

    assert refused(state, 1, {"type": "counter", "card": "alibi-1"}) == "alibi_not_allowed"
    assert refused(state, 1, {"type": "counter", "card": "dartmoor-1"}) == "not_an_interrupt"


def test_it_lets_an_alibi_counter_and_pass_a_card_right_from_every_hand():
    state = table(
        [["suspicion-4", "clue-1"], ["alibi-1", "dartmoor-1"], ["bakerst-1", "train-1"]],
        current="stokemoran-1",
    )
    state = play(state, 0, "suspicion-4", target=1)

    state = act(state, 1, {"type": "counter", "card": "alibi-1"})[0]

    assert state["current"] == {"card": "alibi-1", "holder": 1}
    assert state["discard"] == ["stokemoran-1", "suspicion-4"]
    assert rules.waiting_for(state) == [0, 1, 2]
    state = act(state, 0, {"type": "choose", "card": "clue-1"})[0]
    state = act(state, 1, {"type": "choose", "card": "dartmoor-1"})[0]
    state = act(state, 2, {"type": "choose", "card": "train-1"})[0]
    assert state["hands"] == [["dartmoor-1"], ["train-1"], ["bakerst-1", "clue-1"]]
    assert state["hand_epoch"] == [1, 1, 1]
    assert state["seen"][0][-1] == {"from": 2, "cards": ["clue-1"], "how": "alibi", "epoch": 1}
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "play"


def test_it_lets_a_mastermind_move_every_hand_right_and_take_the_turn():
    state = table(
        [["clue-1", "dartmoor-1"], ["hansom-5", "london-2"], ["mastermind-1", "train-1"]],
        current="london-1",
    )
    state = play(state, 0, "clue-1", target=2)

    state = act(state, 2, {"type": "counter", "card": "mastermind-1"})[0]

    assert state["hands"] == [["hansom-5", "london-2"], ["train-1"], ["dartmoor-1"]]
    assert state["current"] == {"card": "clue-1", "holder": 2}
    assert state["turn"]["seat"] == 2 and state["turn"]["step"] == "play"
    assert state["discard"][-1] == "mastermind-1"


def test_it_gives_the_current_card_to_a_mastermind_against_an_i_say_card():
    state = table(
        [["lestrade-1", "dartmoor-1"], ["hansom-5", "london-2"], ["mastermind-1", "train-1"]],
        current="westend-1",
    )
    state = play(state, 0, "lestrade-1", target=2)

    state = act(state, 2, {"type": "counter", "card": "mastermind-1"})[0]

    assert state["current"] == {"card": "westend-1", "holder": 2}
    assert state["seen"][0] == [
        {"from": 2, "cards": ["dartmoor-1"], "how": "mastermind", "epoch": 1}
    ]


def test_it_hides_answers_of_a_window_with_several_targets_until_all_are_in():
    state = table(
        [
            ["pm", "dartmoor-1"],
            ["mastermind-1", "london-2"],
            ["mastermind-2", "train-1"],
            ["hansom-5"],
        ],
        current="yard-1",
    )
    state = play(state, 0, "pm")
    assert rules.waiting_for(state) == [1, 2, 3]

    state = act(state, 3, {"type": "allow"})[0]
    state = act(state, 2, {"type": "counter", "card": "mastermind-2"})[0]
    assert rules.view(state, 0)["pending"]["answered"] == [2, 3]
    assert "mastermind-2" in state["hands"][2]
    state = act(state, 1, {"type": "counter", "card": "mastermind-1"})[0]

    # Seat 1 is the first counter clockwise from the player: its Mastermind wins.
    assert state["current"] == {"card": "yard-1", "holder": 1}
    assert "mastermind-2" in state["hands"][1]  # seat 2's kept card moved right with its hand
    assert state["discard"][-1] == "mastermind-1"


def test_it_times_out_a_window_with_the_answer_each_computer_player_would_give():
    state = table(
        [["pm", "dartmoor-1"], ["mastermind-1", "london-2"], ["train-1"], ["hansom-5"]],
        current="yard-1",
    )
    state = play(state, 0, "pm")

    timed_out = act(state, SYSTEM, {"type": "timeout"})[0]

    # The same as each waiting seat, in turn, making the computer player's answer from
    # its own view: here all three let the Prime Minister's draws happen.
    answered = state
    for seat in (1, 2, 3):
        legal = rules.legal_actions(answered, seat)
        choice = bot_action(rules.view(answered, seat), seat, legal, autoplay_seed(answered, seat))
        assert choice == {"type": "allow"}
        answered = act(answered, seat, choice)[0]
    assert timed_out == answered
    assert [len(hand) for hand in timed_out["hands"]] == [1, 3, 2, 2]
    assert "mastermind-1" in timed_out["hands"][1]


def test_a_timed_out_target_holding_a_villain_counters_as_the_computer_would():
    state = table(
        [["arrest-1", "dartmoor-1"], ["alibi-1", "moriarty", "london-2"], ["train-1"]],
        current="clue-3",
    )
    state = play(state, 0, "arrest-1", target=1)

    state, events = act(state, SYSTEM, {"type": "timeout"})

    # Not simply allowed: the Alibi saves the villain, and the case goes on.
    countered = [event.data for event in events if event.type == "countered"]
    assert countered == [{"seat": 1, "card": "alibi-1", "instruction": "ARREST"}]
    assert state["cases_closed"] == 0 and state["current"]["card"] == "alibi-1"


def test_it_lets_the_server_autoplay_one_seat_with_the_computer_player():
    state = table(
        [["arrest-1", "dartmoor-1"], ["alibi-1", "moriarty", "london-2"], ["train-1"]],
        current="clue-3",
    )
    state = play(state, 0, "arrest-1", target=1)
    assert refused(state, SYSTEM, {"type": "autoplay", "seat": 2}) == "not_waiting_for_seat"
    assert refused(state, 1, {"type": "timeout"}) == "system_only"

    state = act(state, SYSTEM, {"type": "autoplay", "seat": 1})[0]

    assert state["current"]["card"] == "alibi-1"


def test_it_times_out_a_turn_with_the_computer_players_move():
    state = table([["london-2", "clue-1"], ["dartmoor-1"], ["train-1"]], current="hansom-1")

    state = act(state, SYSTEM, {"type": "timeout"})[0]

    assert state["current"]["card"] == "london-2"
    assert allow(state) == state
