"""`{% answer_tester %}`: the editor's answer tester, one per saved question (the editor's
script puts each beside its question). Nothing for whoever may not read the answers."""

from django import template
from django.urls import reverse

from authoring.services import WorkflowRefused, check_case_edit
from authoring.tester_selectors import answer_testers, may_test_answers

register = template.Library()


@register.inclusion_tag("admin/cases/caseversion/_answer_tester.html", takes_context=True)
def answer_tester(context):
    request, version = context.get("request"), context.get("original")
    if request is None or version is None or version.pk is None:
        return {"testers": []}
    if not may_test_answers(user=request.user, version=version):
        return {"testers": []}
    testers = answer_testers(user=request.user, version=version)
    # A question added on the page and not saved yet is tried through its version.
    new_try_url = reverse("authoring:answer_try_new", args=[version.pk])
    refusal = ""
    if testers:
        try:
            check_case_edit(version=version, user=request.user)
        except WorkflowRefused as refused:
            # Given forms are still listed with their verdicts; the buttons wait for a draft.
            refusal = str(refused)
    return {"testers": testers, "decide_refusal": refusal, "new_try_url": new_try_url}
