"""Reads of the case domain. Views and the API call these; they never filter models."""

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from .models import CaseVersion, Question, VersionStatus


def published_versions() -> QuerySet[CaseVersion]:
    """The versions players can see: one per published case, easiest first."""
    return (
        CaseVersion.objects.filter(status=VersionStatus.PUBLISHED)
        .select_related("case")
        .order_by("difficulty", "title")
    )


def published_version_for_slug(slug: str) -> CaseVersion:
    """The published version of a case with its questions, or 404 for everything else.

    Drafts and submitted versions are not public: they answer 404 like a missing case.
    """
    questions = Prefetch("questions", queryset=Question.objects.order_by("position"))
    version = (
        published_versions().filter(case__slug=slug).prefetch_related(questions).first()
    )
    if version is None:
        raise Http404("No published case has this address.")
    return version
