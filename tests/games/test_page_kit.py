"""The page kit (games/pages.py) every game's page is built from: one context, one way of
naming seats, and one table of sentences per game, read by the log, the lines under the
status line, the headlines and the notifications."""

import importlib

import pytest

from games import GAMES
from games.pages import (
    PageContext,
    SeatNames,
    log_entries,
    newest_first,
    result_panel,
    turn_sentence,
)
from games.sites import get_site

NAMES = SeatNames({0: "Alice", 1: "Bob", 2: "Carol"}, me=1)


def test_seat_names_say_you_to_the_member_and_name_the_others():
    assert NAMES(1) == "You" and NAMES(1, capital=False) == "you"
    assert NAMES(0) == "Alice" and NAMES.name(1) == "Bob"
    assert NAMES.possessive(1) == "your" and NAMES.possessive(2) == "Carol's"
    assert NAMES.many([1, 0, 2]) == "You, Alice and Carol"
    assert NAMES(7) == "Somebody" and NAMES.many([]) == "nobody"


def test_the_status_line_says_whose_turn_it_is():
    assert turn_sentence(NAMES, 1) == "It is your turn."
    assert turn_sentence(NAMES, 0, "Action phase") == "It is Alice's turn: Action phase."
    assert turn_sentence(NAMES, None) == ""


def test_the_log_tells_events_in_the_games_words_newest_first():
    sentences = {"played": lambda data, names: f"{names(data['player'])} played."}
    happened = [("played", {"player": 0}), ("unknown", {"player": 1}), ("played", {"player": 1})]

    told = log_entries(happened, sentences, NAMES)

    assert [entry["text"] for entry in told] == ["Alice played.", "You played."]
    assert [entry["text"] for entry in newest_first(told, 1)] == ["You played."]


def test_the_context_reads_the_view_and_only_the_events_asked_for():
    view = {
        "game": {"players": [{"seat": 0, "name": "Alice"}], "legal_actions": [{"type": "go"}]},
        "you": {"seat": 0},
        "version": 3,
    }
    asked = []
    context = PageContext(
        view, {0: {"name": "Computer 1"}}, events=lambda kinds: asked.append(kinds) or []
    )

    assert (context.me, context.version, context.by_type["go"]) == (0, 3, [{"type": "go"}])
    assert context.names().name(0) == "Computer 1"  # the table's name now
    assert context.happened(("played",)) == [] and asked == [("played",)]
    assert result_panel("You won.", [0], 0, [])["you_won"] is True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_words_its_events_in_one_table(name):
    sentences = importlib.import_module(f"games.{name}.sentences")
    assert sentences.SENTENCES, name
    assert all(callable(sentence) for sentence in sentences.SENTENCES.values())


def test_the_notifications_word_closed_cases_and_the_end_from_the_tables():
    from games.i_say_holmes.sentences import case_closed_notice
    from games.watson_holmes.sentences import notice

    names = {0: "Alice", 1: "Bob"}
    closed = {"case": 2, "how": "guilty", "seat": 0, "accused": 1}
    i_say = get_site("i_say_holmes")
    assert i_say.notice_text("table_news", "I Say", names, closed) == (
        case_closed_notice("I Say", closed, names)
    )
    assert i_say.notice_text("table_news", "I Say", names, closed) == (
        "I Say: Case 2 is closed: Alice arrested Bob, who was guilty."
    )
    watson = get_site("watson_holmes")
    for kind, details in (
        ("table_news", {"player": 1}),
        ("game_over", {"winners": [0], "rounds": 3}),
    ):
        assert watson.notice_text(kind, "The case", names, details) == (
            notice(kind, "The case", names, details)
        )
