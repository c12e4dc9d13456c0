"""Starting a case: `manage.py new_case`, the editor's template, and the writer's guide."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from cases.lint import lint_package
from cases.models import CaseVersion, VersionStatus
from cases.package.reader import read_package_path


def test_it_scaffolds_a_package_that_lints_clean(tmp_path):
    out = io.StringIO()

    call_command("new_case", "the-silver-inkstand", str(tmp_path / "case"), stdout=out)

    data, problems = lint_package(read_package_path(tmp_path / "case"))
    assert [p for p in problems if p.severity != "info"] == []
    assert (data.slug, data.title) == ("the-silver-inkstand", "The silver inkstand")
    assert len(data.locations) == 3 and {q.kind for q in data.questions} == {"person", "place"}
    assert "Started the-silver-inkstand" in out.getvalue()


def test_it_never_scaffolds_over_a_writers_folder(tmp_path):
    (tmp_path / "case.md").write_text("my case")

    with pytest.raises(CommandError, match="already exists and is not empty"):
        call_command("new_case", "the-silver-inkstand", str(tmp_path), stdout=io.StringIO())

    assert (tmp_path / "case.md").read_text() == "my case"


def test_it_refuses_a_slug_a_package_cannot_hold(tmp_path):
    with pytest.raises(CommandError, match="may only hold lowercase letters"):
        call_command("new_case", "The Inkstand", str(tmp_path / "x"), stdout=io.StringIO())


def test_it_starts_a_draft_from_the_template_in_the_editor(client, alice):
    from authoring.services import user_make_author

    user_make_author(user=alice)
    client.force_login(alice)
    url = reverse("admin:cases_caseversion_template")

    response = client.post(url, {"slug": "the-silver-inkstand", "title": "The Silver Inkstand"})

    version = CaseVersion.objects.get(case__slug="the-silver-inkstand")
    assert response["Location"] == reverse("admin:cases_caseversion_change", args=[version.pk])
    assert (version.title, version.status, version.case.author) == (
        "The Silver Inkstand",
        VersionStatus.DRAFT,
        alice,
    )
    assert version.locations.count() == 3
    taken = client.post(url, {"slug": "the-silver-inkstand", "title": "Again"})
    assert "is taken by another case" in taken.content.decode()


def test_it_offers_the_template_to_authors_only(client, charlie):
    charlie.is_staff = True
    charlie.save()
    client.force_login(charlie)

    assert client.get(reverse("admin:cases_caseversion_template")).status_code == 403


def test_it_shows_the_writers_guide_as_a_page(client):
    response = client.get(reverse("cases:writing-guide"))

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Writing a case</h1>" in page and "<script" not in page.split("<main")[1]
