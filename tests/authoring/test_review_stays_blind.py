"""Blind review, really (issue 38, point 6): until mina decides, she reads neither the
author's name nor the solution and answers, whatever the version's status and whichever
door she tries; only she reveals her review; "Approve and publish" comes after the reveal
and asks again; every review stays in the case's history; every link still leads
somewhere once the case is published."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from authoring import selectors, services
from authoring.models import ReviewRound
from authoring.services import CommentInput, WorkflowRefused
from cases.models import VersionStatus
from cases.printing import case_print_html

SOLUTION = "Only a man behind that counter could have torn it off"
ANSWER_FIELD = 'class="form-row field-answer"'
ANSWER = "Silas Crane"


def refusal(call) -> str:
    with pytest.raises(WorkflowRefused) as caught:
        call()
    return str(caught.value)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def editor_url(version) -> str:
    return reverse("admin:cases_caseversion_change", args=[version.pk])


def review_url(version) -> str:
    return reverse("admin:authoring_review_change", args=[version.review.pk])


def approve_url(version) -> str:
    return reverse("admin:authoring_review_approve", args=[version.review.pk])


@pytest.fixture
def nina(make_user):
    """A second moderator, who did not claim alice's case."""
    user = make_user("nina", display_name="Nina")
    services.user_make_moderator(user=user)
    return user


@pytest.fixture
def sent_back(in_review, mina):
    """mina requested changes without revealing anything: her review is still blind."""
    services.case_request_changes(
        version=in_review, user=mina, comments=[CommentInput("Name the constable.")]
    )
    in_review.refresh_from_db()
    return in_review


# --- the solution and the answers ------------------------------------------------------------


def test_it_keeps_the_solution_from_mina_after_she_requested_changes(sent_back, mina):
    client = client_for(mina)

    page = client.get(editor_url(sent_back)).content.decode()
    export = client.get(reverse("admin:cases_caseversion_export", args=[sent_back.pk]))

    assert sent_back.status == VersionStatus.CHANGES_REQUESTED
    assert SOLUTION not in page and ANSWER_FIELD not in page
    assert export.status_code == 302
    assert selectors.solution_hidden(user=mina, version=sent_back)


def test_it_keeps_the_solution_from_mina_once_alice_resubmits(sent_back, alice, mina):
    services.case_submit(version=sent_back, user=alice)
    sent_back.refresh_from_db()

    assert sent_back.status == VersionStatus.IN_REVIEW
    page = client_for(mina).get(review_url(sent_back)).content.decode()
    assert SOLUTION not in page and 'id="solution-hidden"' in page


def test_it_keeps_the_solution_from_a_moderator_who_did_not_reveal_it(in_review, mina, nina, root):
    services.case_reveal(version=in_review, user=mina)

    assert not selectors.solution_hidden(user=mina, version=in_review)
    for user in (nina, root):  # mina revealed her review, not theirs
        assert selectors.solution_hidden(user=user, version=in_review)
        assert SOLUTION not in client_for(user).get(editor_url(in_review)).content.decode()
    assert client_for(root).get(
        reverse("admin:cases_caseversion_preview", args=[in_review.pk])
    ).status_code in (302, 403)


@pytest.mark.parametrize(
    "query",
    [
        "solution__icontains=torn",
        "solution__startswith=Only",
        "introduction__icontains=fog",
        "questions__answer__icontains=Crane",
        "questions__accept__icontains=tower",
        "locations__text__icontains=barrow",
        "case__author__username=alice",
        "case__author=1",
    ],
)
def test_it_answers_no_lookup_on_hidden_fields_in_the_version_list(in_review, mina, query):
    response = client_for(mina).get(reverse("admin:cases_caseversion_changelist") + "?" + query)

    assert response.status_code == 400


@pytest.mark.parametrize(
    "query",
    [
        "reviewed_content__icontains=Crane",
        "version__solution__icontains=torn",
        "submitted_by=1",
        "submitted_by__username=alice",
        "version__case__author__username=alice",
    ],
)
def test_it_answers_no_lookup_on_hidden_fields_in_the_queue(in_review, mina, query):
    response = client_for(mina).get(reverse("admin:authoring_review_changelist") + "?" + query)

    assert response.status_code == 400


