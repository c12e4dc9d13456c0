"""Each event is worded once: a trip to 221B's notification and the end's headline and
notification say the very sentences the log shows."""

from __future__ import annotations

import json

from games.sites import get_site
from games.watson_holmes import rules as engine
from games.watson_holmes.log import game_log
from games.watson_holmes.sentences import CaseNames, headline
from tests.games.test_watson_holmes_solving import at_221b
from tests.games.watson_holmes_helpers import ALICE, BAKER_STREET, BOB, act, judge, new_game

NAMES = {ALICE: "Alice", BOB: "Bob"}
TITLE = "The Clerkenwell Repeater"
GAME = {
    "players": [{"seat": seat, "name": name} for seat, name in NAMES.items()],
    "locations": [],
    "questions": [],
}


def log_line(kind: str, events, me=None) -> str:
    """The log's sentence for the one public event of ``kind``, as ``me`` reads it."""
    public = [(e.type, e.data) for e in events if e.audience == "all"]
    entries = [e for r in game_log(GAME, me, public) for e in r["entries"] if e["kind"] == kind]
    (entry,) = entries
    return entry["text"]


def notified(before, after, events, kind) -> str:
    site = get_site(engine.NAME)
    (details,) = [d for k, d in site.notices(before, after, events) if k == kind]
    details = json.loads(json.dumps(details))  # as the notification's task receives it
    return site.notice_text(kind, TITLE, NAMES, details)


def test_a_trip_to_221b_is_notified_in_the_logs_sentence():
    before = new_game(2)
    after, events = act(json.loads(json.dumps(before)), before["turn"], BAKER_STREET)
    line = log_line("went_to_baker_street", events)
    assert "went to 221B Baker Street" in line
    assert notified(before, after, events, "table_news") == f"{TITLE}: {line}"


def test_the_end_is_told_by_its_headline_in_the_log_and_the_notification():
    before = at_221b(new_game(2), ALICE, BOB)
    before, _ = judge(before, ALICE, "correct", "correct")
    after, events = judge(json.loads(json.dumps(before)), BOB, "wrong", "wrong")
    assert engine.is_over(after)
    for reader in (ALICE, BOB, None):
        line = log_line("game_over", events, reader)
        assert line == headline(after["result"], CaseNames(GAME, reader))
    line = log_line("game_over", events)
    assert line.startswith("Alice solved the case and won in ")
    assert notified(before, after, events, "game_over") == f"{TITLE} is over: {line}"
