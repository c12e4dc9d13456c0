"""The game log on a Watson & Holmes table page: each public event in a sentence, told to
the member reading it ("Bob outbid you on 1 · Brandt's Clock Shop with 2 carriages").

Only events everyone at the table sees are asked for (PUBLIC_EVENTS), so a sentence can
never carry a card's text, somebody's answers or a verdict meant for one player.
"""

from games.watson_holmes.rules.state import CHARACTERS
from games.words import names_sentence

# The public events the log tells, in the rules' own names. Others (a card read in
# private, one's own answers, a consultation's result) are never read for the log.
PUBLIC_EVENTS = (
    "round_started",
    "watson_taken",
    "visited",
    "outbid",
    "went_to_carriage_stop",
    "went_to_baker_street",
    "visiting_ended",
    "watson_read",
    "watson_unused",
    "could_not_read",
    "lockpick_used",
    "tokens_gained",
    "police_placed",
    "done_reading",
    "carriage_stop_income",
    "answers_written",
    "not_judged",
    "restatement_asked",
    "answers_restated",
    "judging",
    "solved",
    "eliminated",
    "attempts_paused",
    "last_player",
    "character_used",
    "character_discarded",
    "extra_read",
    "holmes_consulted",
    "holmes_check_asked",
    "ruling_needed",
    "holmes_check_answered",
    "timeout",
    "withdrew",
    "tokens_returned",
    "game_over",
)
TOKEN_WORDS = {
    "carriages": ("carriage", "carriages"),
    "police": ("police token", "police tokens"),
    "call_off": ("call-off token", "call-off tokens"),
    "lockpick": ("lockpick", "lockpicks"),
}


