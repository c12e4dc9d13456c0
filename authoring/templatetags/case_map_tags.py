"""`{% case_map_of version as case_map %}`: the case map of a version, as the person
reading the page may see it (blind until a moderator reveals the solution), each node
linked to its row in the editor."""

from django import template
from django.urls import reverse

from authoring.case_map import BOOKLET, SOLUTION, card_id, case_map, question_id
from authoring.selectors import solution_hidden
from cases.selectors import case_version_data

register = template.Library()


@register.simple_tag(takes_context=True)
def case_map_of(context, version):
    request = context.get("request")
    if request is None or version is None or version.pk is None:
        return None
    blind = solution_hidden(user=request.user, version=version)
    result = case_map(case_version_data(version=version), blind=blind)
    links = _editor_links(context, version)
    for node in result.nodes:
        node.href = links.get(node.id, links[BOOKLET])
    return result


def _editor_links(context, version) -> dict[str, str]:
    """Node id → the address of its row in the editor: a jump on the editor's own page,
    the editor's page and the jump from anywhere else (the review page)."""
    formsets = {
        inline.formset.model._meta.model_name: inline.formset
        for inline in context.get("inline_admin_formsets", [])
    }
    on_editor = bool(formsets)
    page = "" if on_editor else reverse("admin:cases_caseversion_change", args=[version.pk])
    links = {BOOKLET: f"{page}#id_introduction", SOLUTION: f"{page}#id_solution"}
    if on_editor:
        rows = {}
        for name in ("location", "question"):
            formset = formsets.get(name)
            for index, form in enumerate(formset.forms if formset is not None else []):
                rows[(name, form.instance.pk)] = f"{formset.prefix}-{index}"
    cards = version.locations.order_by("number").values_list("pk", "number")
    for index, (pk, number) in enumerate(cards):
        row = rows.get(("location", pk)) if on_editor else f"locations-{index}"
        if row:
            links[card_id(number)] = f"{page}#{row}"
    questions = version.questions.order_by("position").values_list("pk", "key")
    for index, (pk, key) in enumerate(questions):
        row = rows.get(("question", pk)) if on_editor else f"questions-{index}"
        if row:
            links[question_id(key)] = f"{page}#{row}"
    return links
