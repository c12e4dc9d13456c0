"""Out of the game: from elimination on (or a play-on win), a player only speaks for Sherlock.

An eliminated player may rule on a Holmes check the checker was unsure about, and nothing
else: no character, no discard, no Holmes card, no reading. A play-on winner waits for the
end of the game. Each refusal leaves the state untouched.
"""

import json

import pytest

from games.base import SYSTEM, Refusal
from games.watson_holmes import rules as engine
from tests.games.watson_holmes_helpers import (
    ALICE,
    BAKER_STREET,
    BOB,
    CARRIAGE_STOP,
    CHARLIE,
    act,
    answers,
    judge,
    new_game,
    play,
    refusal,
    visit,
    with_character,
    with_tokens,
)

STANDALONE = ("lestrade", "irene_adler", "mycroft", "mrs_hudson")
DISCARD = {"type": "discard_character"}


def use(name: str) -> dict:
    return {"type": "character", "character": name}


def alice_out(status: str, players: int = 3) -> dict:
    """alice went to 221B in round 1 and is now ``eliminated`` or a play-on ``won``ner.

    Round 2 is in its visiting phase; its Diary holder (charlie, who placed last) is on turn.
    """
    state = new_game(players, play_on=status == "won")
    moves = [(ALICE, BAKER_STREET)] + [(seat, CARRIAGE_STOP) for seat in range(1, players)]
    state, _ = play(state, *moves, (ALICE, answers()))
    verdict = "correct" if status == "won" else "wrong"
    state, _ = judge(state, ALICE, verdict, verdict)
    assert state["players"][ALICE]["status"] == status
    assert state["phase"] == "visiting" and state["round"] == 2
    return state


def as_the_server_would(state: dict, seat: int, action: dict) -> dict:
    """The state after trying ``action``: the new one if it is accepted, else the same."""
    result = engine.apply(state, seat, action)
    return state if isinstance(result, Refusal) else result[0]


def refused_without_change(state: dict, seat: int, action: dict) -> str:
    before = json.dumps(state, sort_keys=True)
    found = refusal(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    assert found.message.endswith(".")
    return found.code


@pytest.mark.parametrize("status", ["eliminated", "won"])
def test_it_refuses_lestrade_to_a_player_out_of_the_game(status):
    state = with_character(alice_out(status), ALICE, "lestrade")
    stock = dict(state["stock"])
    assert refused_without_change(state, ALICE, use("lestrade")) == "not_playing"
    assert state["stock"] == stock


@pytest.mark.parametrize("status", ["eliminated", "won"])
def test_it_refuses_a_discard_to_a_player_out_of_the_game(status):
    state = with_character(alice_out(status), ALICE, "billy")
    assert refused_without_change(state, ALICE, DISCARD) == "not_playing"


@pytest.mark.parametrize("status", ["eliminated", "won"])
def test_it_refuses_irene_adler_to_a_player_out_of_the_game(status):
    state = with_character(alice_out(status), ALICE, "irene_adler")
    assert refused_without_change(state, ALICE, use("irene_adler")) == "not_playing"


def test_it_leaves_the_notebooks_of_the_players_still_in_open_whatever_an_eliminated_irene():
    state = with_character(alice_out("eliminated"), ALICE, "irene_adler")
    state = as_the_server_would(state, ALICE, use("irene_adler"))
    state, _ = play(state, (CHARLIE, visit(2)), (BOB, visit(8)))
    assert state["phase"] == "investigation"
    assert engine.view(state, BOB)["you"]["can_write_notes"] is True
    assert engine.view(state, CHARLIE)["you"]["can_write_notes"] is True


@pytest.mark.parametrize("status", ["eliminated", "won"])
def test_it_refuses_mycroft_to_a_player_out_of_the_game(status):
    state = with_character(alice_out(status), ALICE, "mycroft")
    assert refused_without_change(state, ALICE, use("mycroft")) == "not_playing"


def test_it_never_waits_for_an_eliminated_mycroft_in_the_reading():
    state = with_character(alice_out("eliminated"), ALICE, "mycroft")
    state = as_the_server_would(state, ALICE, use("mycroft"))
    state, _ = play(state, (CHARLIE, visit(2)), (BOB, visit(8)))
    assert engine.view(state, None)["waiting_for"] == [BOB, CHARLIE]
    state, _ = play(state, (BOB, {"type": "done_reading"}), (CHARLIE, {"type": "done_reading"}))
    assert state["round"] == 3, "the round ends without a server timeout"


@pytest.mark.parametrize("name", STANDALONE)
def test_it_refuses_every_character_to_an_eliminated_player_in_the_round_they_fell(name):
    # bob is still to be judged: alice, eliminated first, has a pawn on 221B this round.
    state = with_character(new_game(3), ALICE, name)
    state, _ = play(state, (ALICE, BAKER_STREET), (BOB, BAKER_STREET), (CHARLIE, CARRIAGE_STOP))
    state = with_tokens(state, ALICE, carriages=11)  # alice is judged first
    state, _ = play(state, (ALICE, answers()), (BOB, answers()))
    state, _ = judge(state, ALICE, "wrong", "wrong")
    assert state["step"] == "solving"
    assert refused_without_change(state, ALICE, use(name)) == "not_playing"
    assert refused_without_change(state, ALICE, DISCARD) == "not_playing"


def test_it_lists_nothing_but_rulings_for_a_player_out_of_the_game():
    state = alice_out("eliminated")
    state = with_character(state, ALICE, "lestrade")
    assert engine.legal_actions(state, ALICE) == []
    state, _ = act(state, CHARLIE, CARRIAGE_STOP)
    state, _ = act(state, BOB, {"type": "holmes_check", "question": "culprit", "answer": "x"})
    [pending] = engine.pending_judgement(state)
    request = pending["request"]
    state, _ = act(
        state, SYSTEM, {"type": "judged", "request": request, "verdicts": {"culprit": "unsure"}}
    )
    assert {a["type"] for a in engine.legal_actions(state, ALICE)} == {"rule"}


def test_it_keeps_an_irene_revealed_in_the_game_acting_to_the_end_of_that_round():
    state = with_character(with_tokens(new_game(3), ALICE, carriages=11), ALICE, "irene_adler")
    state, _ = act(state, ALICE, use("irene_adler"))
    state, _ = play(state, (ALICE, BAKER_STREET), (BOB, BAKER_STREET), (CHARLIE, visit(2)))
    state, _ = play(
        state, (ALICE, answers()), (BOB, answers()), (CHARLIE, {"type": "done_reading"})
    )
    state, _ = judge(state, ALICE, "wrong", "wrong")
    assert state["players"][ALICE]["status"] == "eliminated" and state["round"] == 1
    assert engine.view(state, CHARLIE)["you"]["can_write_notes"] is False
    state, _ = act(state, BOB, answers())
    state, _ = judge(state, BOB, "wrong", "wrong")
    assert state["round"] == 2
    assert engine.view(state, CHARLIE)["you"]["can_write_notes"] is True
