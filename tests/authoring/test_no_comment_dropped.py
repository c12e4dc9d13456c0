"""No comment is ever dropped on the review page: a reply box belongs to the page's one
form, so "Request changes" or "Add comment" sends whatever was typed in any thread."""

from django.urls import reverse

from authoring import services
from authoring.models import ReviewComment, ReviewReply
from authoring.services import CommentInput
from cases.models import VersionStatus


def review_url(version, action: str = "change") -> str:
    return reverse(f"admin:authoring_review_{action}", args=[version.review.pk])


def first_comment(version, mina):
    question = version.questions.get(key="ticket")
    return services.case_comment_add(
        version=version, user=mina, comment=CommentInput("Which ticket?", question_id=question.pk)
    )


def test_it_draws_each_reply_box_inside_the_review_form(client, mina, in_review):
    comment = first_comment(in_review, mina)
    client.force_login(mina)

    page = client.get(review_url(in_review)).content.decode()

    assert f'name="reply-{comment.pk}" form="review-form"' in page
    assert '<form method="post" id="review-form"' in page


def test_request_changes_sends_what_was_typed_in_a_thread_box(client, mina, in_review):
    comment = first_comment(in_review, mina)
    client.force_login(mina)
    typed = "And the platform number, please."

    # What the browser posts when the moderator typed in the first thread's reply box and
    # pressed "Request changes": the page's one form, with the box among its fields.
    response = client.post(
        review_url(in_review, "request_changes"),
        {"target": "", "text": "", f"reply-{comment.pk}": typed},
    )

    assert response.status_code == 302
    in_review.refresh_from_db()
    assert in_review.status == VersionStatus.CHANGES_REQUESTED
    assert ReviewReply.objects.get(comment=comment).text == typed


def test_add_comment_sends_the_new_comment_and_every_typed_reply(client, mina, in_review):
    comment = first_comment(in_review, mina)
    client.force_login(mina)

    response = client.post(
        review_url(in_review, "comment"),
        {"target": "", "text": "The fog is overdone.", f"reply-{comment.pk}": "Second look."},
        follow=True,
    )

    assert "Comment and 1 reply added: the author is told." in response.content.decode()
    assert ReviewComment.objects.filter(version=in_review, text="The fog is overdone.").exists()
    assert ReviewReply.objects.get(comment=comment).text == "Second look."


def test_nothing_typed_is_refused_in_a_sentence(client, mina, in_review):
    client.force_login(mina)

    response = client.post(
        review_url(in_review, "comment"), {"target": "", "text": ""}, follow=True
    )

    assert "Write a comment or a reply first." in response.content.decode()


def test_resolving_one_thread_sends_the_reply_typed_in_another(client, mina, in_review):
    ticket = first_comment(in_review, mina)
    card = in_review.locations.get(number=6)
    barrows = services.case_comment_add(
        version=in_review, user=mina, comment=CommentInput("Tom hides?", location_id=card.pk)
    )
    client.force_login(mina)
    page = client.get(review_url(in_review)).content.decode()
    resolve = reverse("authoring:comment_resolve", args=[barrows.pk])
    assert f'form="review-form" formaction="{resolve}"' in page

    # The page's one form, sent by the second thread's Resolve button.
    response = client.post(
        resolve,
        {"target": "", "text": "", f"reply-{ticket.pk}": "The return half.", "next": "/"},
    )

    assert response.status_code == 302
    barrows.refresh_from_db()
    assert barrows.is_resolved
    assert ReviewReply.objects.get(comment=ticket).text == "The return half."
