"""What only one seat of an Elementary deck table may see: for the leak tests."""

from games.holmes_elementary.rules.cards import suit_of
from games.holmes_elementary.rules.state import OVER, seen_cards, split_ids, spot_is_open


def private_items(state: dict, seat: int) -> set[str]:
    """The card ids this seat alone knows where they are: its hand (Locale's drawn cards
    included), and the spot cards it saw by guessing wrong while they stay hidden; less
    any card another seat has seen too. Each id is wrapped in JSON quotes, so that a
    search for ``"C01"`` cannot match ``"C10"``."""
    player = state["players"][seat]
    mine = set(player["hand"])
    if state["phase"] != OVER:
        spot_cards = split_ids(player["seen_spots"])
        mine |= {card for card in spot_cards if spot_is_open(state, suit_of(card))}
    for other, someone in enumerate(state["players"]):
        if other != seat:
            mine -= set(seen_cards(someone))
    return {f'"{card}"' for card in mine}
