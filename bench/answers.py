"""Accuracy and speed of the Baker Street answer checker on the labelled set.

`python -m bench answers` prints accuracy, false accepts (judged correct, labelled wrong or
unsure), false rejects (judged wrong, labelled correct), the unsure rate, the share of the
answers labelled correct that the checker was only unsure of (a player who answered right
and must restate), and judgments per second. Goals: no false accepts, at least 98% accuracy,
under 3% of the correct answers judged unsure, at least 50,000 judgments/s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from cases.answers import CORRECT, UNSURE, WRONG, AnswerKey, judge

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "answers"
LABEL_FIELDS = {"given", "expect", "why"}
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
    correct_labels: int  # labelled correct
    correct_judged_unsure: list[Label]  # labelled correct, judged unsure

    @property
    def accuracy(self) -> float:
        return self.agreed / self.total

    @property
    def unsure_share_of_correct(self) -> float:
        return len(self.correct_judged_unsure) / max(self.correct_labels, 1)


def load_labels(folder: Path = LABELS) -> list[Label]:
    labels = []
    for path in sorted(folder.glob("*.yaml")):
        for question in yaml.safe_load(path.read_text(encoding="utf-8")):
            key = AnswerKey(
                question["kind"],
                str(question["answer"]),
                tuple(str(form) for form in question.get("accept", ())),
                tuple(str(form) for form in question.get("reject", ())),
                ask=str(question.get("ask", "")),
            )
            for number, item in enumerate(question["judgments"], start=1):
                label_id = f"{path.stem}:{question['id']}:{number:02d}"
                if set(item) != LABEL_FIELDS:
                    # An unquoted comma in a flow mapping makes a key of the rest of a reason.
                    raise ValueError(f"{label_id}: fields {sorted(item)}, not given/expect/why")
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
        correct_labels=sum(label.expect == CORRECT for label in labels),
        correct_judged_unsure=[
            label for label, outcome in pairs if outcome == UNSURE and label.expect == CORRECT
        ],
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
    print(
        f"   correct judged unsure  {figures.unsure_share_of_correct:.1%}"
        f"  ({len(figures.correct_judged_unsure)} of {figures.correct_labels}; goal: under 3%)"
    )
    for label in figures.false_accepts + figures.false_rejects + figures.correct_judged_unsure:
        print(f"     {label.id}: {label.given!r} labelled {label.expect}")
    print(f"   judgments/s     {judgments_per_second(labels):,.0f}  (goal: at least 50,000)")
