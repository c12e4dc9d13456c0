"""Every transition of the review workflow, allowed and refused (with its sentence)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Notification, NotificationKind
from authoring import selectors, services
from authoring.models import Playtest, Review, ReviewComment
from authoring.services import CommentInput, WorkflowRefused
from cases.models import CaseVersion, Question, VersionStatus
from play import services as play_services
from play.models import Table


def refusal(call) -> str:
    with pytest.raises(WorkflowRefused) as caught:
        call()
    return str(caught.value)


# --- submit ------------------------------------------------------------------------------


def test_it_submits_a_lint_clean_draft(draft, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        review = services.case_submit(version=draft, user=alice)

    draft.refresh_from_db()
    assert draft.status == VersionStatus.SUBMITTED
    assert review.submitted_by == alice and review.moderator is None


def test_it_refuses_to_submit_a_case_with_lint_errors(draft, alice):
    Question.objects.filter(version=draft, key="ticket").update(answer="two hundred and twelve")

    assert refusal(lambda: services.check_case_submit(version=draft, user=alice)) == (
        "The case has 1 error to fix before it can be submitted (warnings may stay)."
    )
    assert refusal(lambda: services.case_submit(version=draft, user=alice))
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT


def test_it_submits_with_warnings_and_returns_them(draft, alice):
    location = draft.locations.get(number=12)
    location.text = ""
    location.save()

    report = services.check_case_submit(version=draft, user=alice)

    assert [item.message for item in report.warnings] == ["the card has no text"]
    services.case_submit(version=draft, user=alice)


def test_it_refuses_a_submission_by_another_author(draft, bob):
    assert refusal(lambda: services.check_case_submit(version=draft, user=bob)) == (
        "Only the author of this case can submit it."
    )


def test_it_refuses_to_submit_twice(submitted, alice):
    assert refusal(lambda: services.case_submit(version=submitted, user=alice)) == (
        "Version 1 is submitted; only a draft or a version with changes requested can be submitted."
    )


# --- claim -------------------------------------------------------------------------------


def test_it_lets_a_moderator_claim_a_submitted_case(submitted, mina):
    review = services.case_claim(version=submitted, user=mina)

    submitted.refresh_from_db()
    assert submitted.status == VersionStatus.IN_REVIEW
    assert review.moderator == mina and review.claimed_at is not None


def test_it_refuses_a_claim_by_an_author(submitted, bob):
    assert refusal(lambda: services.check_case_claim(version=submitted, user=bob)) == (
        "Only moderators review cases."
    )


def test_it_refuses_a_moderator_their_own_case(submitted, alice):
    services.user_make_moderator(user=alice)
    alice = type(alice).objects.get(pk=alice.pk)  # forget the cached groups

    assert refusal(lambda: services.check_case_claim(version=submitted, user=alice)) == (
        "You cannot review your own case."
    )


def test_it_refuses_to_claim_a_draft_or_a_claimed_case(draft, in_review, mina, make_user):
    other = make_user("olga")
    services.user_make_moderator(user=other)

    assert refusal(lambda: services.check_case_claim(version=in_review, user=other)) == (
        "Only a submitted case can be claimed; version 1 is in review."
    )


# --- approve -----------------------------------------------------------------------------


def test_it_publishes_an_approved_case_and_archives_the_previous_one(published, alice, mina):
    draft = services.case_version_new_draft(version=published, user=alice)
    services.case_submit(version=draft, user=alice)
    services.case_claim(version=draft, user=mina)
    services.case_reveal(version=draft, user=mina)

    services.case_approve(version=draft, user=mina)

    published.refresh_from_db()
    draft.refresh_from_db()
    assert (published.status, draft.status) == (VersionStatus.ARCHIVED, VersionStatus.PUBLISHED)
    assert draft.published_at is not None


def test_it_refuses_to_approve_before_a_claim(submitted, mina):
    assert refusal(lambda: services.check_case_approve(version=submitted, user=mina)) == (
        "Only a case in review can be decided on; version 1 is submitted (claim it first)."
    )


def test_it_refuses_a_decision_by_another_moderator(in_review, make_user):
    olga = make_user("olga", display_name="Olga")
    services.user_make_moderator(user=olga)

    assert refusal(lambda: services.check_case_approve(version=in_review, user=olga)) == (
        "Mina claimed this case; only they can decide on it."
    )


def test_it_refuses_an_approval_by_the_author(in_review, alice):
    assert refusal(lambda: services.case_approve(version=in_review, user=alice)) == (
        "Only moderators review cases."
    )


# --- request changes -----------------------------------------------------------------------


def test_it_requests_changes_with_comments_on_cards_and_questions(in_review, mina):
    question = in_review.questions.get(key="thief")
    card = in_review.locations.get(number=3)

    services.case_request_changes(
        version=in_review,
        user=mina,
        comments=[
            CommentInput("The thief is too easy to spot.", question_id=question.pk),
            CommentInput("Say which constable.", location_id=card.pk),
            CommentInput("A lovely case overall."),
        ],
    )

    in_review.refresh_from_db()
    assert in_review.status == VersionStatus.CHANGES_REQUESTED
    labels = [c.target_label for c in selectors.review_comments(version=in_review)]
    assert labels == ['question "thief"', "card 3", "the case"]


def test_it_refuses_to_request_changes_without_a_comment(in_review, mina):
    assert (
        refusal(
            lambda: services.check_case_request_changes(version=in_review, user=mina, comments=[])
        )
        == "Say what should change: write at least one comment."
    )


def test_it_refuses_a_comment_on_a_card_of_another_version(in_review, mina, published_other):
    card = published_other.locations.first()

    assert (
        refusal(
            lambda: services.case_request_changes(
                version=in_review, user=mina, comments=[CommentInput("x", location_id=card.pk)]
            )
        )
        == "A comment names a card of another version."
    )


@pytest.fixture
def published_other(bob):
    from tests.factories import CaseVersionFactory, LocationFactory

    version = CaseVersionFactory(case__author=bob)
    LocationFactory(version=version)
    return version


def test_it_takes_a_resubmission_back_to_the_moderator_who_asked(in_review, alice, mina):
    claimed = Review.objects.get(version=in_review).claimed_at
    services.case_reveal(version=in_review, user=mina)
    services.case_request_changes(version=in_review, user=mina, comments=[CommentInput("Fix")])
    first = Review.objects.get(version=in_review).submitted_at

    services.case_submit(version=in_review, user=alice)

    review = Review.objects.get(version=in_review)
    assert CaseVersion.objects.get(pk=in_review.pk).status == VersionStatus.IN_REVIEW
    assert (review.moderator, review.claimed_at) == (mina, claimed)
    assert review.submitted_at > first and review.decided_at is None
    assert review.revealed_at is not None  # she has read the solution already
    assert [(r, r.moderator) for r in selectors.reviews_for(user=mina)] == [(review, mina)]
    services.check_case_approve(version=in_review, user=mina)  # no second claim


def test_it_sends_a_resubmission_to_the_queue_when_its_moderator_no_longer_reviews(
    in_review, alice, mina
):
    services.case_request_changes(version=in_review, user=mina, comments=[CommentInput("Fix")])
    mina.groups.clear()

    services.case_submit(version=in_review, user=alice)

    review = Review.objects.get(version=in_review)
    assert CaseVersion.objects.get(pk=in_review.pk).status == VersionStatus.SUBMITTED
    assert (review.moderator, review.claimed_at, review.revealed_at) == (None, None, None)


# --- editing, new drafts, immutability ------------------------------------------------------


def test_it_refuses_to_edit_a_published_version(published, alice):
    assert refusal(lambda: services.check_case_edit(version=published, user=alice)) == (
        "Version 1 is published and cannot change; edit it as a new draft version instead."
    )


def test_it_refuses_to_edit_under_review(submitted, alice):
    assert refusal(lambda: services.check_case_edit(version=submitted, user=alice)) == (
        "Version 1 is submitted; it cannot be edited until the moderator has decided."
    )


def test_it_copies_a_published_version_into_a_new_draft(published, alice):
    draft = services.case_version_new_draft(version=published, user=alice)

    assert (draft.number, draft.status, draft.case_id) == (2, "draft", published.case_id)
    assert [q.key for q in draft.questions.all()] == [q.key for q in published.questions.all()]
    assert [(q.accept, q.evidence) for q in draft.questions.all()] == [
        (q.accept, q.evidence) for q in published.questions.all()
    ]
    assert [(loc.number, loc.text, loc.icons) for loc in draft.locations.all()] == [
        (loc.number, loc.text, loc.icons) for loc in published.locations.all()
    ]
    assert selectors.version_diff(version=draft).items == []


def test_it_refuses_a_second_open_draft(published, alice):
    services.case_version_new_draft(version=published, user=alice)

    assert refusal(lambda: services.case_version_new_draft(version=published, user=alice)) == (
        "Version 2 is already open (draft); edit that one instead."
    )


def test_it_refuses_a_new_draft_of_a_draft_or_of_another_authors_case(draft, published, bob):
    assert (
        refusal(lambda: services.check_case_version_new_draft(version=published, user=bob))
        == "Only the author of this case can edit it."
    )


def test_it_keeps_a_table_on_the_version_it_started_with(published, alice, mina, charlie):
    table = play_services.table_create(host=charlie, case_version=published)
    play_services.table_start(table_id=table.pk, user=charlie)
    draft = services.case_version_new_draft(version=published, user=alice)
    draft.locations.filter(number=1).update(text="A new text for the clock shop.")
    services.case_submit(version=draft, user=alice)
    services.case_claim(version=draft, user=mina)
    services.case_reveal(version=draft, user=mina)
    services.case_approve(version=draft, user=mina)

    table = Table.objects.get(pk=table.pk)
    assert table.case_version_id == published.pk
    cards = table.state["case"]["locations"].values()
    assert "A new text for the clock shop." not in [card["text"] for card in cards]
    assert any(card["number"] == 1 for card in cards)
    assert CaseVersion.objects.get(pk=published.pk).status == VersionStatus.ARCHIVED
    draft.refresh_from_db()
    # (Another host: charlie plays the case at his table, and one runs at a time.)
    new_table = play_services.table_create(host=alice, case_version=draft)
    assert new_table.case_version_id == draft.pk


# --- play-test and reveal -----------------------------------------------------------------


def test_it_gives_a_moderator_a_solo_playtest_table(in_review, mina):
    test = services.case_playtest_start(version=in_review, user=mina)

    assert test.table.case_version == in_review
    assert [seat.user for seat in test.table.seats.all()] == [mina]
    assert test.tester == mina and test.table.is_private


def test_it_refuses_a_moderator_a_playtest_of_a_draft_and_the_author_one_under_review(
    draft, alice, mina
):
    assert refusal(lambda: services.check_case_playtest(version=draft, user=mina)) == (
        "Only the author of this case can play-test it before it is submitted."
    )
    services.case_submit(version=draft, user=alice)
    draft.refresh_from_db()
    assert refusal(lambda: services.check_case_playtest(version=draft, user=alice)) == (
        "Version 1 is submitted: while it is under review, only its moderator play-tests it."
    )
    assert not Playtest.objects.exists()


def test_it_keeps_published_tables_refusing_unpublished_versions(submitted, charlie):
    with pytest.raises(play_services.TableError, match="Only a published case"):
        play_services.table_create(host=charlie, case_version=submitted)
    assert not Playtest.objects.exists()


def test_it_reveals_the_solution_when_the_moderator_asks(in_review, mina):
    review = services.case_reveal(version=in_review, user=mina)

    assert review.revealed_at is not None


# --- notifications -------------------------------------------------------------------------


def test_it_tells_moderators_of_a_new_submission(
    draft, alice, mina, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.case_submit(version=draft, user=alice)

    notes = list(Notification.objects.all())
    assert [(n.user, n.kind) for n in notes] == [(mina, NotificationKind.NEW_SUBMISSION)]
    # A blind review: moderators are not told whose case it is.
    assert notes[0].message == "The Clerkenwell Repeater (v1) was submitted for review."


def test_it_tells_the_author_of_a_decision_once(
    in_review, alice, mina, django_capture_on_commit_callbacks
):
    from authoring.tasks import notify_decision

    with django_capture_on_commit_callbacks(execute=True):
        services.case_request_changes(
            version=in_review, user=mina, comments=[CommentInput("a"), CommentInput("b")]
        )
    review = Review.objects.get(version=in_review)
    notify_decision(in_review.pk, review.decided_at.isoformat())  # a task run twice

    notes = list(Notification.objects.filter(user=alice))
    assert [n.message for n in notes] == [
        "Changes were requested on The Clerkenwell Repeater (v1) (2 comments)."
    ]
    assert notes[0].kind == NotificationKind.REVIEW_DECISION


def test_it_tells_the_author_of_a_comment_and_of_publication(
    in_review, alice, mina, django_capture_on_commit_callbacks
):
    card = in_review.locations.get(number=5)
    with django_capture_on_commit_callbacks(execute=True):
        services.case_comment_add(
            version=in_review, user=mina, comment=CommentInput("Wiggins!", location_id=card.pk)
        )
    services.case_reveal(version=in_review, user=mina)
    with django_capture_on_commit_callbacks(execute=True):
        services.case_approve(version=in_review, user=mina)

    assert sorted(n.message for n in Notification.objects.filter(user=alice)) == [
        "Mina commented on card 5 of The Clerkenwell Repeater (v1).",
        "The Clerkenwell Repeater (v1) was approved and published.",
    ]
    assert ReviewComment.objects.count() == 1


# --- the queue -------------------------------------------------------------------------------


def test_it_lists_the_oldest_submission_first(submitted, bob, mina, django_assert_max_num_queries):
    from cases.package.reader import read_package_path
    from cases.services import case_import_package
    from tests.authoring.conftest import TUTORIAL

    files = read_package_path(TUTORIAL)
    files["case.md"] = files["case.md"].replace(
        b"slug: the-clerkenwell-repeater", b"slug: bobs-repeater"
    )
    bobs = case_import_package(files=files, author=bob).version
    services.case_submit(version=bobs, user=bob)

    with django_assert_max_num_queries(1):
        queue = [review.version.case.slug for review in selectors.reviews_for(user=mina)]
    assert queue == ["the-clerkenwell-repeater", "bobs-repeater"]


def test_it_lints_a_version_in_a_constant_number_of_queries(draft):
    with CaptureQueriesContext(connection) as few:
        selectors.version_lint(version=draft)
    for number in range(20, 40):
        draft.locations.create(number=number, name=f"Card {number}", text="Nothing.")
    with CaptureQueriesContext(connection) as many:
        selectors.version_lint(version=draft)
    assert len(few) == len(many)
