"""Public pages of published cases.

They show what every player may see before play: title, difficulty, introduction, special
rules and questions, and how the case has fared at tables. Never the solution, the answers
or any card text.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from play.forms import TableCreateForm

from . import selectors


def home(request: HttpRequest) -> HttpResponse:
    versions = selectors.catalogue()
    return render(request, "cases/home.html", {"versions": versions})


def case_detail(request: HttpRequest, slug: str) -> HttpResponse:
    version = selectors.published_version_for_slug(slug)
    return render(
        request,
        "cases/case_detail.html",
        {"version": version, "table_form": TableCreateForm()},
    )
