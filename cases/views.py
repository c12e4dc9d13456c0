"""Public pages of the case domain: the writer's guide. (The catalogue, which shows how
each case has fared at tables, a case's own page, where a table is opened, and its
print-and-play PDF, which leaves the solution out for someone playing the case, are
play's.)
"""

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .markdown import focusable_code_blocks, render_markdown

WRITING_GUIDE = Path(settings.BASE_DIR) / "docs" / "writing-a-case.md"


@lru_cache(maxsize=1)
def _writing_guide_html(modified: float) -> str:
    return focusable_code_blocks(render_markdown(WRITING_GUIDE.read_text(encoding="utf-8")))


def writing_guide(request: HttpRequest) -> HttpResponse:
    """The writer's guide (docs/writing-a-case.md), as a page of the site."""
    try:
        modified = WRITING_GUIDE.stat().st_mtime
    except FileNotFoundError:
        raise Http404("The writer's guide is missing.") from None
    return render(request, "cases/guide.html", {"guide": _writing_guide_html(modified)})
