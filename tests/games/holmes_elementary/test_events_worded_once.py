"""Each event is worded once: the notice beside the status line and the end's
notification say the very sentences the log shows."""

from __future__ import annotations

import json

from games.holmes_elementary import rules
from games.holmes_elementary.sentences import SENTENCES, wrong_guess_notice
from games.pages import SeatNames, tell
from games.sites import get_site
from tests.games.holmes_elementary.helpers import act, make_state

NAMES = {0: "Alice", 1: "Bob"}
CASE = ["X01", "S02", "H03", "A05", "M06", "C07", "L10"]


def logged(events, seat) -> list[str]:
    """The log's lines for ``seat``, oldest first."""
    names = SeatNames(NAMES, seat)
    seen = [e for e in events if e.audience == "all" or seat in e.audience]
    return [text for e in seen if (text := tell(SENTENCES, e.type, e.data, names))]


def test_a_wrong_guess_is_told_beside_the_status_in_the_logs_sentences():
    state = make_state([["X01", "S02"], ["H01"]], phase="deduction")
    state, events = act(state, 0, {"type": "guess", "suit": "C", "rank": 3})
    notice = wrong_guess_notice([(e.type, e.data) for e in events], 0)
    told = [e.type for e in events if tell(SENTENCES, e.type, e.data, SeatNames(NAMES, 0))]
    assert {"guessed", "spot_seen", "discarded"} <= set(told)
    lines = logged(events, 0)
    for kind in ("guessed", "spot_seen", "discarded"):
        line = lines[told.index(kind)]
        assert line in notice, (kind, line, notice)


def end_of_a_game(state):
    site = get_site(rules.NAME)
    before = json.loads(json.dumps(state))
    after, events = act(state, 0, {"type": "solve", "cards": CASE})
    (details,) = [d for kind, d in site.notices(before, after, events) if kind == "game_over"]
    details = json.loads(json.dumps(details))  # as the notification's task receives it
    return site.notice_text("game_over", "The Elementary deck", NAMES, details), events


def test_the_ends_notification_says_the_logs_last_line():
    state = make_state([CASE, ["H01"]], phase="sleuth")
    for seat, count in enumerate([4, 3]):
        state["players"][seat].update(tokens=count, cases=count)
    state["supply"] = 25 - 7
    notice, events = end_of_a_game(state)
    last_line = logged(events, None)[-1]  # as a spectator reads it: nobody is "you"
    assert last_line == "Alice won with five case tokens."
    assert notice == f"The Elementary deck is over: {last_line}"
