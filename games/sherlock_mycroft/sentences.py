"""Sherlock & Mycroft's events in words: one sentence per event kind, read by the log, the
"since your last move" lines and the end's headline, so that each is worded once.

Each sentence is ``sentence(data, names)``: the event's data, and the page kit's
``SeatNames`` for the member reading it ("You took ...", "Bob took ...").
"""

from __future__ import annotations

from collections.abc import Mapping

from games.pages import SeatNames, over_notice
from games.sherlock_mycroft.rules.cards import CHARACTERS, KIND_BY_ID, kind_of
from games.words import capital, counted, names_sentence

__all__ = ["HEADLINE_FACTS", "LOG_EVENTS", "SENTENCES", "card_names", "end_notice", "headline"]

# What the headline reads of the result (the state's, or the "game_over" event's data).
HEADLINE_FACTS = ("winners", "scores", "tokens", "decided_by")


def card_names(card_ids) -> str:
    """ "Bullet, Cigarette and Map fragment": the clues' kinds."""
    return names_sentence([KIND_BY_ID[kind_of(c)].name for c in card_ids])


def _moved(data: dict, names: SeatNames) -> str:
    text = f"{names.actor(data)} went to {CHARACTERS[data['to']].name}"
    if not data["used"]:
        return text + " without using the ability."
    money = []
    if data.get("paid"):
        money.append(f"paid {counted(data['paid'], 'marker')}")
    if data.get("gained"):
        money.append(f"gained {counted(data['gained'], 'marker')}")
    return text + (f" and {' and '.join(money)}." if money else ".")


def _clues_taken(data: dict, names: SeatNames) -> str:
    text = f"{names.actor(data)} took {card_names(data['cards'])}"
    if data.get("reserved_clue"):
        text += " (with the reserved clue)"
    return text + "."


def _hidden_gained(data: dict, names: SeatNames) -> str:
    if data.get("player") == names.me:
        return ""  # the private "hidden_card" says which
    return f"{names.actor(data)} gained a hidden clue."


def _von_kramm_reply(data: dict, names: SeatNames) -> str:
    if data["pay"]:
        return f"{names.actor(data)} paid 1 marker for the top card of the deck."
    return f"{names.actor(data)} declined Von Kramm's card."


def _clues_discarded(data: dict, names: SeatNames) -> str:
    where = "from the line" if data.get("source") == "line" else "from their clues"
    if data.get("source") != "line" and data.get("player") == names.me:
        where = "from your clues"
    return f"{names.actor(data)} discarded {card_names(data['cards'])} {where}."


def _moriarty(data: dict, names: SeatNames) -> str:
    if data["give"] == "markers":
        return f"{names.actor(data)} gave Moriarty {counted(data.get('returned', 2), 'marker')}."
    return f"{names.actor(data)} gave Moriarty {card_names([data['give']])}."


def _reserved(data: dict, names: SeatNames) -> str:
    if data.get("card") is None:
        return ""
    clue = card_names([data["card"]])
    return f"{names.actor(data)} reserved {clue} with the Sherlock/Mycroft card."


def _day_ended(data: dict, names: SeatNames) -> str:
    text = f"Day {data['day']} ends."
    if data.get("spent"):
        spent = names_sentence([CHARACTERS[c].name for c in data["spent"]])
        text += f" Spent tomorrow: {spent}."
    return text


def _wildcards_assigned(data: dict, names: SeatNames) -> str:
    placed = [KIND_BY_ID[k].name for _, k in sorted(data["assign"].items())]
    if not placed:
        return f"{names.actor(data)} placed no wildcard."
    return f"{names.actor(data)} placed wildcards on {names_sentence(placed)}."


# Event kind -> its sentence; the log tells these kinds, in the rules' own names.
SENTENCES = {
    "moved": _moved,
    "clues_taken": _clues_taken,
    "clue_stolen": lambda d, names: (
        f"{names.actor(d)} stole {card_names([d['card']])} from {names(d['from'], capital=False)}."
    ),
    "looked": lambda d, names: (
        f"{names.actor(d)} looked at {counted(d['count'], 'card')} with Langdale Pike."
    ),
    "hidden_gained": _hidden_gained,
    "hidden_card": lambda d, names: f"You gained {card_names([d['card']])} as a hidden clue.",
    "wildcard_revealed": lambda d, names: (
        f"{names.actor(d)} drew a Wildcard: it is shown and joins the visible clues."
    ),
    "von_kramm_reply": _von_kramm_reply,
    "clues_discarded": _clues_discarded,
    "clues_swapped": lambda d, names: (
        f"{names.actor(d)} swapped {card_names([d['gave']])} for {card_names([d['took']])}."
    ),
    "moriarty": _moriarty,
    "moran": lambda d, names: (
        f"{names.actor(d)} laid down the marker on {CHARACTERS[d['marker']].name} for Moran."
    ),
    "reserved": _reserved,
    "villain_drawn": lambda d, names: f"Day {d['day']}: {CHARACTERS[d['villain']].name} appears!",
    "day_started": lambda d, names: (
        f"Day {d['day']} begins: {CHARACTERS[d['character']].name} joins the board."
    ),
    "day_ended": _day_ended,
    "wildcards_assigned": _wildcards_assigned,
    "timed_out": lambda d, names: f"{names.actor(d)} ran out of time: the game chose for them.",
    "deck_reshuffled": lambda d, names: "The discard pile was shuffled into a new deck.",
    "game_over": lambda d, names: headline(d, names),
}
# The events the page reads, oldest first.
LOG_EVENTS = tuple(SENTENCES)


def headline(result: dict, names: SeatNames) -> str:
    """How the game ended, for the result panel, the log's last line and the end's
    notification: who won, and by points or by markers."""
    scores, winners = result["scores"], result["winners"]
    if not winners:
        return f"A draw: {scores[0]} points each, and as many markers."
    winner = winners[0]
    loser = 1 - winner
    name = f"{names(winner)} {names.agree(winner, 'win', 'wins')}"
    if result["decided_by"] == "points":
        return f"{name}, {scores[winner]} points to {scores[loser]}."
    tokens = result["tokens"]
    sentence = (
        f"{scores[0]} points each: {name.lower() if winner == names.me else name} with "
        f"more markers left ({tokens[winner]} to {tokens[loser]})."
    )
    return capital(sentence)


def end_notice(title: str, names: Mapping[int, str], result: dict) -> str:
    """The notification of the end, sent to both seats alike: the table's title, then the
    headline as a spectator reads it (nobody is "you")."""
    if not set(HEADLINE_FACTS) <= set(result):  # a notice queued before it carried them
        return over_notice(title)
    return over_notice(title, headline(result, SeatNames(names, None)))
