"""`load_demo`: every demo account can do its part on the first run."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import User
from authoring.management.commands.load_demo import SAMPLE_CASES
from authoring.models import AUTHORS_GROUP, MODERATORS_GROUP, ROLE_PERMISSIONS, Review
from cases.models import CaseVersion, VersionStatus


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # load_demo refuses to run in production
    call_command("load_demo", stdout=io.StringIO())


def test_it_puts_the_author_and_the_moderator_in_their_groups(demo):
    author, moderator = User.objects.get(username="author"), User.objects.get(username="moderator")

    assert list(author.groups.values_list("name", flat=True)) == [AUTHORS_GROUP]
    assert list(moderator.groups.values_list("name", flat=True)) == [MODERATORS_GROUP]


def test_it_gives_the_author_a_draft_and_the_moderator_a_queue(demo, client):
    statuses = dict(CaseVersion.objects.values_list("case__slug", "status"))
    casebook = [path.name for path in SAMPLE_CASES.iterdir() if (path / "case.md").exists()]

    assert len(casebook) >= 8
    assert statuses == {
        **{slug: VersionStatus.PUBLISHED for slug in casebook},
        "the-lamplighters-ledger": VersionStatus.DRAFT,
        "the-thames-tide-table": VersionStatus.SUBMITTED,
    }
    assert [r.version.case.slug for r in Review.objects.all()] == ["the-thames-tide-table"]
    client.force_login(User.objects.get(username="moderator"))
    queue = client.get(reverse("admin:authoring_review_changelist")).content.decode()
    assert "The Thames Tide Table" in queue
    client.force_login(User.objects.get(username="author"))
    editor = client.get(reverse("admin:cases_caseversion_changelist")).content.decode()
    assert "The Lamplighter" in editor and "The Thames Tide Table" in editor


def test_it_shows_each_staff_account_its_part_of_the_admin(demo, client):
    client.force_login(User.objects.get(username="author"))
    assert "Case versions" in client.get(reverse("admin:index")).content.decode()
    client.force_login(User.objects.get(username="moderator"))
    assert "Reviews" in client.get(reverse("admin:index")).content.decode()


def test_it_loads_twice_without_a_second_copy(demo):
    call_command("load_demo", stdout=io.StringIO())

    casebook = [path for path in SAMPLE_CASES.iterdir() if (path / "case.md").exists()]
    assert CaseVersion.objects.count() == len(casebook) + 2


def test_it_gives_the_groups_the_permissions_the_roles_name(db):
    from django.contrib.auth.models import Group

    for name, codes in ROLE_PERMISSIONS.items():
        granted = {
            f"{app}.{code}"
            for app, code in Group.objects.get(name=name).permissions.values_list(
                "content_type__app_label", "codename"
            )
        }
        assert granted == set(codes)
