"""The server's timer: SYSTEM may time out exactly while a seat is awaited, and each wait
settles in a passive default."""

from games.base import SYSTEM, events_for
from games.sherlock_mycroft import GAME, rules

from .helpers import ALICE, BOB, at_day, event_types, move, place, play, stacked

TIMEOUT = {"type": "timeout"}
LINE = ["button-1", "fingerprint-1", "map-1", "wild-1"]


def test_it_offers_the_timer_exactly_while_a_seat_is_awaited():
    state = stacked()

    assert rules.waiting_for(state) == [ALICE]
    assert rules.legal_actions(state, SYSTEM) == [TIMEOUT]
    assert GAME.rules.deadline_seconds(state) is None


def test_it_times_out_a_move_as_the_first_move_without_ability():
    state, events = play(stacked(), SYSTEM, TIMEOUT)

    assert events[0].type == "timed_out" and events[0].data == {"player": ALICE, "step": "move"}
    assert events[1].data["to"] == "watson" and events[1].data["used"] is False
    assert state["tokens"][ALICE] == 5 and state["turn"] == BOB


def test_it_times_out_onto_a_free_gain_by_using_it():
    state, _ = play(stacked(), ALICE, move("watson"))
    state, _ = play(state, BOB, move("lestrade"))

    state, events = play(state, SYSTEM, TIMEOUT)

    assert events[1].data["to"] == "mrs_hudson" and events[1].data["ability"] == {}
    assert state["tokens"][ALICE] == 8


def test_it_times_out_pike_by_keeping_the_top_card_without_naming_it_to_all():
    state = stacked(top=[*LINE, "bullet-1", "footprint-1"])
    state, _ = play(state, ALICE, move("langdale_pike", {"look": 2}))

    state, events = play(state, SYSTEM, TIMEOUT)

    assert state["hidden"][ALICE] == ["bullet-1"]
    public = str([e.to_dict() for e in events_for(events, BOB)])
    assert "bullet-1" not in public


def test_it_times_out_von_kramms_offer_by_declining():
    state = at_day(
        stacked(day_one=("von_kramm", "toby"), top=LINE),
        2,
        alice=("watson", "mrs_hudson", "lestrade"),
        bob=("watson", "mrs_hudson", "lestrade"),
    )
    state, _ = play(state, ALICE, move("von_kramm", {"take": ["map-1"]}, "watson"))

    state, events = play(state, SYSTEM, TIMEOUT)

    assert state["hidden"][BOB] == [] and state["tokens"][BOB] == 5
    assert "von_kramm_reply" in event_types(events)


def test_it_times_out_a_reserve_by_declining():
    state = stacked(top=LINE, variants={"reserve_card": True})
    state, _ = play(state, ALICE, move("watson"))
    state, _ = play(state, BOB, move("toby"))

    state, _ = play(state, SYSTEM, TIMEOUT)

    assert state["reserved"] == [None, None] and state["turn"] == ALICE


def moriarty_dawn(alice_visible=(), tokens=None) -> dict:
    state = stacked(top=LINE, variants={"moriarty": True})
    place(state, list(alice_visible), "visible", ALICE)
    place(state, ["map-2"], "visible", BOB)
    if tokens is not None:
        state["reserve"] += state["tokens"][ALICE] - tokens
        state["tokens"][ALICE] = tokens
    for character in ("watson", "mrs_hudson", "lestrade"):
        state, _ = play(state, ALICE, move(character))
        state, _ = play(state, BOB, move(character))
    return state


def test_it_times_out_moriarty_with_markers_while_they_are_held():
    state, _ = play(moriarty_dawn(["bullet-1"]), SYSTEM, TIMEOUT)

    assert state["tokens"][ALICE] == 3 and state["visible"][ALICE] == ["bullet-1"]


def test_it_times_out_moriarty_with_the_first_clue_when_markers_are_short():
    state, _ = play(moriarty_dawn(["cigarette-2", "bullet-1"], tokens=1), SYSTEM, TIMEOUT)

    assert state["visible"][ALICE] == ["bullet-1"] and state["tokens"][ALICE] == 1


def test_it_times_out_moran_with_the_first_standing_marker():
    state = stacked(variants={"moran": True})
    for character in ("lestrade", "mrs_hudson", "toby"):
        state, _ = play(state, ALICE, move(character))
        state, _ = play(state, BOB, move(character))

    state, _ = play(state, SYSTEM, TIMEOUT)

    laid = [m["on"] for m in state["markers"][ALICE] if not m["standing"]]
    assert laid == ["mrs_hudson"]  # board order: Watson, Mrs Hudson, Lestrade, ...


def test_it_plays_a_whole_game_on_timeouts_alone():
    state, steps = stacked(variants={"reserve_card": True, "moriarty": True, "moran": True}), 0
    while not rules.is_over(state):
        state, _ = play(state, SYSTEM, TIMEOUT)
        steps += 1

    assert steps < 100 and rules.outcome(state)["result"] in ("win", "draw")
