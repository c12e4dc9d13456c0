"""Public pages of published cases.

The writer's guide and a case's print-and-play PDF. (The catalogue, which shows how each
case has fared at tables, and a case's own page, where a table is opened, are play's.)
"""

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render

from .markdown import render_markdown
from .models import CaseVersion, VersionStatus
from .printing import case_pdf, version_may_print
from .selectors import latest_version_for_slug, published_versions

WRITING_GUIDE = Path(settings.BASE_DIR) / "docs" / "writing-a-case.md"


@lru_cache(maxsize=1)
def _writing_guide_html(modified: float) -> str:
    return render_markdown(WRITING_GUIDE.read_text(encoding="utf-8"))


def writing_guide(request: HttpRequest) -> HttpResponse:
    """The writer's guide (docs/writing-a-case.md), as a page of the site."""
    try:
        modified = WRITING_GUIDE.stat().st_mtime
    except FileNotFoundError:
        raise Http404("The writer's guide is missing.") from None
    return render(request, "cases/guide.html", {"guide": _writing_guide_html(modified)})


VERSION_NUMBER = re.compile(r"[1-9][0-9]{0,8}")
# Published versions never change: their PDF is made once a day at most per process or cache.
PRINTED_PDF_SECONDS = 24 * 3600


def case_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The case as a print-and-play PDF (cases/printing.py). Anyone may have a published
    case; `?version=N` gives another version to its author only. Everything else answers
    404, as a case that does not exist."""
    number = request.GET.get("version")
    if number is not None and not VERSION_NUMBER.fullmatch(number):
        return HttpResponseBadRequest("The version must be a whole number, such as ?version=2.")
    version = printable_version(slug, user=request.user, number=int(number) if number else None)
    if version is None:
        raise Http404("No case you may print has this address.")
    response = HttpResponse(_pdf_of(version), content_type="application/pdf")
    filename = f"{version.case.slug}-v{version.number}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if version.status != VersionStatus.PUBLISHED:
        response["Cache-Control"] = "private, no-store"  # an author's draft stays theirs
    return response


def printable_version(slug: str, *, user, number: int | None) -> CaseVersion | None:
    """The version to print: version `number`, or else the published one, or else (for
    its author) the newest; None when this user may not print it."""
    if number is None:
        version = published_versions().filter(case__slug=slug).first()
        version = version or latest_version_for_slug(slug)
    else:
        version = latest_version_for_slug(slug, number=number)
    if version is None or not version_may_print(version, user):
        return None
    return version


def _pdf_of(version: CaseVersion) -> bytes:
    if version.status != VersionStatus.PUBLISHED:
        return case_pdf(version=version)
    key = f"cases:print:{version.pk}"
    pdf = cache.get(key)
    if pdf is None:
        pdf = case_pdf(version=version)
        cache.set(key, pdf, PRINTED_PDF_SECONDS)
    return pdf
