"""The game log on a Watson & Holmes table page: each public event in a sentence of the
game's table (``sentences.py``), told to the member reading it ("Bob outbid you on 1 ·
Brandt's Clock Shop with 2 carriages"), in rounds.

Only events everyone at the table sees are asked for (PUBLIC_EVENTS), so a sentence can
never carry a card's text, somebody's answers or a verdict meant for one player.
"""

from games.pages import tell
from games.watson_holmes.sentences import SENTENCES, CaseNames, capital

# The public events the log reads, in the rules' own names: a new round, and those it
# tells. Others (a card read in private, one's own answers, a consultation's result) are
# never read for the log.
PUBLIC_EVENTS = ("round_started", *SENTENCES)


def game_log(game: dict, me: int | None, events: list[tuple[str, dict]]) -> list[dict]:
    """The rounds, newest first, each with its sentences newest first; the current round
    is marked open (the page folds the others)."""
    names = CaseNames(game, me)
    rounds: list[dict] = [{"number": 1, "entries": []}]
    for index, (kind, data) in enumerate(events):
        if kind == "round_started":
            rounds.append({"number": data.get("round", rounds[-1]["number"] + 1), "entries": []})
            continue
        if _told_by_the_outbid(kind, data, events[index - 1] if index else None):
            continue
        if kind == "outbid":
            data = {**data, "winning_bid": _winning_bid(data, events[index + 1 :])}
        text = capital(tell(SENTENCES, kind, data, names))
        if text:
            rounds[-1]["entries"].append(
                {
                    "kind": kind,
                    "text": text,
                    "about_you": _about(data, me),
                    "player": data.get("player"),
                }
            )
    for round_ in rounds:
        round_["entries"].reverse()
        round_["open"] = round_ is rounds[-1]
    return [round_ for round_ in reversed(rounds) if round_["entries"] or round_["open"]]


def _told_by_the_outbid(kind: str, data: dict, previous: tuple[str, dict] | None) -> bool:
    """An outbid's sentence already says where the winner went and with how much."""
    return (
        kind == "visited"
        and previous is not None
        and previous[0] == "outbid"
        and previous[1].get("by") == data.get("player")
    )


def _winning_bid(outbid: dict, later: list[tuple[str, dict]]) -> dict | None:
    """The winner's visit, in the same move as the outbid that it tells."""
    return next((d for k, d in later if k == "visited" and d.get("player") == outbid["by"]), None)


def _about(data: dict, me: int | None) -> bool:
    """Whether the event names the member: as the one who acted, outbid, or was aimed at."""
    seats = [data.get(key) for key in ("player", "by", "target")] + list(data.get("players", []))
    return me is not None and me in seats
