"""A wrong guess is told to the guesser beside the status line, not only in the log, until
their next move; nobody else reads what only the guesser saw."""

from games.holmes_elementary import rules
from games.holmes_elementary.page import game_page
from games.pages import PageContext
from tests.games.holmes_elementary.helpers import act, make_state


def page_for(state: dict, seat: int, happened: list) -> dict:
    game = {**rules.view(state, seat), "legal_actions": rules.legal_actions(state, seat)}
    view = {"game": game, "you": {"seat": seat}, "version": 1}
    seen = [(e.type, e.data) for e in happened if e.audience == "all" or seat in e.audience]
    seats = {0: {"name": "Alice"}, 1: {"name": "Bob"}}

    def events(kinds):
        return [(kind, data) for kind, data in seen if kind in kinds]

    def control(action, label, version, **extra):
        return {"action": action, "label": label, **extra}

    return game_page(PageContext(view=view, seats=seats, events=events, control=control))


def wrong_guess() -> tuple[dict, list]:
    state = make_state([["X01", "S02"], ["H01"]], phase="deduction")
    return act(state, 0, {"type": "guess", "suit": "C", "rank": 3})


def test_the_guesser_reads_what_went_wrong_beside_the_status():
    state, happened = wrong_guess()
    notice = page_for(state, 0, happened)["guess_notice"]
    assert notice.startswith("You guessed Clue 3: wrong. ")
    assert "Only you saw it: the Clue spot holds 6." in notice
    assert "You threw away your whole hand (2 cards) after a wrong guess." in notice


def test_the_others_read_no_notice_and_not_the_card():
    state, happened = wrong_guess()
    assert page_for(state, 1, happened)["guess_notice"] == ""


def test_the_notice_goes_with_the_guessers_next_move():
    state, happened = wrong_guess()
    for _ in range(3):
        state, more = act(state, 1, {"type": "pass"})
        happened += more
    assert page_for(state, 0, happened)["guess_notice"]  # still theirs to read
    play = next(a for a in rules.legal_actions(state, 0) if a["type"] == "play")
    state, more = act(state, 0, play)
    happened += more
    assert page_for(state, 0, happened)["guess_notice"] == ""
