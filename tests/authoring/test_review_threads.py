"""A review loop that converges: comment threads (reply, resolve, reopen) beside their card
or question, a resubmission that stays with its moderator, and a diff since their review."""

import pytest
from django.urls import reverse

from accounts.models import Notification, NotificationKind
from authoring import selectors, services
from authoring.models import Review, ReviewComment, ReviewReply
from authoring.services import CommentInput, WorkflowRefused
from cases.models import CaseVersion, VersionStatus


def refusal(call) -> str:
    with pytest.raises(WorkflowRefused) as caught:
        call()
    return str(caught.value)


def editor_url(version) -> str:
    return reverse("admin:cases_caseversion_change", args=[version.pk])


def review_url(version) -> str:
    return reverse("admin:authoring_review_change", args=[version.review.pk])


@pytest.fixture
def nina(make_user):
    """A second moderator, who did not claim alice's case."""
    user = make_user("nina", display_name="Nina")
    services.user_make_moderator(user=user)
    return user


@pytest.fixture
def sent_back(in_review, mina):
    """alice's case with changes requested by mina: one comment on card 6, one on the
    question "ticket", one on the case."""
    card = in_review.locations.get(number=6)
    question = in_review.questions.get(key="ticket")
    services.case_request_changes(
        version=in_review,
        user=mina,
        comments=[
            CommentInput("Say where Tom hides among the barrows.", location_id=card.pk),
            CommentInput("Which ticket?", question_id=question.pk),
            CommentInput("A lovely case overall."),
        ],
    )
    in_review.refresh_from_db()
    return in_review


def comment_on(version, number: int) -> ReviewComment:
    return ReviewComment.objects.get(version=version, location__number=number)


# --- replies ------------------------------------------------------------------------------


def test_it_records_the_author_of_each_reply_in_its_thread(sent_back, alice, mina):
    comment = comment_on(sent_back, 6)

    services.review_comment_reply(comment=comment, user=alice, text="  Under the third one. ")
    services.review_comment_reply(comment=comment, user=mina, text="Say so on the card.")

    replies = list(comment.replies.values_list("author__username", "text"))
    assert replies == [("alice", "Under the third one."), ("mina", "Say so on the card.")]


def test_it_tells_the_moderator_holding_the_case_of_the_authors_reply(
    sent_back, alice, mina, nina, django_capture_on_commit_callbacks
):
    comment = comment_on(sent_back, 6)
    Notification.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        services.review_comment_reply(comment=comment, user=alice, text="Under the third one.")

    [note] = Notification.objects.all()
    assert (note.user, note.kind) == (mina, NotificationKind.NEW_SUBMISSION)
    assert note.message == (
        "The author replied to a comment on card 6 of The Clerkenwell Repeater (v1)."
    )
    assert note.url == f"{review_url(sent_back)}#comment-{comment.pk}"
    assert "third" not in note.message  # the text stays on the case's pages


def test_it_tells_the_author_of_the_moderators_reply(
    sent_back, alice, mina, django_capture_on_commit_callbacks
):
    comment = ReviewComment.objects.get(version=sent_back, question__key="ticket")
    Notification.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        services.review_comment_reply(comment=comment, user=mina, text="The return half.")

    [note] = Notification.objects.all()
    assert (note.user, note.kind) == (alice, NotificationKind.REVIEW_DECISION)
    assert note.message == (
        'Mina replied to a comment on question "ticket" of The Clerkenwell Repeater (v1).'
    )
    assert note.url == f"{editor_url(sent_back)}#comment-{comment.pk}"


def test_it_refuses_a_reply_from_anyone_but_the_author_and_the_moderator(
    sent_back, bob, nina, charlie
):
    comment = comment_on(sent_back, 6)

    for user in (bob, nina, charlie):
        assert refusal(
            lambda u=user: services.review_comment_reply(comment=comment, user=u, text="Hm.")
        ) == ("Only the author of this case or a moderator reviewing it can reply to its comments.")
    assert not ReviewReply.objects.exists()


def test_it_refuses_an_empty_reply(sent_back, alice):
    comment = comment_on(sent_back, 6)

    assert refusal(
        lambda: services.review_comment_reply(comment=comment, user=alice, text="  \n ")
    ) == ("A reply needs some text.")


def test_it_closes_the_threads_of_a_published_version(sent_back, alice, mina):
    comment = comment_on(sent_back, 6)
    services.case_submit(version=sent_back, user=alice)
    services.case_reveal(version=sent_back, user=mina)
    services.case_approve(version=sent_back, user=mina)

    closed = "Version 1 is published: its review is over, and its comments are closed."
    assert refusal(
        lambda: services.review_comment_reply(comment=comment, user=alice, text="Done.")
    ) == (closed)
    assert refusal(lambda: services.review_comment_resolve(comment=comment, user=mina)) == (closed)


# --- resolve and reopen -------------------------------------------------------------------


