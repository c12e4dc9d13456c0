"""Watson & Holmes's events in words: one sentence per public event kind for the log and
the "since your last move" lines, and beside them the notifications that tell the same
events to players away from the table, so that each event is worded in this one place.

Each sentence is ``sentence(data, names)``: the event's data, and ``CaseNames`` (the page
kit's ``SeatNames`` with the case's places and questions) for the member reading it. The
sentences start in lower case where they start with a name ("you went to ..."); the log
gives each its capital.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.pages import SeatNames, over_notice
from games.watson_holmes.rules.state import CHARACTERS
from games.words import capital, counted, names_sentence

__all__ = ["SENTENCES", "TOKEN_WORDS", "CaseNames", "capital", "headline", "notice", "tokens"]

TOKEN_WORDS = {
    "carriages": ("carriage", "carriages"),
    "police": ("police token", "police tokens"),
    "call_off": ("call-off token", "call-off tokens"),
    "lockpick": ("lockpick", "lockpicks"),
}


def tokens(count: int, kind: str) -> str:
    """ "1 carriage", "2 police tokens"."""
    return counted(count, *TOKEN_WORDS[kind])


class CaseNames(SeatNames):
    """Seats, places and questions as the member reading the log should hear them: "you",
    "Bob's", "1 · Brandt's Clock Shop". Seats are named as the game was set up."""

    def __init__(self, game: dict, me: int | None):
        names = {player["seat"]: player["name"] for player in game["players"]}
        super().__init__(names, me, unknown="a player")
        self.places = {
            loc["number"]: f"{loc['number']} · {loc['name']}" for loc in game["locations"]
        }
        self.questions = {question["id"]: question["ask"] for question in game["questions"]}

    @classmethod
    def of_seats(cls, names: Mapping[int, str], me: int | None = None) -> CaseNames:
        """Seats' names alone, without the case's places and questions (a notification's)."""
        players = [{"seat": seat, "name": name} for seat, name in names.items()]
        return cls({"players": players, "locations": [], "questions": []}, me)

    def who(self, seat) -> str:
        return self(seat, capital=False)

    def whose(self, seat) -> str:
        return self.possessive(seat)

    def place(self, number) -> str:
        return self.places.get(number, str(number))


# --- Placing pawns ------------------------------------------------------------------------


def _visited(data: dict, names: CaseNames) -> str:
    who, where = names.who(data["player"]), names.place(data["location"])
    character = data.get("character")
    if character == "toby":
        return f"{who} sent Toby to {where}."
    if character == "mary_morstan":
        return f"{who} joined the visit to {where} with Mary Morstan."
    how = "on foot" if not data["carriages"] else f"with {tokens(data['carriages'], 'carriages')}"
    extras = []
    if data.get("call_off"):
        extras.append("a call-off token")
    if character == "billy":
        extras.append("Billy the page")
    using = f", using {names_sentence(extras)}" if extras else ""
    return f"{who} went to {where} {how}{using}."


def _outbid(data: dict, names: CaseNames) -> str:
    """``data["winning_bid"]``: the winner's visit that follows in the same move (the log
    adds it), told here rather than on its own."""
    bid = data.get("winning_bid")
    how = f" with {tokens(bid['carriages'], 'carriages')}" if bid and bid["carriages"] else ""
    returned = f" ({tokens(data['returned'], 'carriages')} back)" if data.get("returned") else ""
    text = f"{names.who(data['by'])} outbid {names.who(data['player'])} on "
    text += f"{names.place(data['location'])}{how}{returned}"
    return text + (": choose again." if data["player"] == names.me else ".")


def _went_to_baker_street(data: dict, names: CaseNames) -> str:
    held = data.get("carriages")
    holding = f", holding {tokens(held, 'carriages')}" if held is not None else ""
    return f"{names.who(data['player'])} went to 221B Baker Street{holding}."


def _visiting_ended(data: dict, names: CaseNames) -> str:
    return (
        "Every pawn is placed: the investigation begins. "
        f"{capital(names.who(data['diary']))} took the Diary, as the last to place a pawn, "
        "and will start the next round."
    )


# --- Reading ------------------------------------------------------------------------------


def _tokens_gained(data: dict, names: CaseNames) -> str:
    gains = [tokens(data[kind], kind) for kind in TOKEN_WORDS if data.get(kind)]
    if not gains:
        return ""
    return f"{names.who(data['player'])} gained {names_sentence(gains)}."


# --- 221B Baker Street --------------------------------------------------------------------


def _not_judged(data: dict, names: CaseNames) -> str:
    who = names.who(data["player"])
    plays = names.agree(data["player"], "play", "plays")
    return f"Time ran out before {who} wrote answers at 221B: not judged, {who} {plays} on."


def _answers_restated(data: dict, names: CaseNames) -> str:
    their = names.agree(data["player"], "your", "their")
    return f"{names.who(data['player'])} restated {their} answers."


def _judging(data: dict, names: CaseNames) -> str:
    judged = names_sentence([names.whose(seat) for seat in data.get("players", [])])
    return f"Sherlock Holmes judged {judged} answers." if judged else ""


def _solved(data: dict, names: CaseNames) -> str:
    place = f" (place {data['place']})" if data.get("place") else ""
    return f"{names.who(data['player'])} solved the case{place}!"


def _eliminated(data: dict, names: CaseNames) -> str:
    who = names.who(data["player"])
    right = f"{data['correct']} of {data['questions']}" if "questions" in data else "not all"
    verb = names.agree(data["player"], "are", "is")
    return f"{who} got {right} right at 221B and {verb} out of the race."


def _attempts_paused(data: dict, names: CaseNames) -> str:
    paused = names_sentence([names.who(seat) for seat in data.get("players", [])])
    return f"An attempt failed: {paused} may consult Holmes, then confirm their answers."


def _last_player(data: dict, names: CaseNames) -> str:
    rounds = data.get("rounds")
    left = f" and has {counted(rounds, 'round')} left" if rounds else ""
    if data["player"] == names.me:
        left = left.replace("has", "have")
        return f"You are the last detective in the race{left}."
    return f"{names.who(data['player'])} is the last detective in the race{left}."


# --- Characters and the Holmes card -------------------------------------------------------


def _character_used(data: dict, names: CaseNames) -> str:
    name = CHARACTERS.get(data["character"], data["character"])
    acts_as = data.get("acts_as")
    copied = CHARACTERS.get(acts_as, acts_as) if acts_as and acts_as != data["character"] else None
    text = f"{names.who(data['player'])} revealed {name}"
    return text + (f", acting as {copied}." if copied else ".")


def _holmes_check_asked(data: dict, names: CaseNames) -> str:
    ask = names.questions.get(data.get("question"), "a question")
    return f"{names.who(data['player'])} asked Sherlock to check an answer to “{ask}”."


def _tokens_returned(data: dict, names: CaseNames) -> str:
    returned = [tokens(data[kind], kind) for kind in TOKEN_WORDS if data.get(kind)]
    return f"{names_sentence(returned)} went back to the stock." if returned else ""


def _player(data: dict, names: CaseNames) -> str:
    return names.who(data["player"])


# Event kind -> its sentence; only events everyone at the table sees are told, so a
# sentence never carries a card's text, somebody's answers or a verdict meant for one.
SENTENCES = {
    "watson_taken": lambda d, names: (
        f"{_player(d, names)} took Watson ({tokens(d['carriages'], 'carriages')})."
    ),
    "visited": _visited,
    "outbid": _outbid,
    "went_to_carriage_stop": lambda d, names: f"{_player(d, names)} went to the Carriage Stop.",
    "went_to_baker_street": _went_to_baker_street,
    "visiting_ended": _visiting_ended,
    "watson_read": lambda d, names: (
        f"Watson ({_player(d, names)}) read {names.place(d['location'])} aloud."
    ),
    "watson_unused": lambda d, names: f"{_player(d, names)} held Watson but read no card aloud.",
    "could_not_read": lambda d, names: (
        f"{_player(d, names)} could not read {names.place(d['location'])}: it is locked."
    ),
    "lockpick_used": lambda d, names: (
        f"{_player(d, names)} picked the lock of {names.place(d['location'])}."
    ),
    "tokens_gained": _tokens_gained,
    "police_placed": lambda d, names: (
        f"{_player(d, names)} left a police token on {names.place(d['location'])}."
    ),
    "done_reading": lambda d, names: f"{_player(d, names)} finished reading.",
    "carriage_stop_income": lambda d, names: (
        f"{_player(d, names)} gained {tokens(d['carriages'], 'carriages')} at the Carriage Stop."
    ),
    "answers_written": lambda d, names: f"{_player(d, names)} wrote answers at 221B.",
    "not_judged": _not_judged,
    "restatement_asked": lambda d, names: (
        f"Sherlock asked {_player(d, names)} to restate an answer more plainly."
    ),
    "answers_restated": _answers_restated,
    "judging": _judging,
    "solved": _solved,
    "eliminated": _eliminated,
    "attempts_paused": _attempts_paused,
    "last_player": _last_player,
    "game_over": lambda d, names: headline(d, names),
    "character_used": _character_used,
    "character_discarded": lambda d, names: (
        f"{_player(d, names)} discarded a character for {tokens(d['carriages'], 'carriages')}."
    ),
    "extra_read": lambda d, names: (
        f"Mycroft: {_player(d, names)} also read {names.place(d['location'])}."
    ),
    "holmes_consulted": lambda d, names: (
        f"{_player(d, names)} consulted {names.whose(d['target'])} answers with the Holmes card."
    ),
    "holmes_check_asked": _holmes_check_asked,
    "ruling_needed": lambda d, names: (
        f"Sherlock's voices must rule on {names.whose(d['player'])} answer check."
    ),
    "holmes_check_answered": lambda d, names: (
        f"Sherlock answered {names.whose(d['player'])} answer check."
    ),
    "timeout": lambda d, names: "Time ran out: the game moved on.",
    "withdrew": lambda d, names: f"{_player(d, names)} left the game; play passes them by.",
    "tokens_returned": _tokens_returned,
}


# --- The end and notifications -----------------------------------------------------------


def headline(result: dict, names: CaseNames) -> str:
    """How the game ended, for the end screen, the log's last line and the end's
    notification: who solved the case, and in how long (``result``: the rules' result,
    which is also the "game_over" event's data)."""
    winners = result["winners"]
    if not winners:
        return "Nobody solved the case: London's criminals sleep soundly tonight."
    rounds = counted(result["rounds"], "round")
    solvers = capital(names_sentence([names.who(seat) for seat in winners]))
    return f"{solvers} solved the case and won in {rounds}."


def notice(kind: str, title: str, names: Mapping[int, str], details: dict) -> str | None:
    """The notification of an event told away from the table, in the log's own sentence
    as a spectator reads it (``details``: the event's data), after the table's title
    (``None``: the kind is the site's default's to word)."""
    spectator = CaseNames.of_seats(names)
    if kind == "table_news":
        return f"{title}: {capital(_went_to_baker_street(details, spectator))}"
    if kind == "game_over" and "rounds" in details:  # not so in a notice queued before
        return over_notice(title, headline(details, spectator))
    return None
