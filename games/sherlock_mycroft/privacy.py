"""What only one seat of a Sherlock & Mycroft table may see: for the leak tests."""

from games.sherlock_mycroft.rules.state import KEEP, revealed


def private_items(state: dict, seat: int) -> set[str]:
    """The ids of this seat's hidden clues that the rival did not watch go in (Irene's
    thefts are public), plus the cards of its pending Langdale Pike look. Nothing once the
    hidden clues are revealed at the end.

    Clue ids never contain one another (``button-1`` is no part of any other id, copies
    stop at 9), so a plain id is safe to search for in a dumped view.
    """
    if revealed(state):
        return set()
    items = set(state["hidden"][seat]) - set(state["hidden_known"][seat])
    if state["step"] == KEEP and state["turn"] == seat:
        items |= set(state["pending"]["looking"])
    return items
