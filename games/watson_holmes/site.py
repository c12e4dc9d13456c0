"""Watson & Holmes on the site: a table plays a published case; answers given at 221B Baker
Street (and Holmes's answer checks) are judged by the case's checker; the end shows the
solution and a debrief."""

from cases.models import AnswerAttempt, CaseVersion, Location, Question
from games.base import Refusal
from games.sites import EventReader, GameSite, PageContext
from games.watson_holmes.page import ANSWER_PREFIX, VERSIONED_ACTIONS, game_page
from games.watson_holmes.rules import pending_judgement
from games.watson_holmes.rules.view import may_see_solution
from games.watson_holmes.sentences import notice

MAX_TEXT = 500
MAX_REASON = 300  # the rules refuse longer reasons

# The placements in the event log, public events all: where each pawn went each round.
ROUTE_EVENTS = ("round_started", "visited", "went_to_carriage_stop", "went_to_baker_street")


class WatsonHolmesSite(GameSite):
    template = "watson_holmes/_table.html"
    brief_template = "watson_holmes/_brief.html"
    stylesheet = "watson_holmes/table.css"
    versioned_actions = frozenset(VERSIONED_ACTIONS)
    throttled_actions = frozenset({"answer"})

    # --- Set-up -------------------------------------------------------------------------

    def summary(self, case_version: CaseVersion | None = None) -> dict:
        # A version's title and its case's slug do not change once it can be played.
        return {
            "title": case_version.title,
            "case": {"slug": case_version.case.slug, "title": case_version.title},
        }

    def progress(self, state: dict) -> dict:
        return {**super().progress(state), "round": state.get("round")}

    def player_range(self, case_version: CaseVersion | None = None) -> tuple[int, int]:
        return (
            max(self.game.min_players, case_version.min_players),
            min(self.game.max_players, case_version.max_players),
        )

    def config(self, *, case_version: CaseVersion, options: dict, host_seat: int) -> dict:
        """The case as the rules need it: everything but the answers and the solution."""
        return {
            "case": _case_config(case_version),
            "options": {**options, "host": host_seat},
        }

    # --- Notices ------------------------------------------------------------------------

    def notices(self, before, after, events):
        changes = [
            change for change in super().notices(before, after, events) if change[0] != "game_over"
        ]
        for event in events:
            if event.audience != "all":
                continue
            if event.type == "went_to_baker_street":
                changes.append(("table_news", dict(event.data)))
            elif event.type == "game_over":
                changes.append(("game_over", dict(event.data)))
        return changes

    def notice_text(self, kind, title, names, details):
        told = notice(kind, title, names, details)
        return told if told is not None else super().notice_text(kind, title, names, details)

    def notice_recipients(self, kind, details, seats):
        if kind == "table_news":
            return [seat for seat in seats if seat != details.get("player")]
        return super().notice_recipients(kind, details, seats)

    def outcome_record(self, outcome: dict) -> dict:
        return {
            "winners": list(outcome["winners"]),
            "solved": outcome["result"] == "solved",
            "rounds": outcome["rounds"],
        }

    # --- Judging at 221B ----------------------------------------------------------------

    def judgement_requests(self, state: dict) -> list[dict]:
        return pending_judgement(state)

    def judgement_file(
        self, *, case_version_id: int, user_id: int | None, request: dict, private: bool
    ) -> AnswerAttempt:
        """The answers a request carries, filed as the case's answer attempt."""
        return AnswerAttempt.objects.create(
            version_id=case_version_id, user_id=user_id, answers=request["answers"], private=private
        )

    def judgement_action(self, *, attempt_id: int, request: int, kind: str) -> dict:
        """Judge the attempt (once: it keeps its verdicts) and say so to the rules."""
        from cases.services import answer_attempt_judge

        attempt = answer_attempt_judge(attempt_id=attempt_id)
        # The checker's verdicts go to the rules as they are: the rules decide what
        # "unsure" means (a restatement at 221B, a ruling for a Holmes check).
        verdicts = {question: judged["verdict"] for question, judged in attempt.verdicts.items()}
        reasons = {
            question: str(judged.get("reason") or "")[:MAX_REASON]
            for question, judged in attempt.verdicts.items()
            if judged.get("reason")
        }
        return {"type": "judged", "request": request, "verdicts": verdicts, "reasons": reasons}

    # --- The API schema -----------------------------------------------------------------

    def view_schema_notes(self) -> dict[str, dict]:
        """What the view's OpenAPI component says beyond the shapes seen in playouts
        (play.api_schema): meanings, and the maps a playout cannot show whole."""
        return VIEW_SCHEMA_NOTES

    # --- Reads --------------------------------------------------------------------------

    # Private events that quote answers or verdicts: one's own answers and restatement, a
    # consultation of another's answers, a check's verdict, a ruling's answer to rule on.
    withheld_events = frozenset(
        {"your_answers", "your_restatement", "consultation", "check_result", "ruling_request"}
    )

    def shows_case_to(self, state: dict, seat: int | None) -> bool:
        return may_see_solution(state, seat)

    def view_withheld(self, game_view: dict) -> dict:
        """No attempt at 221B (anyone's: right answers are the key, and a verdict or the
        checker's "Correct: ..." tells which are), no Holmes card result, no ruling to
        give on another player's answer. Public counts of right answers stay."""
        you = game_view.get("you")
        if you is not None:
            you = {
                **you,
                "answers": None,
                "attempt": None,
                "holmes": dict.fromkeys(you.get("holmes") or {}),
                "rulings": [],
                "restatement": None,
            }
        return {**game_view, "attempts": None, "you": you}

    def view_extras(self, *, case_version_id, game_view, may_reveal_case=None):
        if not game_view.get("may_see_solution"):
            return {"solution": None}
        if may_reveal_case is not None and not may_reveal_case():
            # The viewer plays this case at another table, or their device holds a seat
            # still playing this one: the solution waits, and `view_withheld` takes every
            # answer and verdict out of the view.
            return {"solution": None, "solution_withheld": True}
        version = CaseVersion.objects.get(pk=case_version_id)
        questions = Question.objects.filter(version=version).order_by("position")
        return {
            "solution": {
                "answers": [{"id": q.key, "ask": q.ask, "answer": q.answer} for q in questions],
                "text": version.solution,
            }
        }

    def notes_refusal(self) -> str:
        return "Irene Adler has struck: nobody else may write notes during this investigation."

    def action_from_form(self, action: dict, data) -> dict:
        result = dict(action)
        carriages = data.get("carriages")
        if carriages not in (None, ""):
            try:
                result["carriages"] = int(carriages)
            except ValueError:
                result["carriages"] = carriages  # the rules refuse it in a sentence
        if data.get("question"):
            result["question"] = str(data["question"])[:60]
        if "answer" in data:
            result["answer"] = str(data.get("answer") or "").strip()[:MAX_TEXT]
        answers = {
            name[len(ANSWER_PREFIX) :]: str(value).strip()[:MAX_TEXT]
            for name, value in data.items()
            if name.startswith(ANSWER_PREFIX)
        }
        if answers:
            result["answers"] = answers
        return result

    def page(self, context: PageContext) -> dict:
        view, seats = context.view, context.seats
        page = game_page(context)
        page["answer_prefix"] = ANSWER_PREFIX
        page["debrief"] = _debrief(view, context.events)
        page["restatement"] = self._restatement_form(view)
        page["verdicts"] = _your_verdicts(view["game"])
        page["attempts"] = _attempts(view["game"], seats)
        # Which answers form comes back as the player filled it in (``page_after_refusal``).
        page["refused_form"] = None
        page["holmes_check"] = None
        return page

    def page_after_refusal(self, page: dict, action: dict, refusal: Refusal) -> dict:
        """A refused answers form comes back as the player filled it in: every box keeps
        what they typed, and the sentence stands by the box it is about (the question a
        blank answer left unanswered, ``refusal.details``).

        The boxes are drawn from the move itself, not kept by the page's script as live
        updates keep them (``hx-preserve``): the templates leave that out of a refused form.
        """
        kind = action.get("type")
        about = refusal.details.get("question")
        if kind == "answer":
            page["answer_fields"] = _refilled(page["answer_fields"], action, about, refusal)
            page["refused_form"] = "answers"
        elif kind == "restate" and page.get("restatement"):
            restatement = page["restatement"]
            questions = _refilled(restatement["questions"], action, about, refusal)
            page["restatement"] = {**restatement, "questions": questions}
            page["refused_form"] = "restate"
        elif kind == "holmes_check":
            page["holmes_check"] = {
                "question": action.get("question"),
                "value": action.get("answer") if isinstance(action.get("answer"), str) else "",
                "error": refusal.message if about else "",
            }
            page["refused_form"] = "check"
        return page

    def _restatement_form(self, view: dict) -> dict | None:
        """Sherlock's question to a player whose answer he could not read: the form to say
        those answers again (only those)."""
        game = view["game"]
        asked = (game.get("you") or {}).get("restatement")
        actions = [a for a in game.get("legal_actions") or [] if a["type"] == "restate"]
        if not asked or not actions:
            return None
        return {
            "questions": asked["questions"],
            "control": self.control(actions[0], "Give Sherlock these answers", view["version"]),
        }