def game_log(game: dict, me: int | None, events: list[tuple[str, dict]]) -> list[dict]:
    """The rounds, newest first, each with its sentences newest first; the current round
    is marked open (the page folds the others)."""
    teller = _Teller(game, me)
    rounds: list[dict] = [{"number": 1, "entries": []}]
    for index, (kind, data) in enumerate(events):
        if kind == "round_started":
            rounds.append({"number": data.get("round", rounds[-1]["number"] + 1), "entries": []})
            continue
        if _told_by_the_outbid(kind, data, events[index - 1] if index else None):
            continue
        text = teller.sentence(kind, data, events[index + 1 :])
        if text:
            rounds[-1]["entries"].append(
                {
                    "kind": kind,
                    "text": text,
                    "about_you": teller.about_you(data),
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


def _plural(count: int, kind: str) -> str:
    one, many = TOKEN_WORDS[kind]
    return f"{count} {one if count == 1 else many}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Teller:
    """Names, places and questions as the member reading the log should hear them."""

    def __init__(self, game: dict, me: int | None):
        self.me = me
        self.names = {player["seat"]: player["name"] for player in game["players"]}
        self.places = {
            loc["number"]: f"{loc['number']} · {loc['name']}" for loc in game["locations"]
        }
        self.questions = {question["id"]: question["ask"] for question in game["questions"]}

    def who(self, seat) -> str:
        return "you" if seat == self.me else self.names.get(seat, "a player")

    def whose(self, seat) -> str:
        return "your" if seat == self.me else f"{self.names.get(seat, 'a player')}'s"

    def place(self, number) -> str:
        return self.places.get(number, str(number))

    def about_you(self, data: dict) -> bool:
        seats = [data.get(key) for key in ("player", "by", "target")] + list(
            data.get("players", [])
        )
        return self.me is not None and self.me in seats

    def sentence(self, kind: str, data: dict, later: list[tuple[str, dict]]) -> str:
        tell = getattr(self, f"_{kind}", None)
        text = tell(data, later) if tell else ""
        return _capital(text) if text else ""

    # --- Placing pawns --------------------------------------------------------------------

    def _watson_taken(self, data, later):
        return (
            f"{self.who(data['player'])} took Watson ({_plural(data['carriages'], 'carriages')})."
        )

    def _visited(self, data, later):
        who, where = self.who(data["player"]), self.place(data["location"])
        character = data.get("character")
        if character == "toby":
            return f"{who} sent Toby to {where}."
        if character == "mary_morstan":
            return f"{who} joined the visit to {where} with Mary Morstan."
        how = (
            "on foot"
            if not data["carriages"]
            else f"with {_plural(data['carriages'], 'carriages')}"
        )
        extras = []
        if data.get("call_off"):
            extras.append("a call-off token")
        if character == "billy":
            extras.append("Billy the page")
        using = f", using {names_sentence(extras)}" if extras else ""
        return f"{who} went to {where} {how}{using}."

    def _outbid(self, data, later):
        # The winning bid is told by the visit that follows in the same move.
        bid = next((d for k, d in later if k == "visited" and d.get("player") == data["by"]), None)
        how = f" with {_plural(bid['carriages'], 'carriages')}" if bid and bid["carriages"] else ""
        returned = (
            f" ({_plural(data['returned'], 'carriages')} back)" if data.get("returned") else ""
        )
        text = f"{self.who(data['by'])} outbid {self.who(data['player'])} on "
        text += f"{self.place(data['location'])}{how}{returned}"
        return text + (": choose again." if data["player"] == self.me else ".")

    def _went_to_carriage_stop(self, data, later):
        return f"{self.who(data['player'])} went to the Carriage Stop."

    def _went_to_baker_street(self, data, later):
        held = data.get("carriages")
        holding = f", holding {_plural(held, 'carriages')}" if held is not None else ""
        return f"{self.who(data['player'])} went to 221B Baker Street{holding}."

    def _visiting_ended(self, data, later):
        diary = self.who(data["diary"])
        return (
            "Every pawn is placed: the investigation begins. "
            f"{_capital(diary)} took the Diary, as the last to place a pawn, "
            "and will start the next round."
        )

    # --- Reading --------------------------------------------------------------------------

    def _watson_read(self, data, later):
        return f"Watson ({self.who(data['player'])}) read {self.place(data['location'])} aloud."

    def _watson_unused(self, data, later):
        return f"{self.who(data['player'])} held Watson but read no card aloud."

    def _could_not_read(self, data, later):
        where = self.place(data["location"])
        return f"{self.who(data['player'])} could not read {where}: it is locked."

    def _lockpick_used(self, data, later):
        return f"{self.who(data['player'])} picked the lock of {self.place(data['location'])}."

    def _tokens_gained(self, data, later):
        gains = [_plural(data[kind], kind) for kind in TOKEN_WORDS if data.get(kind)]
        if not gains:
            return ""
        return f"{self.who(data['player'])} gained {names_sentence(gains)}."

    def _police_placed(self, data, later):
        return f"{self.who(data['player'])} left a police token on {self.place(data['location'])}."

    def _done_reading(self, data, later):
        return f"{self.who(data['player'])} finished reading."

    def _carriage_stop_income(self, data, later):
        gained = _plural(data["carriages"], "carriages")
        return f"{self.who(data['player'])} gained {gained} at the Carriage Stop."

    # --- 221B Baker Street ----------------------------------------------------------------

    def _answers_written(self, data, later):
        return f"{self.who(data['player'])} wrote answers at 221B."

    def _not_judged(self, data, later):
        who = self.who(data["player"])
        plays = "play" if data["player"] == self.me else "plays"
        return f"Time ran out before {who} wrote answers at 221B: not judged, {who} {plays} on."

    def _restatement_asked(self, data, later):
        return f"Sherlock asked {self.who(data['player'])} to restate an answer more plainly."

    def _answers_restated(self, data, later):
        their = "your" if data["player"] == self.me else "their"
        return f"{self.who(data['player'])} restated {their} answers."

    def _judging(self, data, later):
        names = names_sentence([self.whose(seat) for seat in data.get("players", [])])
        return f"Sherlock Holmes judged {names} answers." if names else ""

    def _solved(self, data, later):
        place = f" (place {data['place']})" if data.get("place") else ""
        return f"{self.who(data['player'])} solved the case{place}!"

    def _eliminated(self, data, later):
        who = self.who(data["player"])
        right = f"{data['correct']} of {data['questions']}" if "questions" in data else "not all"
        verb = "are" if data["player"] == self.me else "is"
        return f"{who} got {right} right at 221B and {verb} out of the race."

    def _attempts_paused(self, data, later):
        names = names_sentence([self.who(seat) for seat in data.get("players", [])])
        return f"An attempt failed: {names} may consult Holmes, then confirm their answers."

    def _last_player(self, data, later):
        rounds = data.get("rounds")
        left = f" and has {rounds} round{'s' if rounds != 1 else ''} left" if rounds else ""
        if data["player"] == self.me:
            left = left.replace("has", "have")
            return f"You are the last detective in the race{left}."
        return f"{self.who(data['player'])} is the last detective in the race{left}."

    def _game_over(self, data, later):
        winners = names_sentence([self.who(seat) for seat in data.get("winners", [])])
        return f"The game is over: {winners} won." if winners else "The game is over: nobody won."

    # --- Characters and the Holmes card ---------------------------------------------------

    def _character_used(self, data, later):
        name = CHARACTERS.get(data["character"], data["character"])
        acts_as = data.get("acts_as")
        copied = (
            CHARACTERS.get(acts_as, acts_as) if acts_as and acts_as != data["character"] else None
        )
        text = f"{self.who(data['player'])} revealed {name}"
        return text + (f", acting as {copied}." if copied else ".")

    def _character_discarded(self, data, later):
        gained = _plural(data["carriages"], "carriages")
        return f"{self.who(data['player'])} discarded a character for {gained}."

    def _extra_read(self, data, later):
        return f"Mycroft: {self.who(data['player'])} also read {self.place(data['location'])}."

    def _holmes_consulted(self, data, later):
        target = self.whose(data["target"])
        return f"{self.who(data['player'])} consulted {target} answers with the Holmes card."

    def _holmes_check_asked(self, data, later):
        ask = self.questions.get(data.get("question"), "a question")
        return f"{self.who(data['player'])} asked Sherlock to check an answer to “{ask}”."

    def _ruling_needed(self, data, later):
        return f"Sherlock's voices must rule on {self.whose(data['player'])} answer check."

    def _holmes_check_answered(self, data, later):
        return f"Sherlock answered {self.whose(data['player'])} answer check."

    def _timeout(self, data, later):
        return "Time ran out: the game moved on."

    # --- Leaving (rules/withdraw.py) -----------------------------------------------------

    def _withdrew(self, data, later):
        return f"{self.who(data['player'])} left the game; play passes them by."

    def _tokens_returned(self, data, later):
        returned = [_plural(data[kind], kind) for kind in TOKEN_WORDS if data.get(kind)]
        return f"{names_sentence(returned)} went back to the stock." if returned else ""
