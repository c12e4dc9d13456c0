"""Accuracy and speed of the Baker Street answer checker on the labelled set.

`python -m bench answers` prints accuracy, false accepts (judged correct, labelled wrong or
unsure), false rejects (judged wrong, labelled correct), the unsure rate and judgments per
second. Goals: no false accepts, at least 98% accuracy, at least 50,000 judgments/s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from cases.answers import CORRECT, UNSURE, WRONG, AnswerKey, judge

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "answers"
TIMED_SECONDS = 1.0  # time passes over the set for at least this long


@dataclass(frozen=True)
class Label:
    id: str  # "person:forged_will:07"
    question: AnswerKey
    given: str
    expect: str
    why: str


@dataclass(frozen=True)
class Figures:
    total: int
    agreed: int
    false_accepts: list[Label]
    false_rejects: list[Label]
    unsure: int

    @property
    def accuracy(self) -> float:
        return self.agreed / self.total


def load_labels(folder: Path = LABELS) -> list[Label]:
    labels = []
    for path in sorted(folder.glob("*.yaml")):
        for question in yaml.safe_load(path.read_text(encoding="utf-8")):
            key = AnswerKey(
                question["kind"],
                str(question["answer"]),
                tuple(str(form) for form in question.get("accept", ())),
                tuple(str(form) for form in question.get("reject", ())),
            )
            for number, item in enumerate(question["judgments"], start=1):
                label_id = f"{path.stem}:{question['id']}:{number:02d}"
                given = "" if item["given"] is None else str(item["given"])
                labels.append(Label(label_id, key, given, item["expect"], item["why"]))
    return labels


def evaluate(labels: list[Label]) -> Figures:
    outcomes = [judge(label.question, label.given).outcome for label in labels]
    pairs = list(zip(labels, outcomes, strict=True))
    return Figures(
        total=len(labels),
        agreed=sum(label.expect == outcome for label, outcome in pairs),
        false_accepts=[label for label, outcome in pairs if outcome == CORRECT != label.expect],
        false_rejects=[
            label for label, outcome in pairs if outcome == WRONG and label.expect == CORRECT
        ],
        unsure=sum(outcome == UNSURE for outcome in outcomes),
    )


def judgments_per_second(labels: list[Label]) -> float:
    pairs = [(label.question, label.given) for label in labels]
    for question, given in pairs:  # warm the cache of compiled keys, as a server would be
        judge(question, given)
    passes = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < TIMED_SECONDS:
        for question, given in pairs:
            judge(question, given)
        passes += 1
    return passes * len(pairs) / elapsed


def main() -> None:
    labels = load_labels()
    figures = evaluate(labels)
    print(f"   labels          {figures.total}")
    print(f"   accuracy        {figures.accuracy:.1%}  (goal: at least 98%)")
    print(f"   false accepts   {len(figures.false_accepts)}  (goal: 0)")
    print(f"   false rejects   {len(figures.false_rejects)}")
    print(f"   unsure rate     {figures.unsure / figures.total:.1%}")
    for label in figures.false_accepts + figures.false_rejects:
        print(f"     {label.id}: {label.given!r} labelled {label.expect}")
    print(f"   judgments/s     {judgments_per_second(labels):,.0f}  (goal: at least 50,000)")
