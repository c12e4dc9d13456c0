"""The Elementary deck's events in words: one sentence per event kind, read by the log,
the "since your last move" lines and the end's headline, so that each is worded once.

Each sentence is ``sentence(data, names)``: the event's data, and the page kit's
``SeatNames`` for the member reading it ("You played ...", "Bob played ...").
"""

from __future__ import annotations

from collections.abc import Mapping

from games.holmes_elementary.rules.cards import CARD_NAMES, SUIT_NAMES, rank_of, suit_of
from games.pages import SeatNames, over_notice
from games.words import counted

__all__ = [
    "LOG_EVENTS",
    "SENTENCES",
    "cards_text",
    "end_notice",
    "headline",
    "short_name",
    "wrong_guess_notice",
]

DISCARD_REASONS = {
    "help": "{who} lost 1 card at random (Help).",
    "action": "{who} discarded {cards} for an Action card.",
    "wrong_guess": "{who} threw away {their} whole hand ({cards}) after a wrong guess.",
    "deduction": "{who} drew a card and discarded one.",
    "retire": "{who} discarded {cards} down to nine.",
    "locale": "{who} discarded the other Locale cards ({cards}).",
}
DRAW_REASONS = {
    "investigate": "investigating",
    "mystery": "Mystery",
    "help": "Help",
    "locale": "Locale",
    "deduction": "the deduction",
}


def short_name(card_id: str) -> str:
    """ "Clue 3": the card's suit and rank."""
    return f"{SUIT_NAMES[suit_of(card_id)]} {rank_of(card_id)}"


def cards_text(cards) -> str:
    return ", ".join(short_name(c) for c in cards) or "no cards"


def _cards(data: dict) -> str:
    return counted(data.get("count", 0), "card")


def _played(data: dict, names: SeatNames) -> str:
    target = data.get("target")
    on = f" on {names(target, capital=False)}" if target is not None else ""
    played = data["card"]
    return f"{names.actor(data)} played {short_name(played)}, {CARD_NAMES[played]}{on}."


def _discarded(data: dict, names: SeatNames) -> str:
    template = DISCARD_REASONS.get(data.get("reason"))
    if not template:
        return ""
    their = names.agree(data.get("player"), "your", "their")
    return template.format(who=names.actor(data), cards=_cards(data), their=their)


def _case_solved(data: dict, names: SeatNames) -> str:
    tokens = counted(data.get("tokens", 0), "case token")
    solved = cards_text(data["cards"])
    return f"{names.actor(data)} solved a case with {solved} ({tokens} now)."


def _guessed(data: dict, names: SeatNames) -> str:
    guess = f"{SUIT_NAMES.get(data.get('suit'), '?')} {data.get('rank')}"
    if data.get("correct"):
        return f"{names.actor(data)} guessed {guess}: right! The spot is emptied."
    return f"{names.actor(data)} guessed {guess}: wrong."


# Event kind -> its sentence; the log tells these kinds, in the rules' own names.
SENTENCES = {
    "turn_started": lambda d, names: (
        f"Round {d.get('round')}: {names.possessive(d.get('player'))} turn."
    ),
    "played": _played,
    "stole": lambda d, names: (
        f"{names.actor(d)} took a card at random from {names(d.get('target'), capital=False)}."
    ),
    "stolen_card": lambda d, names: f"The card taken: {cards_text([d['card']])}.",
    "hand_looked": lambda d, names: (
        f"{names.actor(d)} looked at {names.possessive(d.get('target'))} hand."
    ),
    "hand_shown": lambda d, names: (
        f"You saw {names.possessive(d.get('target'))} hand: {cards_text(d['cards'])}."
    ),
    "deck_looked": lambda d, names: f"{names.actor(d)} looked at the top {_cards(d)} of the deck.",
    "deck_top": lambda d, names: f"You saw the top of the deck: {cards_text(d['cards'])}.",
    "drew_cards": lambda d, names: (
        f"You drew {cards_text(d['cards'])} ({DRAW_REASONS.get(d.get('reason'), d.get('reason'))})."
    ),
    "discarded": _discarded,
    "discarded_cards": lambda d, names: f"You discarded {cards_text(d['cards'])}.",
    "case_solved": _case_solved,
    "guessed": _guessed,
    "spot_seen": lambda d, names: (
        f"Only you saw it: the {SUIT_NAMES[d['suit']]} spot holds {rank_of(d['card'])}."
    ),
    "discard_viewed": lambda d, names: (
        f"{names.actor(d)} looked at the discard pile ({_cards(d)})."
    ),
    "reshuffled": lambda d, names: f"The discard pile ({_cards(d)}) was shuffled into a new deck.",
    "timeout": lambda d, names: f"{names.actor(d)} ran out of time.",
    "game_over": lambda d, names: headline(d, names),
}
# The events the page reads, oldest first.
LOG_EVENTS = tuple(SENTENCES)


# --- Told to one seat -----------------------------------------------------------------------


# A seat's own moves: a wrong guess is told until the guesser's next one.
OWN_MOVES = {"played", "guessed", "case_solved", "discard_viewed", "stole", "hand_looked"}


def wrong_guess_notice(happened: list[tuple[str, dict]], me) -> str:
    """The guesser's own wrong guess, said beside the status line until their next move
    in the log's own sentences: the log alone hid it below the game."""
    if me is None:
        return ""
    last = max(
        (
            i
            for i, (kind, data) in enumerate(happened)
            if kind in OWN_MOVES and data.get("player") == me
        ),
        default=None,
    )
    if last is None or happened[last][0] != "guessed" or happened[last][1].get("correct"):
        return ""
    # The log's own sentences for the guess and what followed it, worded once.
    names = SeatNames({}, me)
    told = [_guessed(happened[last][1], names)]
    after = happened[last + 1 :]
    seen = next((data for kind, data in after if kind == "spot_seen"), None)
    thrown = next(
        (
            data
            for kind, data in after
            if kind == "discarded" and data.get("reason") == "wrong_guess"
        ),
        None,
    )
    if seen is not None:
        told.append(SENTENCES["spot_seen"](seen, names))
    if thrown is not None:
        told.append(_discarded(thrown, names))
    return " ".join([*told, "You may not guess that spot again."])


def headline(result: dict | None, names: SeatNames) -> str:
    """How the game ended, for the status line, the result panel, the log's last line and
    the end's notification: the "game_over" event's data or the rules' outcome."""
    if not result:
        return "The game is over."
    winners = result["winners"]
    if result["reason"] == "five_tokens":
        if winners[0] == names.me:
            return "You won: five case tokens!"
        return f"{names(winners[0])} won with five case tokens."
    best = result["tokens"][winners[0]] if winners else 0
    tokens = counted(best, "case token")
    if len(winners) == 1:
        if winners[0] == names.me:
            return f"The round limit is reached: you won with {tokens}."
        return f"The round limit is reached: {names(winners[0])} won with {tokens}."
    together = names.many(winners, capital=False)
    return f"The round limit is reached: {together} share the win with {tokens} each."


def end_notice(title: str, names: Mapping[int, str], result: dict) -> str:
    """The notification of the end, sent to every seat alike: the table's title, then the
    headline as a spectator reads it (nobody is "you")."""
    known = result if "reason" in result else None  # a notice queued before it carried one
    return over_notice(title, headline(known, SeatNames(names, None)))
