"""``apply`` accepts exactly what ``legal_actions`` lists (Hypothesis playouts, 1-7 players).

At every step of a random game, every seat and the server try actions of every kind,
built from the state: each visit, placement character and way past a police token, every
character use and discard, Watson, police, Mycroft, answers, done, both Holmes uses,
rulings, verdicts and the timer. Each must be refused unless ``legal_actions`` lists it
for that actor, and must apply if it is listed.

``legal_actions`` lists templates for the free parts of some actions (see ``legal.py``):
a visit's smallest bid stands for every larger bid the player can pay, a stand-in text
for any text that is not blank, up to 500 characters, uniform verdicts for any mix of the
verdicts listed. The probes fill those parts with values drawn from the state, inside and
outside the limits (blank texts included: never listed, always refused).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import SYSTEM, Refusal
from games.watson_holmes import rules as engine
from tests.games.test_watson_holmes_properties import random_config
from tests.games.watson_holmes_helpers import NAMES
from tests.games.watson_holmes_playout import RandomTable

MAX_STEPS = 220
MAX_TEXT = 500
CHARACTERS = (
    "toby",
    "mrs_hudson",
    "irene_adler",
    "wiggins",
    "mycroft",
    "lestrade",
    "mary_morstan",
    "billy",
)
PLACED = (None, "toby", "mary_morstan", "billy")
VERDICTS = ("correct", "wrong", "unsure")
BLANKS = ("", " ", "\t \n")


# --- the probes: actions of every kind, built from the state -------------------------------


def probes(state: dict, rnd: random.Random) -> list[dict]:
    """Actions of every kind for this state, for any actor; most must be refused."""
    numbers = [state["case"]["locations"][key]["number"] for key in state["case"]["order"]]
    questions = [question["id"] for question in state["case"]["questions"]]
    seats = range(len(state["players"]))
    actions: list[dict] = [
        {"type": "take_watson"},
        {"type": "carriage_stop"},
        {"type": "baker_street"},
        {"type": "baker_street", "character": "toby"},
        {"type": "baker_street", "character": rnd.choice(CHARACTERS)},
        {"type": "visit", "location": "221B"},
        {"type": "done_reading"},
        {"type": "discard_character"},
        {"type": "timeout"},
    ]
    for number in numbers:
        actions += _visits(state, number, rnd)
        for kind in ("watson_read", "place_police", "mycroft_read"):
            actions.append({"type": kind, "location": number})
    actions += [{"type": "character", "character": name} for name in CHARACTERS]
    actions.append(_answers(questions, rnd))
    actions.append(_answers(questions, rnd, too_long=rnd.random() < 0.3))
    actions.append({"type": "answer", "answers": {q: "x" for q in questions[:-1]}})
    actions.append(_answers(questions, rnd, blank=True))
    actions.append({"type": "restate", "answers": {rnd.choice(questions): rnd.choice(BLANKS)}})
    actions += [{"type": "holmes_consult", "target": seat} for seat in seats]
    for question in questions:
        actions.append({"type": "holmes_check", "question": question, "answer": _text(rnd)})
    actions.append({"type": "holmes_check", "question": questions[0], "answer": "y" * 501})
    actions.append(
        {"type": "holmes_check", "question": questions[-1], "answer": rnd.choice(BLANKS)}
    )
    requests = [request["id"] for request in state["requests"]] + [state["next_request"]]
    for number in requests:
        for verdict in ("correct", "wrong"):
            actions.append({"type": "rule", "request": number, "verdict": verdict})
        answered = next(
            (r["answers"] for r in state["requests"] if r["id"] == number), {questions[0]: ""}
        )
        for _ in range(2):
            verdicts = {qid: rnd.choice(VERDICTS) for qid in answered}
            actions.append({"type": "judged", "request": number, "verdicts": verdicts})
        for verdict in VERDICTS:
            actions.append(
                {"type": "judged", "request": number, "verdicts": dict.fromkeys(answered, verdict)}
            )
    return actions


def _visits(state: dict, number: int, rnd: random.Random) -> list[dict]:
    """Bids around the smallest and the largest a player could make, in every way in."""
    bid = state["bids"].get(str(number))
    stake = 0 if bid is None else (2 if bid["token"] else bid["carriages"])
    amounts = {0, 1, stake, stake + 1, stake + 2, rnd.randint(0, 16)}
    amounts |= {player["carriages"] + offset for player in state["players"] for offset in (-2, 0)}
    amounts = sorted(amount for amount in amounts if amount >= 0)
    visits = []
    for character in PLACED:
        for call_off in (False, True):
            chosen = amounts if character is None else rnd.sample(amounts, 2)
            for carriages in chosen:
                action = {"type": "visit", "location": number, "carriages": carriages}
                if call_off:
                    action["call_off"] = True
                if character:
                    action["character"] = character
                visits.append(action)
    if rnd.random() < 0.5:
        visits.append({"type": "visit", "location": number, "character": "toby"})
    return visits


def _text(rnd: random.Random, too_long: bool = False) -> str:
    return "z" * (MAX_TEXT + 1) if too_long else f"text-{rnd.randint(0, 999)}"


def _answers(
    questions: list[str], rnd: random.Random, too_long: bool = False, blank: bool = False
) -> dict:
    answers = {qid: _text(rnd) for qid in questions}
    if too_long:
        answers[rnd.choice(questions)] = _text(rnd, too_long=True)
    if blank:
        answers[rnd.choice(questions)] = rnd.choice(BLANKS)
    return {"type": "answer", "answers": answers}


# --- what a listed action stands for ----------------------------------------------------------


def normal(action: dict) -> dict:
    """Spell out the defaults: on foot is 0 carriages, no call-off is false."""
    result = dict(action)
    if result.get("type") == "visit":
        result.setdefault("carriages", 0)
        result.setdefault("call_off", False)
        result.setdefault("character", None)
    return result


def travel(state: dict, seat: int, number: int) -> int:
    """The spec's travel cost: to a card of another zone, in a zoned case."""
    zones = state["case"]["zones"]
    zone = state["case"]["locations"][str(number)]["zone"]
    if not zones or zone is None or zone == state["players"][seat]["zone"]:
        return 0
    return zones["travel_cost"]


