"""What only one seat of an I Say, Holmes! table may see: for the leak tests."""


def private_items(state: dict, seat: int) -> set[str]:
    """The ids of the cards in ``seat``'s hand (its drawn card among them) that no other
    seat has seen there this case, each in JSON quotes so that ``"clue-1"`` is never found
    inside ``"clue-10"``."""
    seen_elsewhere = {
        card
        for other, notes in enumerate(state["seen"])
        if other != seat
        for note in notes
        for card in note["cards"]
    }
    return {f'"{card}"' for card in state["hands"][seat] if card not in seen_elsewhere}
