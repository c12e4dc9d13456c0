"""The case game's log: each public event told in a sentence to the member reading it,
newest first, rounds folded; and the board's location cards grouped by zone."""

from games.watson_holmes.log import PUBLIC_EVENTS, game_log
from games.watson_holmes.page import _location_groups

GAME = {
    "players": [
        {"seat": 0, "name": "Alice"},
        {"seat": 1, "name": "Bob"},
        {"seat": 2, "name": "Charlie"},
    ],
    "locations": [
        {"number": 1, "name": "Brandt's Clock Shop"},
        {"number": 3, "name": "Scotland Yard"},
    ],
    "questions": [{"id": "thief", "ask": "Who stole the repeater?"}],
}
ROUND_ONE = [
    ("watson_taken", {"player": 2, "carriages": 4}),
    ("visited", {"player": 0, "location": 1, "carriages": 0, "call_off": False}),
    ("outbid", {"player": 0, "by": 1, "location": 1, "returned": 0, "fee": 0}),
    ("visited", {"player": 1, "location": 1, "carriages": 2, "call_off": False}),
    ("tokens_gained", {"player": 2, "police": 1, "call_off": 0, "lockpick": 0, "carriages": 2}),
]


def sentences(me, events=ROUND_ONE) -> list[str]:
    rounds = game_log(GAME, me, events)
    return [entry["text"] for entry in rounds[0]["entries"]]


def test_it_tells_alice_she_was_outbid_and_must_choose_again():
    told = sentences(0)
    assert "Bob outbid you on 1 · Brandt's Clock Shop with 2 carriages: choose again." in told
    assert "Charlie took Watson (4 carriages)." in told
    assert "You went to 1 · Brandt's Clock Shop on foot." in told
    # The winner's visit is in the outbid's sentence, not told twice.
    assert not any(text.startswith("Bob went to") for text in told)


def test_it_tells_the_others_in_the_third_person_newest_first():
    told = sentences(2)
    assert told[0] == "You gained 2 carriages and 1 police token."
    assert told[1] == "Bob outbid Alice on 1 · Brandt's Clock Shop with 2 carriages."
    assert told[-1] == "You took Watson (4 carriages)."
    assert sentences(None)[-1] == "Charlie took Watson (4 carriages)."  # a spectator


def test_it_opens_this_round_and_folds_the_earlier_ones():
    events = [
        *ROUND_ONE,
        ("round_started", {"round": 2, "diary": 1}),
        ("done_reading", {"player": 1}),
    ]
    rounds = game_log(GAME, 0, events)
    assert [(r["number"], r["open"]) for r in rounds] == [(2, True), (1, False)]
    assert rounds[0]["entries"][0]["text"] == "Bob finished reading."
    assert rounds[0]["entries"][0]["about_you"] is False
    assert rounds[1]["entries"][0]["about_you"] is False  # charlie's tokens
    assert rounds[1]["entries"][1]["about_you"] is True  # alice was outbid


def test_it_tells_the_end_of_attempts_and_of_the_game():
    events = [
        ("eliminated", {"player": 0, "correct": 2, "questions": 3}),
        ("solved", {"player": 1, "place": 1}),
        ("game_over", {"winners": [1], "rounds": 1}),
    ]
    assert sentences(0, events) == [
        "Bob solved the case and won in 1 round.",
        "Bob solved the case (place 1)!",
        "You got 2 of 3 right at 221B and are out of the race.",
    ]


def test_it_reads_only_public_events():
    private = {"card_read", "your_answers", "consultation", "check_result", "ruling_request"}
    assert not private & set(PUBLIC_EVENTS)
    # Given one anyway, it tells nothing of it.
    assert sentences(0, [("card_read", {"text": "The shop ticks like a living thing"})]) == []


def test_it_groups_location_cards_by_zone_in_the_case_order():
    cards = [
        {"number": 1, "zone": "east"},
        {"number": 2, "zone": "west"},
        {"number": 3, "zone": "east"},
        {"number": 4, "zone": None},
    ]
    groups = _location_groups(cards, {"west": "Westminster", "east": "Whitechapel"})
    assert [(g["name"], [c["number"] for c in g["locations"]]) for g in groups] == [
        ("Zone: Westminster", [2]),
        ("Zone: Whitechapel", [1, 3]),
        ("Other locations", [4]),
    ]
    assert _location_groups(cards, {})[0]["name"] == "Locations"


def test_it_tells_that_a_player_who_wrote_no_answers_in_time_is_not_judged():
    events = [("timeout", {"phase": "investigation", "step": "reading"})]
    events.append(("not_judged", {"player": 1}))
    assert sentences(1, events)[0] == (
        "Time ran out before you wrote answers at 221B: not judged, you play on."
    )
    assert sentences(0, events)[0] == (
        "Time ran out before Bob wrote answers at 221B: not judged, Bob plays on."
    )
