"""A random player for whole games, shared by the property tests and the golden file.

Free-text fields (answers, a Holmes check) are filled with unique markers, so a test can
search every view for text a player may not see. The notebook is the server's: its leak
checks are in the server's tests.
"""

from __future__ import annotations

import random

from games.base import SYSTEM, Refusal
from games.watson_holmes import rules as engine


class RandomTable:
    """Picks a legal move among every seat's and the server's, like a noisy table."""

    def __init__(
        self,
        rnd: random.Random,
        solve_rate: float = 0.35,
        skip: tuple[str, ...] = (),
    ):
        self.rnd = rnd
        self.skip = skip
        self.solve_rate = solve_rate
        self.counter = 0

    def moves(self, state: dict) -> list[tuple[object, dict]]:
        actors = [*range(len(state["players"])), SYSTEM]
        return [
            (actor, action)
            for actor in actors
            for action in engine.legal_actions(state, actor)
            if action["type"] not in self.skip
        ]

    def choose(self, state: dict) -> tuple[object, dict] | None:
        moves = self.moves(state)
        if not moves:
            return None
        actor, action = self.rnd.choice(moves)
        action = self.fill(actor, action)
        if action["type"] == "visit" and self.rnd.random() < 0.2:
            # Listed bids are the smallest; sometimes bid one more when that is affordable.
            bigger = {**action, "carriages": action.get("carriages", 0) + 1}
            if "character" not in action and not isinstance(
                engine.apply(state, actor, bigger), Refusal
            ):
                action = bigger
        return actor, action

    def fill(self, actor: object, action: dict) -> dict:
        self.counter += 1
        mark = f"{actor}-{self.counter}"
        kind = action["type"]
        if kind in ("answer", "restate"):
            answers = {qid: f"ANS-{mark}-{qid}" for qid in action["answers"]}
            return {**action, "answers": answers}
        if kind == "holmes_check":
            return {**action, "answer": f"CHK-{mark}"}
        if kind == "judged":
            return {**action, "verdicts": self.verdicts(action["verdicts"])}
        return action

    def verdicts(self, template: dict) -> dict:
        options = ["correct", "wrong"]
        if "unsure" in template.values():
            options.append("unsure")
        if self.rnd.random() < self.solve_rate:
            return {qid: "correct" for qid in template}
        return {qid: self.rnd.choice(options) for qid in template}
