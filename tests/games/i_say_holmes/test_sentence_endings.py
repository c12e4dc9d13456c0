"""A card whose title ends in its own full stop or exclamation mark ("221B Baker St.",
"... The Game is Afoot!") ends the sentence that names it last: no "St.." or "Afoot!."."""

from games.i_say_holmes.rules import cards
from games.i_say_holmes.sentences import SENTENCES
from games.pages import SeatNames

NAMES = SeatNames({0: "Alice", 1: "Bob"}, me=0)


def test_a_title_with_its_own_stop_ends_the_sentence_once():
    stopped = [card for card in cards.LEDGER_ORDER if cards.row(card).title.endswith((".", "!"))]
    assert stopped, "the deck has titles that end in a stop"
    for card in stopped:
        line = SENTENCES["played"]({"seat": 1, "card": card}, NAMES)
        assert line == f"Bob played {cards.row(card).title}", line


def test_any_other_title_gets_its_full_stop():
    card = next(card for card in cards.LEDGER_ORDER if cards.row(card).title[-1].isalpha())
    line = SENTENCES["played"]({"seat": 1, "card": card}, NAMES)
    assert line == f"Bob played {cards.row(card).title}."
