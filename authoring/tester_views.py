"""The answer tester's endpoints, called by the editor's script (authoring/answer_tester.js).

Both answer JSON: a refusal or bad input is `{"error": sentence}` with its status, never a
page. A question whose answers the user may not read (another writer's, or one under a
blind review) is not found, as one that does not exist.
"""

from django.contrib.admin.views.decorators import staff_member_required
from django.http import JsonResponse

from authoring import tester_selectors, tester_services
from authoring.services import WorkflowRefused

# The question's fields the tester reads from the editor, as the page has them now.
KEY_FIELDS = ("kind", "answer", "accept", "reject", "ask")


def _error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _question_or_error(request, pk: int):
    if request.method != "POST":
        return None, _error("Send the answer with POST.", 405)
    question = tester_selectors.tester_question(user=request.user, pk=pk)
    if question is None:
        return None, _error("There is no such question to test.", 404)
    return question, None


@staff_member_required
def answer_try(request, pk: int):
    """Judge one or more answers (`given`) against the question's fields as posted."""
    question, error = _question_or_error(request, pk)
    return error or _judged(request, question)


@staff_member_required
def answer_try_new(request, pk: int):
    """The same, for a question the writer added to version `pk` and has not saved yet."""
    if request.method != "POST":
        return _error("Send the answer with POST.", 405)
    if tester_selectors.tester_version(user=request.user, pk=pk) is None:
        return _error("There is no such case version to test.", 404)
    return _judged(request, None)


def _judged(request, question) -> JsonResponse:
    given = request.POST.getlist("given")
    if not given or not any(text.strip() for text in given):
        return _error("Type an answer to try.", 400)
    if len(given) > tester_selectors.MAX_ANSWERS_JUDGED:
        return _error(f"Try at most {tester_selectors.MAX_ANSWERS_JUDGED} answers at once.", 400)
    fields = {name: request.POST[name] for name in KEY_FIELDS if name in request.POST}
    try:
        key = tester_selectors.answer_key_from_fields(question=question, fields=fields)
    except tester_selectors.TesterInputInvalid as invalid:
        return _error(str(invalid), 400)
    tried = tester_selectors.answers_try(key=key, given=given)
    return JsonResponse({"verdicts": [answer.as_json() for answer in tried]})


@staff_member_required
def answer_form_decide(request, pk: int):
    """Accept or reject a form players gave, in one click: saved at once."""
    question, error = _question_or_error(request, pk)
    if error:
        return error
    form = " ".join(request.POST.get("form", "").split())
    decision = request.POST.get("decision", "")
    try:
        question = tester_services.answer_form_decide(
            question=question, user=request.user, form=form, decision=decision
        )
    except WorkflowRefused as refused:
        return _error(str(refused), 400 if refused.code != "not_author" else 403)
    if decision == tester_services.ACCEPT:
        message = f"“{form}” is now an accepted form of this question (saved)."
    else:
        message = f"“{form}” is now a rejected form of this question (saved)."
    return JsonResponse(
        {"message": message, "form": form, "accept": question.accept, "reject": question.reject}
    )
