"""What the others did since the viewer last acted, for the line under the status."""

from games.pages import SINCE_SHOWN, since_your_last_move


def entry(text, player):
    return {"text": text, "player": player}


def test_it_tells_what_came_after_the_viewers_own_last_move():
    log = [entry("You took Watson.", 0), entry("Bob went to Toby.", 1), entry("Day 2.", None)]
    assert since_your_last_move(log, 0) == {"lines": ["Bob went to Toby.", "Day 2."], "more": 0}


def test_nothing_when_the_viewer_acted_last_or_watches_or_never_moved():
    log = [entry("Bob went to Toby.", 1), entry("You took Watson.", 0)]
    assert since_your_last_move(log, 0) is None
    assert since_your_last_move(log, None) is None
    assert since_your_last_move([entry("Bob went to Toby.", 1)], 0) is None


def test_a_long_wait_shows_the_latest_and_counts_the_rest():
    log = [entry("You passed.", 0)] + [entry(f"Move {n}.", 1 + n % 3) for n in range(12)]
    told = since_your_last_move(log, 0)
    assert told["lines"] == [f"Move {n}." for n in range(12 - SINCE_SHOWN, 12)]
    assert told["more"] == 12 - SINCE_SHOWN