def test_it_still_filters_the_version_list_by_status(in_review, mina):
    url = reverse("admin:cases_caseversion_changelist") + "?status__exact=in_review"

    assert client_for(mina).get(url).status_code == 200


# --- the author --------------------------------------------------------------------------------


def test_it_names_the_author_nowhere_mina_looks_before_she_decides(
    submitted, alice, mina, django_capture_on_commit_callbacks
):
    client = client_for(mina)
    with django_capture_on_commit_callbacks(execute=True):
        services.case_claim(version=submitted, user=mina)
        services.case_request_changes(
            version=submitted, user=mina, comments=[CommentInput("Name the constable.")]
        )
    comment = submitted.review_comments.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.review_comment_reply(comment=comment, user=alice, text="Lestrade, now.")
        services.review_comment_resolve(comment=comment, user=alice)
        services.case_submit(version=submitted, user=alice)
    pages = {
        "queue": client.get(reverse("admin:authoring_review_changelist")),
        "review": client.get(review_url(submitted)),
        "versions": client.get(reverse("admin:cases_caseversion_changelist")),
        "editor": client.get(editor_url(submitted)),
    }

    for name, response in pages.items():
        text = response.content.decode()
        assert response.status_code == 200, name
        assert "Alice" not in text and "alice" not in text, name
    assert "the author" in pages["queue"].content.decode()
    assert "The author" in pages["review"].content.decode()  # her reply, and who resolved it
    notes = Notification.objects.filter(user=mina)
    assert notes.count() == 2  # the reply, the resubmission (see test_workflow for the first)
    assert not [n.message for n in notes if "Alice" in n.message]
    history = client.get(reverse("admin:cases_caseversion_history", args=[submitted.pk]))
    assert "alice" not in history.content.decode().lower()


def test_it_names_the_author_once_the_case_is_published(in_review, mina):
    services.case_reveal(version=in_review, user=mina)
    services.case_approve(version=in_review, user=mina)

    page = client_for(mina).get(review_url(in_review))
    assert page.status_code == 200
    assert "Alice" in page.content.decode()


def test_it_prints_no_authors_name_in_a_version_under_review(in_review, alice):
    html = case_print_html(version=in_review)

    assert 'content="the author"' in html
    assert "Alice" not in html


def test_it_prints_minas_copy_without_the_solution_before_the_reveal(in_review, mina, nina):
    url = reverse("admin:authoring_review_print", args=[in_review.review.pk])
    assert client_for(nina).get(url).status_code in (302, 403, 404)

    blind = client_for(mina).get(url)
    assert blind.status_code == 200
    assert blind.content.startswith(b"%PDF-")
    services.case_reveal(version=in_review, user=mina)
    whole = client_for(mina).get(url)
    assert whole.status_code == 200
    assert len(whole.content) > len(blind.content)  # the solution and the key are in


def test_it_prints_neither_name_nor_solution_before_the_reveal(in_review, mina):
    from authoring.admin import review_print_html

    html = review_print_html(review=in_review.review, user=mina)

    assert SOLUTION not in html and "Alice" not in html
    assert 'content="the author"' in html


# --- the reveal ----------------------------------------------------------------------------------


def test_it_lets_only_the_claiming_moderator_reveal(submitted, mina, nina, root):
    assert "claim it first" in refusal(lambda: services.case_reveal(version=submitted, user=mina))
    services.case_claim(version=submitted, user=mina)

    for other in (nina, root):
        assert refusal(lambda other=other: services.case_reveal(version=submitted, user=other)) == (
            "Mina claimed this case; only they can reveal its solution."
        )
    submitted.review.refresh_from_db()
    assert submitted.review.revealed_at is None
    services.case_reveal(version=submitted, user=mina)


def test_it_offers_the_reveal_to_the_claiming_moderator_only(in_review, mina, nina):
    page = client_for(nina).get(review_url(in_review)).content.decode()
    assert "Show the solution and the report" not in page
    client_for(nina).post(reverse("admin:authoring_review_reveal", args=[in_review.review.pk]))
    in_review.review.refresh_from_db()
    assert in_review.review.revealed_at is None


# --- approving -----------------------------------------------------------------------------------


def test_it_refuses_to_approve_before_the_reveal(in_review, mina):
    page = client_for(mina).get(review_url(in_review)).content.decode()

    assert "Approve and publish" not in page
    assert "Show the solution" in refusal(
        lambda: services.case_approve(version=in_review, user=mina)
    )
    client_for(mina).post(approve_url(in_review), {"confirm": "yes"})
    in_review.refresh_from_db()
    assert in_review.status == VersionStatus.IN_REVIEW