def test_it_resolves_and_reopens_a_thread_keeping_who_and_when(sent_back, alice, mina):
    comment = comment_on(sent_back, 6)

    services.review_comment_resolve(comment=comment, user=alice)
    comment.refresh_from_db()
    assert comment.resolved_by == alice and comment.resolved_at is not None

    services.review_comment_reopen(comment=comment, user=mina)
    comment.refresh_from_db()
    assert (comment.resolved_by, comment.resolved_at) == (None, None)

    services.review_comment_resolve(comment=comment, user=mina)
    comment.refresh_from_db()
    assert comment.resolved_by == mina


def test_it_refuses_to_resolve_twice_to_reopen_an_open_thread_or_to_reply_when_resolved(
    sent_back, alice
):
    comment = comment_on(sent_back, 6)
    assert refusal(lambda: services.review_comment_reopen(comment=comment, user=alice)) == (
        "This comment is open already."
    )
    services.review_comment_resolve(comment=comment, user=alice)

    assert refusal(lambda: services.review_comment_resolve(comment=comment, user=alice)) == (
        "This comment is already resolved."
    )
    assert refusal(
        lambda: services.review_comment_reply(comment=comment, user=alice, text="And?")
    ) == ("This comment is resolved; reopen it to reply.")


def test_it_refuses_another_moderator_to_resolve(sent_back, nina):
    assert refusal(
        lambda: services.review_comment_resolve(comment=comment_on(sent_back, 6), user=nina)
    ) == ("Only the author of this case or a moderator reviewing it can resolve its comments.")


# --- resubmission ---------------------------------------------------------------------------


def test_it_tells_only_the_moderator_who_asked_of_a_resubmission(
    sent_back, alice, mina, nina, django_capture_on_commit_callbacks
):
    Notification.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        services.case_submit(version=sent_back, user=alice)

    [note] = Notification.objects.all()
    assert (note.user, note.kind) == (mina, NotificationKind.NEW_SUBMISSION)
    assert note.message == (
        "The author resubmitted The Clerkenwell Repeater (v1): it is back with you for review."
    )


def test_it_keeps_a_first_submission_unclaimed_in_the_queue(draft, alice):
    review = services.case_submit(version=draft, user=alice)

    assert CaseVersion.objects.get(pk=draft.pk).status == VersionStatus.SUBMITTED
    assert (review.moderator, review.claimed_at) == (None, None)


# --- the diff since the moderator's last review --------------------------------------------


def test_it_diffs_a_resubmission_against_what_the_moderator_read(sent_back, alice, mina):
    card = sent_back.locations.get(number=6)
    card.text += "\n\nTom sleeps under the third barrow."
    card.save()
    services.case_submit(version=sent_back, user=alice)
    review = Review.objects.get(version=sent_back)

    diff = selectors.review_diff(review=review, user=mina)

    assert diff.since_review_at == review.reviewed_at is not None
    assert [(i.label, i.status, [c.label for c in i.changes]) for i in diff.items] == [
        ("Card 6", "changed", ["Text"])
    ]
    assert ("+", "Tom sleeps under the third barrow.") in diff.items[0].changes[0].lines


def test_it_leaves_out_of_the_diff_the_line_endings_a_browser_sends(sent_back, alice, mina):
    sent_back.introduction = sent_back.introduction.replace("\n", "\r\n").strip()
    sent_back.save()
    for card in sent_back.locations.all():
        card.text = card.text.replace("\n", "\r\n").strip()
        card.save()
    services.case_submit(version=sent_back, user=alice)

    assert (
        selectors.review_diff(review=Review.objects.get(version=sent_back), user=mina).items == []
    )


def test_it_diffs_against_the_published_version_for_a_first_review(in_review, mina):
    diff = selectors.review_diff(review=in_review.review, user=mina)

    assert diff.since_review_at is None
    assert diff == selectors.version_diff(version=in_review)


def test_it_shows_changes_since_your_last_review_on_the_review_page(client, sent_back, alice, mina):
    question = sent_back.questions.get(key="ticket")
    question.ask = "Which ticket did the clerk punch?"
    question.save()
    services.case_submit(version=sent_back, user=alice)
    services.case_reveal(version=sent_back, user=mina)
    client.force_login(mina)

    since = client.get(review_url(sent_back))
    whole = client.get(review_url(sent_back) + "?diff=published")

    assert "Changes since your last review" in since.content.decode()
    assert [item.label for item in since.context["diff"].items] == ['Question "ticket"']
    assert "Changes since nothing: this is the first version" in whole.content.decode()
    assert len(whole.context["diff"].items) > 1


# --- the review page ------------------------------------------------------------------------


def test_it_shows_every_card_and_question_with_their_threads_on_the_review_page(
    client, in_review, mina
):
    card = in_review.locations.get(number=6)
    services.case_comment_add(
        version=in_review,
        user=mina,
        comment=CommentInput("Say where Tom hides.", location_id=card.pk),
    )
    client.force_login(mina)

    response = client.get(review_url(in_review))

    page = response.content.decode()
    threads = response.context["threads"]
    assert [c.number for c, _ in threads.cards] == list(range(1, 13))
    [(_, [thread])] = [(c, t) for c, t in threads.cards if c.number == 6]
    assert thread.comment.text == "Say where Tom hides." and thread.may_resolve
    assert 'id="card-6"' in page and "Smithfield Market" in page
    section = page[page.index('id="card-6"') : page.index('id="card-7"')]
    assert "Say where Tom hides." in section and "Your reply" in section
    assert 'id="question-ticket"' in page
    answer = in_review.questions.get(key="ticket").answer
    assert f"<strong>{answer}</strong>" not in page  # answers stay hidden until reveal
    assert 'id="solution-hidden"' in page