def _refilled(fields: list[dict], action: dict, about: str | None, refusal: Refusal) -> list:
    """The boxes of a refused answers form with what the player wrote in each, and the
    refusal's sentence by the box it is about."""
    written = action.get("answers") if isinstance(action.get("answers"), dict) else {}
    return [
        {
            **field,
            "value": str(written.get(field["id"], field.get("value", ""))),
            "error": refusal.message if field["id"] == about else "",
        }
        for field in fields
    ]


# --- The view, as the API schema describes it ---------------------------------------------

MARKDOWN = "Markdown, sanitised when rendered; [[n]] refers to the location card numbered n."
CARD_TEXT = {
    "type": "object",
    "properties": {
        "number": {"type": "integer"},
        "name": {"type": "string"},
        "text": {"type": "string", "description": f"The card's text. {MARKDOWN}"},
    },
    "required": ["number", "name", "text"],
}
BY_QUESTION = {"type": "object", "additionalProperties": {"type": "string"}}
VERDICT = {"type": "string", "enum": ["correct", "wrong", "unsure"]}
VIEW_SCHEMA_NOTES = {
    "phase": {"enum": ["visiting", "investigation", "over"]},
    "step": {
        "enum": ["watson", "reading", "solving"],
        "description": "Within the investigation: Watson's read, the reading, then 221B.",
    },
    "questions": {
        "description": "The case's questions, in order; kind says what an answer "
        "names (person, place, text, number, yes_no)."
    },
    "waiting_for": {
        "description": "Seats the game waits for now (a judging by the server is "
        "not waiting for a seat). A table's turn timer, if set, ends every wait."
    },
    "players": {
        "description": "Every seat, public facts only. status is playing, eliminated, won "
        "or withdrawn (left while still investigating); left says the person left the "
        "game: play passes the seat by, and nobody waits for it."
    },
    "judging": {
        "description": "Attempts and Holmes checks in hand: kind solve, restate or "
        "check; status judging (the server), restating (the player was asked to say "
        "an answer more plainly) or ruling (the eliminated players)."
    },
    "watson.read": {
        **CARD_TEXT,
        "nullable": True,
        "description": "The card Watson read aloud to everyone this round.",
    },
    "result": {
        "description": "Once the game is over: solved (winners by seat) or everyone_lost.",
        "properties": {
            "kind": {"type": "string", "enum": ["solved", "everyone_lost"]},
            "winners": {"type": "array", "items": {"type": "integer"}},
            "rounds": {"type": "integer"},
        },
        "required": ["kind", "winners", "rounds"],
        "type": "object",
        "nullable": True,
    },
    "attempts": {
        "description": "The debrief, null until the game is over: every attempt judged at "
        "221B, answer by answer, with its verdict and the checker's reason. first_answer is "
        "the wording Sherlock asked the player to restate, if he did."
    },
    "attempts[].answers[].verdict": VERDICT,
    "attempts[].answers[].reason": {"type": "string", "nullable": True},
    "attempts[].answers[].first_answer": {"type": "string", "nullable": True},
    "you.reading": {
        "type": "array",
        "items": CARD_TEXT,
        "description": "The cards you read this round: private to you.",
    },
    "you.casebook": {
        "type": "array",
        "items": CARD_TEXT,
        "nullable": True,
        "description": "With the casebook option: every card you have read.",
    },
    "you.answers": {
        **BY_QUESTION,
        "nullable": True,
        "description": "Your answers at 221B, by question id.",
    },
    "you.attempt": {
        "type": "object",
        "nullable": True,
        "description": "Your judged attempt at 221B. Eliminated, you see each verdict and the "
        "checker's reason; restated holds the first wording of any answer you restated.",
        "properties": {
            "answers": BY_QUESTION,
            "correct": {"type": "integer"},
            "verdicts": {"type": "object", "additionalProperties": VERDICT},
            "reasons": BY_QUESTION,
            "restated": BY_QUESTION,
        },
        "required": ["answers", "correct"],
    },
    "you.restatement": {
        "type": "object",
        "nullable": True,
        "description": "Sherlock is not sure what some of your answers mean: say each again "
        "more plainly with a restate action (only these questions, once). Nothing here says "
        "how near the first answer came; unsure again counts as wrong.",
        "properties": {
            "questions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "number": {"type": "integer", "description": "Its place in the case."},
                        "ask": {"type": "string"},
                        "answer": {"type": "string", "description": "What you wrote first."},
                        "prompt": {"type": "string", "description": "Sherlock's question."},
                    },
                    "required": ["id", "number", "ask", "answer", "prompt"],
                },
            }
        },
        "required": ["questions"],
    },
}


