"""Who may do what in the editor and the review: the whole matrix.

anonymous and charlie (a player) never reach the admin; alice edits her own case, bob
(another author) cannot see it; mina (a moderator) sees and reviews submitted cases; root
(the superuser) may do everything.
"""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from authoring import services
from cases.models import CaseVersion, VersionStatus
from cases.package.reader import read_package_path
from cases.services import case_import_package

from .conftest import TUTORIAL

USERS = ["anonymous", "charlie", "alice", "bob", "mina", "root"]


def test_it_creates_the_groups_with_their_permissions(db):
    authors = set(Group.objects.get(name="Authors").permissions.values_list("codename", flat=True))
    moderators = set(
        Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True)
    )

    assert {"add_caseversion", "change_question", "delete_location", "submit_case"} <= authors
    assert "review_case" not in authors
    assert {"view_caseversion", "review_case", "view_review"} <= moderators
    assert not {"change_caseversion", "add_caseversion", "submit_case"} & moderators


def alices_version(alice, status: str, mina=None) -> CaseVersion:
    version = case_import_package(files=read_package_path(TUTORIAL), author=alice).version
    if status in ("submitted", "in_review", "revealed"):
        services.case_submit(version=version, user=alice)
    if status in ("in_review", "revealed"):
        services.case_claim(version=version, user=mina)
    if status == "revealed":  # mina read it whole: she may approve it
        services.case_reveal(version=version, user=mina)
    version.refresh_from_db()
    return version


def status_of(version) -> str:
    return CaseVersion.objects.filter(pk=version.pk).values_list("status", flat=True).first()


# action: (status of alice's version it needs, method, url name, done?)
ACTIONS = {
    "changelist": ("draft", "get", "admin:cases_caseversion_changelist", None),
    "change": ("draft", "get", "admin:cases_caseversion_change", None),
    "add": (None, "get", "admin:cases_caseversion_add", None),
    "delete": ("draft", "post", "admin:cases_caseversion_delete", lambda v: status_of(v) is None),
    "import": (None, "get", "admin:cases_caseversion_import", None),
    "export": ("draft", "get", "admin:cases_caseversion_export", None),
    "submit": (
        "draft",
        "post",
        "admin:cases_caseversion_submit",
        lambda v: status_of(v) == VersionStatus.SUBMITTED,
    ),
    "claim": (
        "submitted",
        "post",
        "admin:authoring_review_claim",
        lambda v: status_of(v) == VersionStatus.IN_REVIEW,
    ),
    "approve": (
        "revealed",
        "post",
        "admin:authoring_review_approve",
        lambda v: status_of(v) == VersionStatus.PUBLISHED,
    ),
    "request changes": (
        "in_review",
        "post",
        "admin:authoring_review_request_changes",
        lambda v: status_of(v) == VersionStatus.CHANGES_REQUESTED,
    ),
    "play-test": (
        "submitted",
        "post",
        "admin:authoring_review_playtest",
        lambda v: v.playtests.exists(),
    ),
    "author's play-test": (
        "draft",
        "post",
        "authoring:playtest",
        lambda v: v.playtests.exists(),
    ),
}

ALLOWED = {
    "changelist": {"alice", "bob", "mina", "root"},
    "change": {"alice", "root"},
    "add": {"alice", "bob", "root"},
    "delete": {"alice", "root"},
    "import": {"alice", "bob", "root"},
    "export": {"alice", "root"},
    "submit": {"alice", "root"},
    "claim": {"mina", "root"},
    "approve": {"mina", "root"},
    "request changes": {"mina", "root"},
    "play-test": {"mina", "root"},
    "author's play-test": {"alice", "root"},
}


@pytest.mark.parametrize("user_name", USERS)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_it_allows_exactly_the_matrix(action, user_name, client, alice, bob, charlie, mina, root):
    status, method, url_name, done = ACTIONS[action]
    version = alices_version(alice, status, mina) if status else None
    users = {"alice": alice, "bob": bob, "charlie": charlie, "mina": mina, "root": root}
    if user_name != "anonymous":
        client.force_login(users[user_name])
    args = []
    if version is not None and url_name.startswith("admin:authoring_review"):
        args = [version.review.pk]
    elif version is not None and action != "changelist":
        args = [version.pk]
    # "post" and "confirm": the second steps of the admin's delete and of "Approve and publish".
    data = {"post": "yes", "confirm": "yes", "text": "Please name the constable.", "target": ""}

    response = getattr(client, method)(
        reverse(url_name, args=args), data if method == "post" else None
    )

    allowed = user_name in ALLOWED[action]
    if user_name in ("anonymous", "charlie"):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
    elif allowed:
        assert response.status_code in (200, 302)
        if response.status_code == 302:
            assert response["Location"] != reverse("admin:index")
    else:
        # Not found (a case they may not see), or forbidden (a step not theirs).
        assert response.status_code in (302, 403, 404)
        if response.status_code == 302:
            assert (
                response["Location"] in (reverse("admin:index"),)
                or "review" in response["Location"]
            )
    if done is not None:
        assert done(version) == allowed
    if action == "changelist":
        listed = (
            version.title in response.content.decode() if response.status_code == 200 else False
        )
        assert listed == (user_name in ("alice", "root"))


def test_it_shows_moderators_submitted_cases_only(client, alice, mina):
    draft = alices_version(alice, "draft")
    files = read_package_path(TUTORIAL)
    files["case.md"] = files["case.md"].replace(b"slug: the-clerkenwell-repeater", b"slug: other")
    submitted = case_import_package(files=files, author=alice).version
    services.case_submit(version=submitted, user=alice)
    client.force_login(mina)

    changelist = client.get(reverse("admin:cases_caseversion_changelist"))
    queue = client.get(reverse("admin:authoring_review_changelist"))

    assert list(changelist.context["cl"].result_list) == [submitted]
    assert [r.version for r in queue.context["cl"].result_list] == [submitted]
    assert client.get(reverse("admin:cases_caseversion_change", args=[draft.pk])).status_code == 302
    page = client.get(reverse("admin:cases_caseversion_change", args=[submitted.pk]))
    assert page.status_code == 200
    assert page.context["has_change_permission"] is False


def test_it_keeps_authors_out_of_the_moderator_queue(client, alice):
    client.force_login(alice)

    assert client.get(reverse("admin:authoring_review_changelist")).status_code == 403
