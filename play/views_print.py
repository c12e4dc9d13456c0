"""A case's print-and-play PDF (cases/printing.py), for a person logged in: whole, or
without its solution and answer key while they play the case at a running table (the
table page keeps a solution closed from them then, and a PDF must not open it)."""

import re

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest

from cases.models import VersionStatus
from cases.printing import printable_version, printed_pdf

from . import selectors

VERSION_NUMBER = re.compile(r"[1-9][0-9]{0,8}")
LEFT_OUT = (
    "The solution and the answer key are left out of this copy: you are playing this case "
    "at a table on the site. Print the case again once that game is over to have them."
)


@login_required
def case_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The published case; `?version=N` gives another version to its author only.
    Everything else answers 404, as a case that does not exist."""
    number = request.GET.get("version")
    if number is not None and not VERSION_NUMBER.fullmatch(number):
        return HttpResponseBadRequest("The version must be a whole number, such as ?version=2.")
    version = printable_version(slug, user=request.user, number=int(number) if number else None)
    if version is None:
        raise Http404("No case you may print has this address.")
    playing = selectors.case_in_play_for(user_id=request.user.pk, case_version_id=version.pk)
    if playing is None:
        pdf = printed_pdf(version)
    else:
        pdf = printed_pdf(version, with_solution=False, closing_note=LEFT_OUT)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{version.case.slug}-v{version.number}.pdf"'
    )
    # Whose copy it is depends on who asks; an author's draft stays theirs alone.
    draft = version.status != VersionStatus.PUBLISHED
    response["Cache-Control"] = "private, no-store" if draft else "private"
    return response