def test_it_lets_the_moderator_open_a_case_sent_back_but_no_other_moderator(
    client, sent_back, mina, nina
):
    client.force_login(mina)
    assert client.get(review_url(sent_back)).status_code == 200
    queue = client.get(reverse("admin:authoring_review_changelist"))
    assert [r.version for r in queue.context["cl"].result_list] == [sent_back]

    # Not hers: an old link of nina's (her notification of the submission) takes her to
    # the queue, and says who has the case.
    client.force_login(nina)
    response = client.get(review_url(sent_back))
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:authoring_review_changelist")
    assert "Mina is reviewing this case" in client.get(response["Location"]).content.decode()


# --- the editor -----------------------------------------------------------------------------


def test_it_shows_open_threads_in_the_editor_linked_to_their_card(client, sent_back, alice):
    resolved = ReviewComment.objects.get(version=sent_back, question__key="ticket")
    services.review_comment_resolve(comment=resolved, user=alice)
    comment = comment_on(sent_back, 6)
    client.force_login(alice)

    response = client.get(editor_url(sent_back))

    page = response.content.decode()
    panel = page[page.index('id="review-comments"') :]
    assert [t.comment.text for t in response.context["comments"]] == [
        "Say where Tom hides among the barrows.",
        "A lovely case overall.",
    ]
    # The card's thread stands under the card; the panel leads to it there.
    assert f'href="#comment-{comment.pk}">Card 6</a>' in panel
    assert f'href="#comment-{comment.pk}">1 open comment</a>' in page  # on the card's text
    assert "Which ticket?" not in page  # resolved: not shown
    assert 'name="next"' in panel and "Resolve" in panel


def test_it_shows_no_comment_in_the_editor_of_a_published_version(client, sent_back, alice, mina):
    services.case_submit(version=sent_back, user=alice)
    services.case_reveal(version=sent_back, user=mina)
    services.case_approve(version=sent_back, user=mina)
    client.force_login(alice)

    response = client.get(editor_url(sent_back))

    assert response.context["comments"] == []
    assert "Say where Tom hides" not in response.content.decode()


# --- the thread endpoints (authoring/views.py) --------------------------------------------


def test_it_replies_from_the_editor_and_comes_back_to_the_thread(client, sent_back, alice):
    comment = comment_on(sent_back, 6)
    client.force_login(alice)
    back = f"{editor_url(sent_back)}#comment-{comment.pk}"

    response = client.post(
        reverse("authoring:comment_reply", args=[comment.pk]),
        {"text": "Under the third barrow.", "next": back},
    )

    assert response.status_code == 302 and response["Location"] == back
    assert comment.replies.get().author == alice


def test_it_resolves_and_reopens_from_the_pages(client, sent_back, alice, mina):
    comment = comment_on(sent_back, 6)
    client.force_login(alice)
    client.post(reverse("authoring:comment_resolve", args=[comment.pk]))
    assert ReviewComment.objects.get(pk=comment.pk).resolved_by == alice

    client.force_login(mina)
    response = client.post(
        reverse("authoring:comment_reopen", args=[comment.pk]), {"next": review_url(sent_back)}
    )

    assert response["Location"] == review_url(sent_back)
    assert ReviewComment.objects.get(pk=comment.pk).resolved_at is None


def test_it_goes_back_only_to_a_page_of_this_site(client, sent_back, alice):
    comment = comment_on(sent_back, 6)
    client.force_login(alice)

    response = client.post(
        reverse("authoring:comment_resolve", args=[comment.pk]),
        {"next": "https://elsewhere.example/admin/"},
    )

    assert response["Location"] == editor_url(sent_back)


def test_it_says_why_a_reply_is_refused(client, sent_back, alice):
    comment = comment_on(sent_back, 6)
    client.force_login(alice)

    response = client.post(
        reverse("authoring:comment_reply", args=[comment.pk]), {"text": " "}, follow=True
    )

    assert "A reply needs some text." in response.content.decode()
    assert not ReviewReply.objects.exists()


def test_it_takes_only_posts_and_hides_comments_of_cases_one_cannot_see(
    client, sent_back, alice, bob, charlie
):
    comment = comment_on(sent_back, 6)
    url = reverse("authoring:comment_reply", args=[comment.pk])
    client.force_login(alice)
    assert client.get(url).status_code == 405

    client.force_login(bob)
    assert client.post(url, {"text": "Hello"}).status_code == 404
    client.force_login(charlie)
    assert client.post(url, {"text": "Hello"})["Location"].startswith(reverse("admin:login"))
    assert not ReviewReply.objects.exists()
