"""An author play-tests their own draft, alone and in private, from the editor; play/ makes
the private table and asks nothing about who may have one."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from authoring import services
from authoring.models import Playtest
from authoring.services import CommentInput, WorkflowRefused
from play import services as play_services
from play.models import Table

PLAY = Path(__file__).resolve().parents[2] / "play"


def refusal(call) -> str:
    with pytest.raises(WorkflowRefused) as caught:
        call()
    return str(caught.value)


def editor_url(version) -> str:
    return reverse("admin:cases_caseversion_change", args=[version.pk])


def test_it_gives_the_author_a_private_solo_table_of_their_draft(draft, alice):
    test = services.case_playtest_start(version=draft, user=alice)

    assert (test.tester, test.version) == (alice, draft)
    assert test.table.is_private and test.table.case_version == draft
    assert [seat.user for seat in test.table.seats.all()] == [alice]


def test_it_gives_the_author_a_playtest_with_changes_requested(in_review, alice, mina):
    services.case_request_changes(version=in_review, user=mina, comments=[CommentInput("Fix")])
    in_review.refresh_from_db()

    test = services.case_playtest_start(version=in_review, user=alice)

    assert test.tester == alice and test.table.is_private


def test_it_refuses_a_playtest_of_another_authors_draft(draft, bob):
    assert refusal(lambda: services.case_playtest_start(version=draft, user=bob)) == (
        "Only the author of this case can play-test it before it is submitted."
    )
    assert not Table.objects.exists()


def test_it_refuses_the_author_a_playtest_of_a_published_version(published, alice):
    assert refusal(lambda: services.check_case_playtest(version=published, user=alice)) == (
        "Version 1 is published; only a draft or a version with changes requested is "
        "play-tested by its author."
    )


def test_it_keeps_the_moderators_playtest_as_it_was(in_review, mina):
    test = services.case_playtest_start(version=in_review, user=mina)

    assert test.tester == mina and test.table.is_private


def test_it_makes_a_private_table_in_play_without_deciding_who_may(draft, charlie):
    table = play_services.table_create_private(host=charlie, case_version=draft)

    assert table.is_private and [s.user for s in table.seats.all()] == [charlie]
    assert not Playtest.objects.exists()  # a play-test is authoring's record, not play's


def test_it_keeps_play_free_of_authoring_imports():
    importing = [
        path.relative_to(PLAY.parent)
        for path in PLAY.rglob("*.py")
        if re.search(r"^\s*(from|import)\s+authoring\b", path.read_text(), re.MULTILINE)
    ]
    assert importing == []


# --- from the editor --------------------------------------------------------------------------


def test_it_offers_the_author_a_playtest_button_in_the_editor(client, draft, alice):
    client.force_login(alice)

    on_draft = client.get(editor_url(draft)).context["workflow"]

    assert {"label": "Play-test it myself", "url": reverse("authoring:playtest", args=[draft.pk]),
            "refusal": ""} in on_draft  # fmt: skip


def test_it_offers_no_playtest_button_on_a_published_or_submitted_version(client, published, alice):
    submitted = services.case_version_new_draft(version=published, user=alice)
    services.case_submit(version=submitted, user=alice)
    client.force_login(alice)

    for version in (published, submitted):
        labels = [b["label"] for b in client.get(editor_url(version)).context["workflow"]]
        assert "Play-test it myself" not in labels


def test_it_takes_the_author_from_the_editor_to_their_private_table(client, draft, alice, charlie):
    client.force_login(alice)

    response = client.post(reverse("authoring:playtest", args=[draft.pk]))

    table = Table.objects.get(case_version=draft)
    assert response.status_code == 302
    assert response["Location"] == reverse("play:table", args=[table.pk])
    page = client.get(response["Location"])
    assert page.status_code == 200 and 'id="invite-link"' not in page.content.decode()
    client.force_login(charlie)
    assert client.get(reverse("play:table", args=[table.pk])).status_code == 404


def test_it_keeps_the_review_comments_off_the_authors_table(client, in_review, alice, mina):
    secret = "Moderator's eyes only: the clerk is a red herring."
    services.case_request_changes(version=in_review, user=mina, comments=[CommentInput(secret)])
    client.force_login(alice)

    response = client.post(reverse("authoring:playtest", args=[in_review.pk]), follow=True)

    table = Table.objects.get(case_version=in_review)
    assert secret not in response.content.decode()
    assert secret not in client.get(f"/api/tables/{table.pk}/").content.decode()


def test_it_refuses_the_playtest_endpoint_to_a_get_and_to_strangers(client, draft, bob, mina):
    url = reverse("authoring:playtest", args=[draft.pk])
    client.force_login(bob)
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 404
    client.force_login(mina)
    assert client.post(url).status_code == 404
    assert not Table.objects.exists()


def test_it_links_the_authors_playtest_table_back_to_the_editor(client, draft, alice):
    table = services.case_playtest_start(version=draft, user=alice).table
    client.force_login(alice)

    page = client.get(reverse("play:table", args=[table.pk])).content.decode()

    assert f'<a href="{editor_url(draft)}" id="back-to-editor">Back to the editor</a>' in page


def test_it_shows_no_way_to_the_editor_at_a_moderators_playtest(client, in_review, mina):
    table = services.case_playtest_start(version=in_review, user=mina).table
    client.force_login(mina)

    page = client.get(reverse("play:table", args=[table.pk])).content.decode()

    assert "Back to the editor" not in page
