"""Whole game states a seat's view could stand for: the expert bot's sampled worlds.

The view hides the spot cards of open spots, the other hands, the deck's order and the
discard pile. A world fills them in, consistently with everything the view says:

- an open spot's card is one of its suit's ranks the seat has never seen and nobody
  named wrongly (``candidates``), or the card the seat saw there by guessing wrong;
- the seat's hand is its own; every other hand, the deck and the pile have the sizes
  the view shows;
- the seat's latest look this turn still holds: the hand it saw, the top of the deck it
  saw (less the cards it has drawn since), the pile it saw;
- the cards the seat has seen but no longer holds go to the discard pile first (most of
  them were played or thrown away there), the rest at random.

Other seats' notes are not in the view; a world credits each with its own hand and the
cards the seat has seen leave its hand (most of those were shown to everyone), so that
the world's opponents deduce about as well as real ones.
"""

from __future__ import annotations

from games.holmes_elementary.rules.bot import candidates
from games.holmes_elementary.rules.cards import ALL_CARDS, canonical, card_id, suit_of
from games.rng import below, seeded, shuffled


def discard_look_allowed(view: dict, legal: list[dict]) -> bool:
    """The house rule, as far as the seat can tell: on its turn looks are listed or not;
    while it answers a choice it cannot tell, and assumes the usual rule."""
    if view["pending"] is None:
        return any(action["type"] == "view_discard" for action in legal)
    return True


def sample_world(view: dict, seat: int, rng: str, discard_look: bool) -> tuple[dict, str]:
    """One full state consistent with ``view``, and the generator's next state."""
    hand = [card["id"] for card in view["you"]["hand"]]
    spots, rng = _sample_spots(view, rng)
    hidden = set(spots[spot["suit"]] for spot in view["spots"] if spot["open"])
    unknown = [card for card in ALL_CARDS if card not in hidden and card not in set(hand)]
    hands, deck, discard, rng = _deal_unknown(view, seat, unknown, rng)
    hands[seat] = hand
    state = _assemble(view, seat, spots, hands, deck, discard, rng)
    if not discard_look:
        state["discard_look"] = False
    return state, rng


def _sample_spots(view: dict, rng: str) -> tuple[dict, str]:
    seen_spots = view["you"]["seen_spots"]
    spots = {}
    for spot in view["spots"]:
        suit = spot["suit"]
        if spot["card"] is not None:
            spots[suit] = spot["card"]["id"]
        elif suit in seen_spots:
            spots[suit] = seen_spots[suit]
        else:
            ranks = candidates(view, suit)
            index, rng = below(rng, len(ranks))
            spots[suit] = card_id(suit, ranks[index])
    return spots, rng


def _deal_unknown(view: dict, seat: int, unknown: list[str], rng: str):
    """Every card the seat cannot place, dealt to the other hands, the deck and the pile."""
    look = view["you"]["last_look"]
    counts = {player["seat"]: player["hand_count"] for player in view["players"]}
    hands: dict[int, list[str]] = {}
    deck_top: list[str] = []
    discard: list[str] = []
    placed: set[str] = set()
    free = set(unknown)
    if look is not None:
        looked = [card for card in look["cards"] if card in free]
        if look["kind"] == "hand" and len(looked) == counts[look["target"]]:
            hands[look["target"]] = looked
        elif look["kind"] == "deck" and len(looked) <= view["deck_count"]:
            deck_top = looked
        elif look["kind"] == "discard" and len(looked) <= view["discard_count"]:
            discard = list(looked)
        placed.update(looked if hands or deck_top or discard else ())
    rest = [card for card in unknown if card not in placed]
    seen = set(view["you"]["seen"])
    old, rng = shuffled([card for card in rest if card in seen], rng)
    room = view["discard_count"] - len(discard)
    discard += old[:room]
    pool, rng = shuffled(old[room:] + [card for card in rest if card not in seen], rng)
    short = view["discard_count"] - len(discard)
    discard, pool = discard + pool[:short], pool[short:]
    for other, count in counts.items():
        if other != seat and other not in hands:
            hands[other], pool = pool[:count], pool[count:]
    deck = deck_top + pool
    return hands, deck, canonical(discard), rng


def _assemble(view, seat, spots, hands, deck, discard, rng) -> dict:
    hidden = {spots[spot["suit"]] for spot in view["spots"] if spot["open"]}
    public = [card for card in view["you"]["seen"] if card not in hidden | set(hands[seat])]
    wrong_named = {}
    for wrong in view["wrong_guesses"]:
        named = card_id(wrong["suit"], wrong["rank"])
        wrong_named[wrong["player"]] = wrong_named.get(wrong["player"], "") + named
    players = []
    for info in view["players"]:
        other = info["seat"]
        held = canonical(hands[other])
        wrong = wrong_named.get(other, "")
        spot_seen = "".join(spots[suit_of(named)] for named in _split(wrong))
        notes = held if other == seat else [*held, *public]
        if other == seat:
            notes = view["you"]["seen"]
        seen = "".join(canonical({*notes, *_split(spot_seen)}))
        players.append(
            {
                "name": info["name"],
                "hand": held,
                "seen": seen,
                "tokens": info["tokens"],
                "cases": info["cases"],
                "correct": list(info["correct"]),
                "wrong": wrong,
                "seen_spots": spot_seen,
                "last_look": view["you"]["last_look"] if other == seat else None,
                "discard_looked": view["you"]["discard_looked"] if other == seat else 0,
            }
        )
    return {
        "players": players,
        "spots": spots,
        "emptied_by": {
            spot["suit"]: spot["emptied_by"] for spot in view["spots"] if not spot["open"]
        },
        "deck": deck,
        "discard": discard,
        "rng": seeded(int(rng, 16) ^ 0x5EED),
        "first": view["first"],
        "current": view["player"],
        "round": view["round"],
        "max_rounds": view["max_rounds"],
        "phase": view["phase"],
        "pending": _pending(view, hands[seat]),
        "supply": view["supply"],
        "result": None,
    }


def _pending(view: dict, hand: list[str]) -> dict | None:
    pending = view["pending"]
    if pending is None:
        return None
    restored = dict(pending)
    if pending["kind"] == "locale":
        restored["options"] = [card["id"] for card in view["you"]["options"]]
    if pending["kind"] == "deduction":
        restored["drawn"] = hand[-1]  # only a timeout reads it, and worlds never time out
    return restored


def _split(text: str) -> list[str]:
    return [text[start : start + 3] for start in range(0, len(text), 3)]
