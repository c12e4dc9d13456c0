"""The rulebook's worked example of two detectives bidding for the Port, step by step.

In the rulebook the players are called Marco and Ivan; here alice plays Marco and bob
plays Ivan. The Port carries a police token and alice holds a call-off token.
"""

from tests.games.watson_holmes_helpers import (
    ALICE,
    BOB,
    act,
    new_game,
    refusal,
    token_totals,
    visit,
    with_police_on,
    with_tokens,
)

PORT, SCOTLAND_YARD = 2, 1


def test_it_plays_the_bidding_example_at_the_port():
    state = with_tokens(with_police_on(new_game(2), PORT), ALICE, call_off=1)
    stock = dict(state["stock"])

    # 1. alice plays her call-off on the Port's police token, then bids 1 carriage.
    state, _ = act(state, ALICE, visit(PORT, 1, call_off=True))
    assert state["police"] == []
    assert state["stock"]["police"] == stock["police"] + 1
    assert state["stock"]["call_off"] == stock["call_off"] + 1
    assert state["players"][ALICE]["carriages"] == 9
    assert state["bids"][str(PORT)] == {
        "player": ALICE,
        "carriages": 1,
        "token": None,
        "guests": [],
        "spent": 0,
    }

    # 2. bob wants the Port too: 1 carriage is not enough, 2 outbid alice.
    found = refusal(state, BOB, visit(PORT, 1))
    assert found.message == (
        "The Port is held by alice with 1 carriage; you need at least 2 carriages to outbid."
    )
    state, _ = act(state, BOB, visit(PORT, 2))
    assert state["pawns"] == [None, str(PORT)]
    # alice's single carriage goes to the stock: she gets nothing back.
    assert state["players"][ALICE]["carriages"] == 9
    assert state["stock"]["carriages"] == stock["carriages"] + 1
    assert state["turn"] == ALICE

    # 3. On her next turn alice still wants the Port and bids 3.
    state, _ = act(state, ALICE, visit(PORT, 3))
    assert state["pawns"] == [str(PORT), None]
    # bob takes back one of his two carriages; the other goes to the stock.
    assert state["players"][BOB]["carriages"] == 9
    assert state["stock"]["carriages"] == stock["carriages"] + 2
    assert state["turn"] == BOB

    # 4. bob gives up the Port and walks to Scotland Yard.
    state, events = act(state, BOB, visit(SCOTLAND_YARD))
    assert state["players"][ALICE]["carriages"] == 6
    assert state["players"][BOB]["carriages"] == 9
    # bob placed last, so he takes the Diary; the investigation begins.
    assert state["diary"] == BOB
    assert state["phase"] == "investigation"
    # alice's 3 carriages on the Port are spent.
    assert state["stock"]["carriages"] == stock["carriages"] + 5
    assert token_totals(state) == {"carriages": 57, "police": 6, "call_off": 6, "lockpick": 2}