# --- Verdicts that explain themselves -------------------------------------------------------

VERDICT_WORDS = {"correct": "Right", "wrong": "Wrong", "unsure": "Not judged"}


def _verdict_rows(attempt: dict, questions: list[dict]) -> list[dict]:
    """An attempt answer by answer: what was written, right or wrong, and the reason."""
    verdicts = attempt.get("verdicts") or {}
    reasons = attempt.get("reasons") or {}
    restated = attempt.get("restated") or {}
    return [
        {
            "number": number,
            "ask": question["ask"],
            "answer": attempt["answers"].get(question["id"], ""),
            "verdict": verdicts.get(question["id"]),
            "verdict_words": VERDICT_WORDS.get(verdicts.get(question["id"]), "Not judged"),
            "reason": reasons.get(question["id"]) or "",
            "first_answer": restated.get(question["id"]),
        }
        for number, question in enumerate(questions, 1)
    ]


def _your_verdicts(game: dict) -> list[dict] | None:
    """An eliminated player's own verdicts, with the checker's reasons: why they are out.
    (At the end everyone's attempts are shown together: see ``_attempts``.)"""
    you = game.get("you") or {}
    player = game["players"][you["seat"]] if you else None
    if not player or player["status"] != "eliminated" or not you.get("attempt"):
        return None
    if game["phase"] == "over":
        return None
    return _verdict_rows(you["attempt"], game["questions"])


