"""Arrests, escapes and Impromptu Arrests."""

from games.i_say_holmes import rules
from games.i_say_holmes.rules import settling
from tests.games.i_say_holmes.helpers import act, allow, play, refused, table


def test_it_makes_an_innocent_arrest_cost_the_arrester():
    state = table(
        [["arrest-1", "clue-1"], ["london-2", "dartmoor-1", "bakerst-1"], ["train-1", "moran"]],
        current="clue-3",
    )

    state = allow(play(state, 0, "arrest-1", target=1), 1)

    assert state["hands"][0] == ["clue-1", "london-2", "dartmoor-1", "bakerst-1"]
    assert len(state["hands"][1]) == 3 and state["hand_epoch"][1] == 1
    assert state["seen"][0][-1]["how"] == "arrest"
    assert state["turn"]["seat"] == 1


def test_it_closes_a_case_on_a_guilty_arrest():
    state = table(
        [["arrest-1", "clue-1"], ["london-2", "moran", "bakerst-1"], ["train-1", "moriarty"]],
        current="clue-3",
    )

    state, events = act(state, 0, {"type": "play", "card": "arrest-1", "target": 2})
    state, events = act(state, 2, {"type": "allow"})

    # The arrester keeps Moriarty (7); seat 1 loses Moran: 7 + 4 + 1 = 12.
    assert state["last_case"] == {
        "case": 1,
        "how": "guilty",
        "seat": 0,
        "accused": 2,
        "villains": ["Professor Moriarty"],
        "totals": [7, 4, 1],
        "grand_total": 12,
        "book": "A Study in Scarlet",
    }
    assert state["cases_closed"] == 1
    public = [event.type for event in events if event.audience == "all"]
    assert public[public.index("arrest") :][:4] == [
        "arrest",
        "case_closed",
        "case_started",
        "played",
    ]


def test_it_deals_the_next_case_itself():
    state = table(
        [["arrest-1", "clue-1"], ["london-2", "bakerst-1"], ["train-1", "moriarty"]],
        current="clue-3",
    )
    state = allow(play(state, 0, "arrest-1", target=2), 2)

    assert state["case"] == 2 and state["current"]["card"] == "afoot"
    assert sorted(len(hand) for hand in state["hands"]) == [5, 6, 6]
    assert state["seen"] == [[], [], []] and state["pending"] is None
    # The afoot holder's left neighbour is on turn, and nobody has a next_case to send.
    opener = state["current"]["holder"]
    assert rules.waiting_for(state) == [opener] and state["turn"]["step"] == "play"
    assert not any(
        action["type"] == "next_case"
        for seat in range(3)
        for action in rules.legal_actions(state, seat)
    )
    assert refused(state, opener, {"type": "next_case"}) == "wrong_step"
    assert state["last_case"]["case"] == 1  # the closed case's news stays in every view


def test_a_game_saved_between_two_cases_still_waits_for_its_closer_to_deal():
    state = table(
        [["arrest-1", "clue-1"], ["london-2", "bakerst-1"], ["train-1", "moriarty"]],
        current="clue-3",
    )
    # How a case break was stored before the rules dealt the next case themselves.
    state.update(current=None, pending={"kind": "next_case", "seat": 0}, cases_closed=1)
    state["turn"]["step"] = None

    assert rules.waiting_for(state) == [0]
    assert rules.legal_actions(state, 0) == [{"type": "next_case"}]
    state = act(state, 0, {"type": "next_case"})[0]

    assert state["case"] == 2 and state["pending"] is None
    assert rules.waiting_for(state) == [state["current"]["holder"]]


def test_it_lets_a_hand_of_villains_and_interrupts_escape():
    state = table(
        [["mycroft", "moriarty", "alibi-1"], ["london-2", "bakerst-1"], ["dartmoor-1"]],
        current="yard-1",
    )
    state["holdings"][2]["villains"] = ["moriarty"]  # escaped in an earlier case
    state["pool"]["villains"].remove("moriarty")

    # Swapping hands hands seat 1 nothing but Moriarty and an Alibi: it escapes at once.
    state, events = act(state, 0, {"type": "play", "card": "mycroft", "target": 1})
    state, events = act(state, 1, {"type": "allow"})

    assert state["last_case"] == {
        "case": 1,
        "how": "escape",
        "seat": 1,
        "hand": ["Professor Moriarty", "Alibi"],
        "villains": ["Professor Moriarty"],
    }
    assert state["holdings"][1]["villains"] == ["moriarty"]
    assert state["holdings"][2]["villains"] == []
    assert "escape" in [event.type for event in events]


def test_it_starts_an_impromptu_arrest_when_a_hand_empties():
    state = table(
        [["clue-1"], ["london-2", "bakerst-1"], ["train-1", "dartmoor-1", "alibi-1"]],
        current="london-1",
    )

    state = allow(play(state, 0, "clue-1", target=1), 1)

    assert state["pending"] == {"kind": "accuse", "seat": 0}
    assert rules.legal_actions(state, 0) == [
        {"type": "accuse", "target": 1},
        {"type": "accuse", "target": 2},
    ]
    assert refused(state, 0, {"type": "accuse", "target": 0}) == "bad_target"
    state = act(state, 0, {"type": "accuse", "target": 2})[0]
    assert rules.view(state, 1)["pending"]["alibi"] is True
    state = act(state, 2, {"type": "counter", "card": "alibi-1"})[0]
    # The Alibi is discarded, a card passes right from every hand holding one ...
    for seat, card in ((1, "london-2"), (2, "train-1")):
        state = act(state, seat, {"type": "choose", "card": card})[0]
    # ... and the arrester, whatever they hold now, accuses someone who has not countered.
    assert state["pending"] == {"kind": "accuse", "seat": 0}
    assert refused(state, 0, {"type": "accuse", "target": 2}) == "bad_target"
    state = act(state, 0, {"type": "accuse", "target": 1})[0]
    state = allow(state, 1)

    assert state["hands"][0] == ["london-2", "bakerst-1", "train-1"]
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "play"
    assert state["impromptu"] is None


def test_it_has_the_first_seat_with_an_empty_hand_accuse_next():
    state = table([["clue-1"], ["london-2"], ["alibi-1"]], current="london-1")
    state = allow(play(state, 0, "clue-1", target=1), 1)
    state = act(state, 0, {"type": "accuse", "target": 1})[0]
    state = allow(state, 1)

    # Seat 0 took seat 1's London and seat 1 drew one; seat 2 holds only an Alibi.
    assert state["pending"] == {"kind": "accuse", "seat": 2}


def test_it_closes_a_cold_case_when_nobody_is_left_to_accuse():
    state = table([["alibi-1"], [], []], current="london-1")
    state["resume"] = "next"

    settling.settle(state)

    assert state["last_case"] == {"case": 1, "how": "cold", "seat": 0, "why": "nobody_to_accuse"}
