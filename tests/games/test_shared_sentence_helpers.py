"""The sentence helpers every game's sentences.py words with (games/pages.py and
games/words.py): an event's actor, the words that agree with a seat, the end's notice and a
capital that keeps a name's own capitals."""

from games.pages import SeatNames, over_notice
from games.words import capital

NAMES = SeatNames({0: "Alice", 1: "Bob"}, me=1)


def test_the_actor_is_the_seat_an_event_names_said_as_the_reader_hears_it():
    assert NAMES.actor({"player": 0}) == "Alice"
    assert NAMES.actor({"player": 1}) == "You"
    assert NAMES.actor({"player": 1}, capital=False) == "you"
    assert NAMES.actor({"seat": 0}, key="seat") == "Alice"
    assert NAMES.actor({}) == "Somebody"


def test_a_word_agrees_with_the_member_or_with_anyone_else():
    assert f"{NAMES(1)} {NAMES.agree(1, 'win', 'wins')}" == "You win"
    assert f"{NAMES(0)} {NAMES.agree(0, 'win', 'wins')}" == "Alice wins"
    assert SeatNames({0: "Alice"}, None).agree(0, "your", "their") == "their"


def test_the_end_notice_says_the_headline_after_the_title_or_only_the_title():
    assert over_notice("Table 4", "Alice wins.") == "Table 4 is over: Alice wins."
    assert over_notice("Table 4") == "Table 4 is over."
    assert over_notice("Table 4", "") == "Table 4 is over."


def test_capital_raises_the_first_letter_only():
    assert capital("you and McCarthy won") == "You and McCarthy won"
    assert capital("") == ""
