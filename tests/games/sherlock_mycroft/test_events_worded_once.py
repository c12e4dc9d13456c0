"""Each event is worded once: the end's headline and its notification say the very
sentence the log shows last."""

from __future__ import annotations

import json

from games.pages import SeatNames, tell
from games.sherlock_mycroft import rules
from games.sherlock_mycroft.sentences import SENTENCES, headline
from games.sites import get_site

from .helpers import ALICE, BOB, move, play
from .test_scoring import last_move

NAMES = {ALICE: "Alice", BOB: "Bob"}


def the_end():
    before = last_move(alice_cards=["bullet-1", "bullet-2"], bob_cards=["map-1"])
    after, events = play(json.loads(json.dumps(before)), BOB, move("toby", origin="watson"))
    assert rules.is_over(after)
    return before, after, events


def test_the_logs_last_line_is_the_headline_for_each_reader():
    _, after, events = the_end()
    (over,) = [e for e in events if e.type == "game_over"]
    for reader in (ALICE, BOB, None):
        names = SeatNames(NAMES, reader)
        assert tell(SENTENCES, "game_over", over.data, names) == headline(after["result"], names)


def test_the_ends_notification_says_the_logs_last_line():
    before, after, events = the_end()
    site = get_site(rules.NAME)
    (details,) = [d for kind, d in site.notices(before, after, events) if kind == "game_over"]
    details = json.loads(json.dumps(details))  # as the notification's task receives it
    notice = site.notice_text("game_over", "Sherlock & Mycroft", NAMES, details)
    (over,) = [e for e in events if e.type == "game_over"]
    last_line = tell(SENTENCES, "game_over", over.data, SeatNames(NAMES, None))
    assert last_line.startswith("Alice wins")
    assert notice == f"Sherlock & Mycroft is over: {last_line}"