def _attempts(game: dict, seats: dict) -> list[dict] | None:
    """Every attempt made at 221B, once the game is over (the answers are public then)."""
    if game.get("attempts") is None:
        return None
    me = (game.get("you") or {}).get("seat")
    return [
        {
            "seat": seats.get(entry["seat"], {}),
            "name": "You" if entry["seat"] == me else entry["name"],
            "won": entry["status"] == "won",
            "correct": entry["correct"],
            "rows": _verdict_rows(
                {
                    "answers": {a["id"]: a["answer"] for a in entry["answers"]},
                    "verdicts": {a["id"]: a["verdict"] for a in entry["answers"]},
                    "reasons": {a["id"]: a["reason"] for a in entry["answers"]},
                    "restated": {
                        a["id"]: a["first_answer"] for a in entry["answers"] if a["first_answer"]
                    },
                },
                game["questions"],
            ),
        }
        for entry in game["attempts"]
    ]


def _case_config(version: CaseVersion) -> dict:
    locations = Location.objects.filter(version=version).select_related("zone").order_by("number")
    questions = Question.objects.filter(version=version).order_by("position")
    zones = None
    if version.start_zone:
        zones = {
            "start": version.start_zone,
            "travel_cost": version.travel_cost or 0,
            "names": {zone.key: zone.name for zone in version.zones.order_by("position")},
        }
    start = {
        kind: value
        for kind, value in {
            "carriages": version.start_carriages,
            "police": version.start_police,
            "call_off": version.start_call_off,
            "lockpick": version.start_lockpick,
        }.items()
        if value is not None
    }
    return {
        "locations": [
            {
                "number": loc.number,
                "name": loc.name,
                "text": loc.text,
                "icons": list(loc.icons),
                "carriages": loc.icon_carriages,
                "zone": loc.zone.key if loc.zone else None,
            }
            for loc in locations
        ],
        "questions": [{"id": q.key, "ask": q.ask, "kind": q.kind} for q in questions],
        "zones": zones,
        "start": start,
    }


# --- The debrief at the end of a game ----------------------------------------------------


def _debrief(view: dict, events: EventReader) -> dict | None:
    """Each answer beside the cards that prove it, and each player's route, round by round.

    Only once the member's view carries the solution, so nobody still playing learns the
    evidence. Routes come from the events this member may see.
    """
    if view.get("solution") is None or view.get("game") is None:
        return None
    names = {loc["number"]: loc["name"] for loc in view["game"]["locations"]}
    evidence = dict(
        Question.objects.filter(version_id=view["case_version"]).values_list("key", "evidence")
    )
    answers = [
        {
            **answer,
            "evidence": [
                {"number": number, "name": names.get(number, "")}
                for number in evidence.get(answer["id"], [])
            ],
        }
        for answer in view["solution"]["answers"]
    ]
    return {"answers": answers, "routes": _routes(view, names, events(ROUTE_EVENTS))}


def _routes(view: dict, names: dict, events: list[tuple[str, dict]]) -> list[dict]:
    rounds: dict[int, dict[int, str]] = {}
    current = 1
    for kind, payload in events:
        if kind == "round_started":
            current = payload.get("round", current + 1)
            continue
        if kind == "visited":
            number = payload.get("location")
            place = f"{number} · {names.get(number, '')}"
        elif kind == "went_to_carriage_stop":
            place = "Carriage Stop"
        else:
            place = "221B Baker Street"
        # An outbid player places again: the last placement of a round is where they read.
        rounds.setdefault(current, {})[payload.get("player")] = place
    return [
        {
            "seat": player["seat"],
            "name": player["name"],
            "stops": [
                {"round": number, "place": rounds[number].get(player["seat"], "—")}
                for number in sorted(rounds)
            ],
        }
        for player in view["game"]["players"]
    ]
