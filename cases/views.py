"""Public pages of published cases.

They show what every player may see before play: title, difficulty, introduction, special
rules and questions, and how the case has fared at tables. Never the solution, the answers
or any card text. And the writer's guide.
"""

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from play.forms import TableCreateForm

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


def case_detail(request: HttpRequest, slug: str) -> HttpResponse:
    version = selectors.published_version_for_slug(slug)
    return render(
        request,
        "cases/case_detail.html",
        {"version": version, "table_form": TableCreateForm()},
    )


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
