"""What each player and spectator sees; the action vocabulary the API will document."""

import json

import pytest

from games.base import SYSTEM, events_for
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CARRIAGE_STOP,
    CHARLIE,
    DONE,
    act,
    answers,
    card_text,
    judge,
    new_game,
    play,
    refusal,
    visit,
    with_tokens,
)


def test_it_shows_a_spectator_only_public_information():
    state, events = play(new_game(3), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, CARRIAGE_STOP))
    seen = engine.view(state, None)
    assert seen["you"] is None and seen["viewer"] is None
    assert "secret text" not in json.dumps(seen)
    assert all(player["character"] is None for player in seen["players"])
    assert [e.type for e in events_for(events, None)] == [
        e.type for e in events if e.audience == "all"
    ]


def test_it_shows_everyone_the_public_table():
    state, _ = act(new_game(2), ALICE, visit(2, 3))
    seen = engine.view(state, BOB)
    port = seen["locations"][1]
    assert (port["name"], port["pawn"], port["carriages"], port["police"]) == (
        "The Port",
        ALICE,
        3,
        False,
    )
    assert seen["players"][ALICE]["carriages"] == 7
    assert seen["questions"][0]["ask"] == "Who took the ledger?"
    assert seen["turn"] == BOB and seen["waiting_for"] == [BOB]


def test_it_shows_a_player_their_hidden_character_and_nobody_else():
    state = new_game(3)
    mine = state["players"][BOB]["character"]
    assert engine.view(state, BOB)["you"]["character"] == mine
    assert engine.view(state, ALICE)["players"][BOB]["character"] is None


def test_it_sends_each_card_text_only_to_its_readers():
    state, events = play(new_game(3), (ALICE, visit(2)), (BOB, visit(8)), (CHARLIE, visit(3)))
    for seat, number in [(ALICE, 2), (BOB, 8), (CHARLIE, 3)]:
        shown = json.dumps([e.to_dict() for e in events_for(events, seat)])
        assert card_text(number) in shown
        others = {2, 8, 3} - {number}
        assert not any(card_text(other) in shown for other in others)


def test_it_never_shows_texts_of_cards_nobody_read():
    state, _ = play(new_game(2), (ALICE, visit(2)), (BOB, visit(8)))
    for viewer in (ALICE, BOB, None):
        text = json.dumps(engine.view(state, viewer))
        assert not any(card_text(n) in text for n in (1, 3, 4, 5, 6, 7))


def test_it_hides_written_answers_from_the_other_players():
    state, events = play(new_game(2), (ALICE, BAKER_STREET), (BOB, visit(2)))
    state, events = act(state, ALICE, answers("Jane Roe"))
    assert engine.view(state, ALICE)["you"]["answers"]["culprit"] == "Jane Roe"
    assert "Jane Roe" not in json.dumps(engine.view(state, BOB))
    assert "Jane Roe" not in json.dumps([e.to_dict() for e in events_for(events, BOB)])
    assert engine.view(state, BOB)["players"][ALICE]["answered"] is True


def test_it_tells_the_server_who_may_see_the_solution():
    state, _ = play(new_game(3), (ALICE, BAKER_STREET), (BOB, CARRIAGE_STOP))
    state, _ = play(state, (CHARLIE, CARRIAGE_STOP), (ALICE, answers()))
    assert not any(engine.view(state, seat)["may_see_solution"] for seat in (ALICE, BOB, None))
    state, _ = judge(state, ALICE, "wrong", "wrong")
    assert engine.view(state, ALICE)["may_see_solution"] is True
    assert engine.view(state, BOB)["may_see_solution"] is False
    assert engine.view(state, None)["may_see_solution"] is False


def test_it_returns_views_that_do_not_share_the_state():
    state, _ = play(new_game(2), (ALICE, BAKER_STREET), (BOB, visit(2)), (ALICE, answers()))
    before = json.dumps(state, sort_keys=True)
    seen = engine.view(state, ALICE)
    seen["you"]["answers"]["culprit"] = "changed"
    seen["players"][0]["carriages"] = 99
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize("kind", sorted(engine.ACTIONS))
def test_it_documents_every_action_with_an_example(kind):
    entry = engine.ACTIONS[kind]
    assert entry["description"].endswith(".")
    assert entry["example"]["type"] == kind
    json.dumps(entry)


def test_it_describes_the_judged_action_in_pending_judgement():
    state, _ = play(new_game(1), (ALICE, BAKER_STREET), (ALICE, answers()))
    [pending] = engine.pending_judgement(state)
    state, _ = act(
        state,
        SYSTEM,
        {**pending["action"], "verdicts": dict.fromkeys(pending["answers"], "correct")},
    )
    assert engine.is_over(state)


def test_it_pays_the_carriage_stop_only_what_the_stock_holds():
    state = with_tokens(new_game(2), ALICE, carriages=29)
    state = with_tokens(state, BOB, carriages=27)
    assert state["stock"]["carriages"] == 1
    state, _ = play(state, (ALICE, CARRIAGE_STOP), (BOB, visit(2)), (BOB, DONE))
    assert state["players"][ALICE]["carriages"] == 30
    assert state["stock"]["carriages"] == 0


def test_it_leaves_the_notebook_to_the_server():
    state = new_game(2)
    assert "note" not in engine.ACTIONS
    assert refusal(state, ALICE, {"type": "note", "text": "x"}).code == "unknown_action"
    assert all("notebook" not in player for player in state["players"])
    you = engine.view(state, ALICE)["you"]
    assert "notebook" not in you and you["can_write_notes"] is True
