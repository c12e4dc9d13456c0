"""What all engines share: refusals, events and who may see them."""

import dataclasses

import pytest

from games.base import EVERYONE, SYSTEM, Event, Refusal, can_see, events_for


def test_it_shows_events_for_everyone_to_spectators_and_players():
    event = Event("visited", EVERYONE, {"player": 0})
    assert can_see(event, None) and can_see(event, 3)


def test_it_shows_a_private_event_only_to_its_audience():
    events = [Event("card_read", (1,), {"text": "secret"}), Event("visited")]
    assert [e.type for e in events_for(events, 1)] == ["card_read", "visited"]
    assert [e.type for e in events_for(events, 0)] == ["visited"]
    assert [e.type for e in events_for(events, None)] == ["visited"]


def test_it_freezes_refusals_and_events():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Refusal("x", "y").code = "z"
    with pytest.raises(dataclasses.FrozenInstanceError):
        Event("x").type = "y"


def test_it_serialises_an_event_with_a_list_audience():
    assert Event("card_read", (2,), {"a": 1}).to_dict() == {
        "type": "card_read",
        "audience": [2],
        "data": {"a": 1},
    }


def test_it_calls_the_server_system():
    assert SYSTEM == "system"
