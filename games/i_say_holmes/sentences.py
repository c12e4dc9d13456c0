"""I Say, Holmes!'s events in words: one sentence per event kind for the log and the
"since your last move" lines, and beside them every other wording of the same events (a
closed case's headline and its notification, the end's headline), so that each event is
worded in this one place.

Each sentence is ``sentence(data, names)``: the event's data, and the page kit's
``SeatNames`` for the member reading it ("You played ...", "Bob played ...").
"""

from __future__ import annotations

from collections.abc import Mapping

from games.i_say_holmes.rules import cards
from games.pages import SeatNames, over_notice
from games.words import counted

__all__ = [
    "LOG_EVENTS",
    "SENTENCES",
    "card_title",
    "case_closed",
    "case_closed_notice",
    "end_notice",
    "headline",
]

TOKEN_NAMES = {"pipe": "pipe", "hat": "hat", "glass": "magnifying glass"}


def card_title(card_id: str) -> str:
    return cards.row(card_id).title


def _stop(text: str) -> str:
    """The sentence's full stop, unless it ends on a card title that has its own
    ("221B Baker St.", "... The Game is Afoot!")."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _titles(card_ids) -> str:
    return ", ".join(card_title(card) for card in card_ids)


def _played(data: dict, names: SeatNames) -> str:
    text = f"{names(data.get('seat'))} played {card_title(data['card'])}"
    if "target" in data:
        text += f" on {names(data['target'], capital=False)}"
    if data.get("villain"):
        text += f", discarding {card_title(data['villain'])}"
    return _stop(text)


def _arrest(data: dict, names: SeatNames) -> str:
    verdict = "guilty" if data["verdict"] == "guilty" else "innocent"
    return f"{names(data.get('seat'))} arrested {names(data['accused'], capital=False)}: {verdict}."


def _examined(data: dict, names: SeatNames) -> str:
    seat = data.get("seat")
    if "cards" in data:
        seen = _titles(data["cards"])
        if seat == names.me:
            return _stop(f"You saw in {names.possessive(data['target'])} hand: {seen}")
        return _stop(f"{names(seat)} saw in your hand: {seen}")
    if names.me in (seat, data["target"]):
        return ""
    return (
        f"{names(seat)} saw {counted(data['count'], 'card')} of "
        f"{names.possessive(data['target'])} hand."
    )


def _drew(data: dict, names: SeatNames) -> str:
    seat = data.get("seat")
    if "cards" in data:
        return _stop(f"You drew {_titles(data['cards'])}")
    if seat == names.me and data["count"]:
        return ""
    return f"{names(seat)} drew {counted(data['count'], 'card')}."


def _token(data: dict, names: SeatNames) -> str:
    token = data["token"]
    name = "a telegram" if token == "telegram" else f"a {TOKEN_NAMES.get(token, token)} token"
    text = f"{names(data.get('seat'))} took {name}"
    if data.get("token_from") is not None:
        text += f" from {names(data['token_from'], capital=False)}"
    return text + "."


def _moved(data: dict, names: SeatNames) -> str:
    """Cards that changed hands: what everyone saw, or (``cards``, ``received``, ``got``)
    what only the seats concerned saw."""
    private = "cards" in data or "received" in data or "got" in data
    teller = MOVED.get(data["how"])
    return teller(data, names, private) if teller else ""


def _mastermind(data: dict, names: SeatNames, private: bool) -> str:
    if not private:
        return "Every hand passed to the right."
    if data["seat"] != names.me:
        return ""
    return f"Your hand went to {names(data['to'], capital=False)}."


def _alibi(data: dict, names: SeatNames, private: bool) -> str:
    if not private:
        return "After the Alibi, everyone passed a card to the right."
    if data["seat"] == names.me:
        return f"You passed {_titles(data['cards'])} to {names(data['to'], capital=False)}."
    return _stop(f"{names(data['seat'])} passed you {_titles(data['cards'])}")


def _fog(data: dict, names: SeatNames, private: bool) -> str:
    if private:
        return _stop(f"Out of the fog you got {_titles(data['received'])}")
    return "The Dense Fog: cards were shuffled and dealt back."


def _give(data: dict, names: SeatNames, private: bool) -> str:
    if private:
        card = _titles(data["cards"])
        if data["seat"] == names.me:
            return f"You gave {card} to {names(data['to'], capital=False)}."
        return f"{names(data['seat'])} gave you {card}."
    if names.me in (data["seat"], data["to"]):
        return ""
    return f"{names(data['seat'])} gave {names(data['to'], capital=False)} a card."


def _swap(data: dict, names: SeatNames, private: bool) -> str:
    if private:
        return ""
    return f"{names(data['seat'])} and {names(data['to'], capital=False)} swapped hands."


# How cards changed hands (a "moved" event's "how") -> its sentence.
MOVED = {"mastermind": _mastermind, "alibi": _alibi, "fog": _fog, "give": _give, "swap": _swap}

# Event kind -> its sentence in the log.
SENTENCES = {
    "case_started": lambda d, names: f"Case {d['case']} was dealt.",
    "played": _played,
    "countered": lambda d, names: _stop(
        f"{names(d.get('seat'))} countered with {card_title(d['card'])}"
    ),
    "arrest": _arrest,
    "examined": _examined,
    "escape": lambda d, names: (
        f"{names(d.get('seat'))} escaped with {', '.join(c['title'] for c in d['hand'])}!"
    ),
    "drew": _drew,
    "kept": lambda d, names: (
        f"{names(d.get('seat'))} kept the drawn card; the Current card moves on."
    ),
    "token": _token,
    "dropped": lambda d, names: (
        f"{names(d.get('seat'))} discarded {card_title(d['villain'])} with Irene Adler."
    ),
    "moved": _moved,
    "timeout": lambda d, names: f"Time ran out for {names.many(d['seats'], capital=False)}.",
    "impromptu": lambda d, names: f"{names(d.get('seat'))} must make an Impromptu Arrest.",
    "case_closed": lambda d, names: case_closed(d, names),
    "game_over": lambda d, names: headline(d, names),
}
# The events the page reads, oldest first: those told, and the answers to a window (told
# by no line, they end what an arrest showed).
LOG_EVENTS = (*SENTENCES, "answers")


# --- A closed case, and the end: told by the log, above the status and in notifications ----


def case_closed(summary: dict, names: SeatNames) -> str:
    """How a case closed, in the one sentence the log, the line above the status and the
    notification all say (``summary``: the "case_closed" event's data, which is also the
    rules' ``last_case``)."""
    case = summary.get("case")
    if summary.get("how") == "guilty":
        arrest = f"{names(summary.get('seat'))} arrested {names(summary['accused'], capital=False)}"
        return f"Case {case} is closed: {arrest}, who was guilty."
    if summary.get("how") == "escape":
        return f"Case {case} is closed: {names(summary.get('seat'))} escaped."
    return f"Case {case} went cold."


def case_closed_notice(title: str, summary: dict, names: Mapping[int, str]) -> str:
    """The notification of a closed case, sent to every seat alike: the table's title, then
    the case's sentence as a spectator reads it (nobody is "you")."""
    return f"{title}: {case_closed(summary, SeatNames(names, None, 'A player'))}"


def headline(result: dict, names: SeatNames) -> str:
    """Who won the game, for the status line, the result panel, the log's last line and
    the end's notification."""
    winners = result["winners"]
    if len(winners) == 1:
        return f"{names(winners[0])} {names.agree(winners[0], 'win', 'wins')}."
    return f"{names.many(winners)} share the win."


def end_notice(title: str, names: Mapping[int, str], result: dict) -> str:
    """The notification of the end: the table's title, then the headline as a spectator
    reads it."""
    return over_notice(title, headline(result, SeatNames(names, None)))