def test_it_asks_for_confirmation_before_publishing(in_review, mina):
    services.case_reveal(version=in_review, user=mina)
    client = client_for(mina)
    assert "Approve and publish" in client.get(review_url(in_review)).content.decode()

    first = client.post(approve_url(in_review))

    assert first.status_code == 200
    in_review.refresh_from_db()
    assert in_review.status == VersionStatus.IN_REVIEW
    page = first.content.decode()
    assert 'name="confirm" value="yes"' in page
    assert "Yes, approve and publish" in page
    assert "onclick" not in page  # no script needed

    second = client.post(approve_url(in_review), {"confirm": "yes"})

    in_review.refresh_from_db()
    assert in_review.status == VersionStatus.PUBLISHED
    assert second.status_code == 302
    assert second["Location"] == review_url(in_review)


# --- the history and the links -------------------------------------------------------------------


def test_it_keeps_every_review_of_the_case_in_its_history(sent_back, alice, mina):
    services.case_submit(version=sent_back, user=alice)
    services.case_reveal(version=sent_back, user=mina)
    services.case_approve(version=sent_back, user=mina)

    decisions = list(ReviewRound.objects.filter(version=sent_back).order_by("decided_at"))
    assert [(d.decision, d.moderator) for d in decisions] == [
        ("changes_requested", mina),
        ("approved", mina),
    ]
    page = client_for(mina).get(review_url(sent_back)).content.decode()
    assert 'id="history"' in page
    assert "Changes requested by Mina" in page and "Approved and published by Mina" in page
    assert "Name the constable." in page


def test_it_leads_every_moderators_link_to_the_published_case(
    submitted, alice, mina, nina, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.case_claim(version=submitted, user=mina)
        services.case_request_changes(
            version=submitted, user=mina, comments=[CommentInput("Name the constable.")]
        )
    comment = submitted.review_comments.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.review_comment_reply(comment=comment, user=alice, text="Lestrade, now.")
        services.case_submit(version=submitted, user=alice)
    # While mina holds it, nina's link from the first notification still answers.
    for note in Notification.objects.filter(user=nina):
        response = client_for(nina).get(note.url, follow=True)
        assert response.status_code == 200, note.url
    services.case_reveal(version=submitted, user=mina)
    with django_capture_on_commit_callbacks(execute=True):
        services.case_approve(version=submitted, user=mina)

    case_page = reverse("play:case", args=[submitted.case.slug])
    notes = Notification.objects.filter(user__in=[mina, nina, alice])
    assert notes.count() >= 4
    for note in notes:
        response = client_for(note.user).get(note.url, follow=True)
        assert response.status_code == 200, note.url
    page = client_for(mina).get(review_url(submitted)).content.decode()
    assert f'href="{case_page}"' in page
    assert client_for(nina).get(review_url(submitted)).status_code == 200


def test_it_keeps_a_reviewed_version_and_its_history_from_deletion(sent_back, alice, mina):
    client = client_for(alice)
    url = reverse("admin:cases_caseversion_delete", args=[sent_back.pk])

    response = client.post(url, {"post": "yes"})

    assert response.status_code == 403
    sent_back.refresh_from_db()
    assert ReviewRound.objects.filter(version=sent_back).count() == 1
    page = client.get(editor_url(sent_back)).content.decode()
    assert 'class="deletelink"' not in page
    assert "reviewed" in refusal(lambda: services.check_case_delete(version=sent_back, user=alice))


def test_the_migration_writes_the_rounds_the_reviews_remember(sent_back, alice, mina):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("authoring.migrations.0006_review_rounds")
    services.case_submit(version=sent_back, user=alice)
    services.case_reveal(version=sent_back, user=mina)
    services.case_approve(version=sent_back, user=mina)
    ReviewRound.objects.all().delete()  # as before the migration

    migration.remembered_rounds(apps, None)

    rounds = list(ReviewRound.objects.order_by("decided_at"))
    assert [(r.decision, r.moderator, r.version) for r in rounds] == [
        ("changes_requested", mina, sent_back),
        ("approved", mina, sent_back),
    ]
