"""The answer tester's one-click decisions on a form players gave: accept it (one more
correct form of the question, as "Accept this form" does for a near miss) or reject it
(a form the judge must call wrong, however close it comes to an accepted one).

Both write the saved question of a version its author may edit; the editor's script then
puts the same line in the fields on the page, so the next Save keeps it.
"""

from django.db import transaction

from authoring.services import WorkflowRefused, check_case_edit
from cases import answers
from cases.models import Question
from cases.services import question_accept_form_add

ACCEPT = "accept"
REJECT = "reject"
DECISIONS = (ACCEPT, REJECT)


def check_answer_form_decide(*, question: Question, user, form: str) -> None:
    check_case_edit(version=question.version, user=user)
    if not form.strip():
        raise WorkflowRefused("There is no answer to accept or reject.", "empty_form")
    if len(form.strip()) > answers.MAX_LENGTH:
        raise WorkflowRefused(
            f"That answer is too long to be a form (over {answers.MAX_LENGTH} characters).",
            "too_long",
        )


@transaction.atomic
def answer_form_decide(*, question: Question, user, form: str, decision: str) -> Question:
    """Accept or reject `form` for the question; the question as saved after it."""
    if decision not in DECISIONS:
        raise WorkflowRefused("Choose to accept or to reject the answer.", "bad_decision")
    # Locked and read again: autosave may have written the question since the page was drawn.
    question = (
        Question.objects.select_for_update().select_related("version__case").get(pk=question.pk)
    )
    check_answer_form_decide(question=question, user=user, form=form)
    if decision == ACCEPT:
        return question_accept_form_add(question=question, form=form)
    return question_reject_form_add(question=question, form=form)


def question_reject_form_add(*, question: Question, form: str) -> Question:
    """Add `form` to the question's rejected forms (once), and drop it from the accepted
    ones, where it would contradict the rejection. The answer itself cannot be rejected."""
    form = form.strip()
    if form.casefold() == question.answer.strip().casefold():
        raise WorkflowRefused(
            "That is the question's answer: change the answer before rejecting it.",
            "is_the_answer",
        )
    rejected = [*question.reject]
    if form.casefold() not in {existing.casefold() for existing in rejected}:
        rejected.append(form)
    question.reject = rejected
    question.accept = [f for f in question.accept if f.casefold() != form.casefold()]
    question.save(update_fields=["accept", "reject"])
    return question
