"""Public pages of published cases.

The catalogue shows what every player may see before play: titles, difficulty, length,
and how each case has fared at tables; never the solution, the answers or any card text.
(A case's own page, where a table is opened, is play's.) And the writer's guide.
"""

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from . import selectors
from .forms import CatalogueForm
from .markdown import render_markdown


def home(request: HttpRequest) -> HttpResponse:
    form = CatalogueForm(request.GET or None)
    choice = form.cleaned_data if form.is_valid() else {}
    versions = selectors.catalogue(
        difficulty=choice.get("difficulty"),
        players=choice.get("players"),
        sort=choice.get("sort") or "easiest",
    )
    return render(request, "cases/home.html", {"versions": versions, "form": form})


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
