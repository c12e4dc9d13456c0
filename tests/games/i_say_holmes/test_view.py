"""What each seat may see: its own hand, public counts, never another hand or a token id."""

import json

from games.base import events_for
from games.i_say_holmes import GAME, rules
from tests.games.i_say_holmes.helpers import act, new_game, play, table


def test_it_shows_a_seat_its_hand_and_everyone_the_counts():
    state = new_game(4, 12)

    mine = rules.view(state, 0)
    spectator = rules.view(state, None)

    assert mine["viewer"] == 0 and mine["you"]["seat"] == 0
    assert [card["id"] for card in mine["you"]["hand"]] == state["hands"][0]
    assert mine["you"]["hand"][0] == {
        "id": "suspicion-1",
        "title": "Suspicion",
        "type": "information",
        "cp": 1,
        "follows": ["Act", "T"],
        "instruction": "Another player draws a card.",
        "counter": "alibi_or_mastermind",
    }
    assert [seat["hand_count"] for seat in spectator["seats"]] == [5, 6, 6, 6]
    assert spectator["you"] is None
    assert spectator["current"]["card"]["id"] == "afoot" and spectator["current"]["holder"] == 1
    assert spectator["turn"]["seat"] == 1 and spectator["waiting_for"] == [1]
    for seat in (1, 2, 3):
        assert '"suspicion-1"' not in json.dumps(rules.view(state, seat))


def test_it_never_shows_token_ids_or_values_before_the_end():
    state = new_game(4, 12)
    state["holdings"][1]["pipe"] = state["pool"]["pipe"].pop(0)

    for viewer in (None, 0, 1):
        seen = json.dumps(rules.view(state, viewer))
        assert "pipe-" not in seen and "tg" not in seen
        assert rules.view(state, viewer)["seats"][1]["i_say"] == ["pipe"]


def test_it_keeps_a_gift_secret_from_the_others():
    state = table(
        [["constabulary-1", "moran", "clue-1"], ["london-2"], ["train-1"]], current="westend-1"
    )

    state, events = act(
        state, 0, {"type": "play", "card": "constabulary-1", "target": 1, "give": "moran"}
    )
    assert rules.view(state, 2)["pending"]["gift"] is True
    state, events = act(state, 1, {"type": "allow"})

    outsider = json.dumps([e.to_dict() for e in events_for(events, 2)])
    assert "moran" not in outsider and "moran" not in json.dumps(rules.view(state, 2))
    assert rules.view(state, 0)["you"]["seen"][-1]["how"] == "give"
    assert GAME.private_items(state, 1) == {'"london-2"'}


def test_it_tells_only_the_drawer_what_was_drawn():
    state = table(
        [["dartmoor-2", "clue-1"], ["london-2"], ["train-1"]],
        current="hansom-1",
        draw_top=("moran",),
    )

    state, events = act(state, 0, {"type": "draw"})

    assert rules.view(state, 0)["you"]["drawn"]["id"] == "moran"
    assert "moran" not in json.dumps([e.to_dict() for e in events_for(events, 1)])
    assert '"moran"' in GAME.private_items(state, 0)


def test_it_shows_the_examiner_and_the_target_what_a_look_revealed():
    state = table(
        [["lestrade-1", "clue-1"], ["london-2"], ["train-1", "moriarty"]], current="baskerville-1"
    )

    state = play(state, 0, "lestrade-1", target=2)
    state, events = act(state, 2, {"type": "allow"})

    note = rules.view(state, 0)["you"]["seen"][-1]
    assert [card["id"] for card in note["cards"]] == ["train-1", "moriarty"]
    assert note["from"] == 2 and note["epoch"] == 0
    assert "moriarty" not in json.dumps([e.to_dict() for e in events_for(events, 1)])
    assert GAME.private_items(state, 2) == set()
