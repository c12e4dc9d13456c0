"""What only one seat of a Watson & Holmes table may see: for the leak tests."""

from games.watson_holmes.rules.state import location_card


def private_items(state: dict, seat: int) -> set[str]:
    """The texts of the cards this seat reads (or keeps in its casebook) that no other
    seat reads or keeps, and that Watson did not read aloud to the table."""
    public = {state["watson"]["read"]} if state["watson"]["read"] else set()
    others = set()
    for other, keys in enumerate(state["readings"]):
        if other != seat:
            others |= set(keys) | set(state["players"][other]["casebook"])
    mine = set(state["readings"][seat]) | set(state["players"][seat]["casebook"])
    return {
        location_card(state, key)["text"]
        for key in mine - others - public
        if location_card(state, key) and location_card(state, key)["text"]
    }