def covered(state: dict, actor, action: dict, listed: list[dict]) -> bool:
    """Whether ``action`` is one of ``listed`` or an instance of a listed template."""
    action = normal(action)
    kind = action["type"]
    same_kind = [normal(template) for template in listed if template["type"] == kind]
    if action in same_kind:
        return True
    if kind == "visit":
        return any(_bigger_bid(state, actor, action, template) for template in same_kind)
    if kind == "answer":
        return any(_texts_like(action["answers"], t["answers"]) for t in same_kind)
    if kind == "holmes_check":
        return any(
            t["question"] == action["question"] and _text_ok(action["answer"]) for t in same_kind
        )
    if kind == "judged":
        allowed = {
            verdict
            for t in same_kind
            if t["request"] == action["request"]
            for verdict in t["verdicts"].values()
        }
        keys = [set(t["verdicts"]) for t in same_kind if t["request"] == action["request"]]
        verdicts = action["verdicts"]
        return bool(keys) and set(verdicts) == keys[0] and set(verdicts.values()) <= allowed
    return False


def _bigger_bid(state: dict, seat: int, action: dict, template: dict) -> bool:
    same_way = all(action[key] == template[key] for key in ("location", "call_off", "character"))
    if not same_way or action["character"] in ("toby", "mary_morstan"):
        return False
    most = state["players"][seat]["carriages"] - travel(state, seat, action["location"])
    return template["carriages"] <= action["carriages"] <= most


def _text_ok(text: object) -> bool:
    return isinstance(text, str) and len(text) <= MAX_TEXT and bool(text.strip())


def _texts_like(answers: dict, template: dict) -> bool:
    return set(answers) == set(template) and all(_text_ok(text) for text in answers.values())


# --- the playout ------------------------------------------------------------------------------


def config(rnd: random.Random) -> dict:
    """A random table (``random_config``), sometimes with a case's own start tokens."""
    result = random_config(rnd)
    if rnd.random() < 0.4:
        result["case"]["start"] = {
            "carriages": rnd.choice([2, 5, 10]),
            "call_off": rnd.randint(0, 1),
            "lockpick": rnd.randint(0, 1),
        }
    return result


class KindTable(RandomTable):
    """A random table that picks a kind of move first, so rare moves are played often.

    ``patience`` is how often it turns down 221B: patient tables play long games, hasty
    ones crowd 221B (several attempts in a round, pauses after failures).
    """

    def __init__(self, rnd: random.Random, patience: float, **options):
        super().__init__(rnd, **options)
        self.patience = patience

    def choose(self, state: dict):
        moves = self.moves(state)
        if not moves:
            return None
        kinds = sorted({action["type"] for _, action in moves})
        kind = self.rnd.choice(kinds)
        if kind == "baker_street" and len(kinds) > 1 and self.rnd.random() < self.patience:
            kind = self.rnd.choice([other for other in kinds if other != kind])
        actor, action = self.rnd.choice([move for move in moves if move[1]["type"] == kind])
        action = self.fill(actor, action)
        if kind == "visit" and "carriages" in action and self.rnd.random() < 0.3:
            bigger = {**action, "carriages": action["carriages"] + self.rnd.randint(1, 3)}
            if not isinstance(engine.apply(state, actor, bigger), Refusal):
                action = bigger
        return actor, action


def check_every_probe(state: dict, rnd: random.Random) -> None:
    actors = [*range(len(state["players"])), SYSTEM]
    tried = probes(state, rnd)
    for actor in actors:
        listed = engine.legal_actions(state, actor)
        for action in listed:
            result = engine.apply(state, actor, action)
            assert not isinstance(result, Refusal), ("listed, refused", actor, action, result)
        for action in tried:
            result = engine.apply(state, actor, action)
            accepted = not isinstance(result, Refusal)
            if not accepted:
                assert result.code and result.message.endswith((".", "!", ")")), result
            expected = covered(state, actor, action, listed)
            assert accepted == expected, (
                "accepted but not listed" if accepted else "listed but refused",
                actor,
                action,
                result if not accepted else None,
                [a for a in listed if a["type"] == action["type"]],
            )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=2**63),
    choices=st.integers(min_value=0, max_value=2**32),
)
def test_it_applies_exactly_the_listed_actions_in_random_playouts(count, seed, choices):
    rnd = random.Random(choices)
    state = engine.setup(config(rnd), NAMES[:count], seed)
    table = KindTable(rnd, patience=rnd.choice([0.0, 0.5, 0.8]), solve_rate=0.15)
    for _ in range(MAX_STEPS):
        check_every_probe(state, rnd)
        if engine.is_over(state):
            break
        move = table.choose(state)
        assert move is not None, "nobody can move, yet the game is not over"
        state, _ = engine.apply(state, *move)
