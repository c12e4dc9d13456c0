"""Each event is worded once: a closed case's line above the status and its
notification, and the end's headline and notification, say the very sentences the log
shows."""

from __future__ import annotations

import json

from games.i_say_holmes import rules
from games.i_say_holmes.sentences import SENTENCES, case_closed, headline
from games.pages import SeatNames, tell
from games.sites import get_site
from tests.games.i_say_holmes.helpers import act, table

NAMES = {0: "Alice", 1: "Bob", 2: "Carol"}
TITLE = "I Say, Holmes!"


def guilty_arrest(**options):
    """Alice arrests Carol, who holds Moriarty: case 1 closes."""
    before = table(
        [["arrest-1", "clue-1"], ["london-2", "bakerst-1"], ["train-1", "moriarty"]],
        current="clue-3",
        **options,
    )
    middle, _ = act(before, 0, {"type": "play", "card": "arrest-1", "target": 2})
    after, events = act(json.loads(json.dumps(middle)), 2, {"type": "allow"})
    return middle, after, events


def notified(before, after, events, kind):
    site = get_site(rules.NAME)
    (details,) = [d for k, d in site.notices(before, after, events) if k == kind]
    details = json.loads(json.dumps(details))  # as the notification's task receives it
    return site.notice_text(kind, TITLE, NAMES, details)


def public(events, kind):
    (found,) = [e for e in events if e.type == kind and e.audience == "all"]
    return found


def test_a_closed_case_is_told_in_one_sentence_everywhere():
    before, after, events = guilty_arrest()
    closed = public(events, "case_closed")
    for reader in (0, 1, None):
        names = SeatNames(NAMES, reader)
        line = tell(SENTENCES, "case_closed", closed.data, names)
        assert line == case_closed(after["last_case"], names)  # the line above the status
    spectator = tell(SENTENCES, "case_closed", closed.data, SeatNames(NAMES, None))
    assert spectator == "Case 1 is closed: Alice arrested Carol, who was guilty."
    assert notified(before, after, events, "table_news") == f"{TITLE}: {spectator}"


def test_the_ends_notification_says_the_logs_last_line():
    before, after, events = guilty_arrest(max_cases=1)
    assert rules.is_over(after)
    over = public(events, "game_over")
    for reader in (0, 2):
        names = SeatNames(NAMES, reader)
        assert tell(SENTENCES, "game_over", over.data, names) == headline(after["result"], names)
    last_line = tell(SENTENCES, "game_over", over.data, SeatNames(NAMES, None))
    assert notified(before, after, events, "game_over") == f"{TITLE} is over: {last_line}"
