"""Comments where they belong: in the editor, each thread on a card or a question stands
under that row (its boxes belong to forms outside the editor's form), the comments panel
leads to it there, and the moderator deciding on the case has a comment box under every
card and question, which answers in place."""

import json

import pytest
from django.urls import reverse

from authoring import services
from authoring.models import ReviewComment
from tests.authoring.test_review_threads import comment_on, editor_url, sent_back  # noqa: F401

IN_PLACE = {"HTTP_X_HOLMES_IN_PLACE": "1"}


def row_html(page: str, row_id: str) -> str:
    """The HTML of one row of the editor (a card's or question's fold)."""
    start = page.index(f'id="{row_id}"')
    end = page.find('class="inline-related', start)
    return page[start : end if end != -1 else None]


def test_it_draws_a_cards_thread_under_that_card(client, sent_back, alice):  # noqa: F811
    comment = comment_on(sent_back, 6)
    client.force_login(alice)

    page = client.get(editor_url(sent_back)).content.decode()

    card = row_html(page, "locations-5")
    assert "Say where Tom hides among the barrows." in card
    assert f'form="thread-{comment.pk}-reply"' in card
    assert f'<form method="post" id="thread-{comment.pk}-reply"' in page
    # The panel leads to it, and holds no second copy of its boxes.
    panel = page[page.index('id="review-comments"') : page.index('id="holmes-thread-forms"')]
    assert f'<a href="#comment-{comment.pk}">Card 6</a>' in panel
    assert f'id="reply-{comment.pk}"' not in panel
    assert page.count(f'id="comment-{comment.pk}"') == 1


def test_it_gives_the_author_no_comment_box(client, sent_back, alice):  # noqa: F811
    client.force_login(alice)

    page = client.get(editor_url(sent_back)).content.decode()

    assert "Comment on card" not in page


@pytest.fixture
def in_review_page(client, in_review, mina):
    client.force_login(mina)
    return client.get(editor_url(in_review)).content.decode()


def test_it_gives_the_deciding_moderator_a_comment_box_under_each_card(in_review_page, in_review):
    card = in_review.locations.get(number=6)

    row = row_html(in_review_page, "locations-5")

    assert "Comment on card 6" in row
    assert f'form="comment-form-location{card.pk}"' in row
    assert f'id="comment-form-location{card.pk}"' in in_review_page
    assert f'value="location:{card.pk}"' in in_review_page


def test_it_adds_a_comment_on_a_card_in_place(client, in_review, mina, alice):
    card = in_review.locations.get(number=6)
    client.force_login(mina)
    url = reverse("authoring:comment_add", args=[in_review.pk])

    response = client.post(url, {"target": f"location:{card.pk}", "text": " Barrows? "}, **IN_PLACE)

    assert response.status_code == 200
    assert json.loads(response.content) == {
        "done": True,
        "message": "Your comment is added: the author is told.",
    }
    comment = ReviewComment.objects.get(version=in_review)
    assert (comment.location, comment.text, comment.moderator) == (card, "Barrows?", mina)


def test_it_refuses_a_comment_in_a_sentence(client, in_review, mina, alice):
    client.force_login(mina)
    url = reverse("authoring:comment_add", args=[in_review.pk])
    card = in_review.locations.get(number=6)

    empty = client.post(url, {"target": f"location:{card.pk}", "text": "  "}, **IN_PLACE)
    stray = client.post(url, {"target": "location:999999", "text": "Hm"}, **IN_PLACE)
    client.force_login(alice)
    author = client.post(url, {"target": f"location:{card.pk}", "text": "Hm"}, **IN_PLACE)

    assert (empty.status_code, json.loads(empty.content)["message"]) == (
        400,
        "A comment needs some text.",
    )
    assert json.loads(stray.content)["message"] == (
        "That card or question is no longer in this version; reload the page."
    )
    assert author.status_code == 400
    assert not ReviewComment.objects.exists()


def test_it_comes_back_to_the_row_without_the_script(client, in_review, mina):
    client.force_login(mina)
    card = in_review.locations.get(number=6)
    back = f"{editor_url(in_review)}#locations-5"

    response = client.post(
        reverse("authoring:comment_add", args=[in_review.pk]),
        {"target": f"location:{card.pk}", "text": "Barrows?", "next": back},
    )

    assert (response.status_code, response["Location"]) == (302, back)
    assert ReviewComment.objects.get(version=in_review).location == card


def test_it_answers_a_stranger_not_found(client, in_review, bob):
    services.user_make_author(user=bob)
    client.force_login(bob)

    response = client.post(reverse("authoring:comment_add", args=[in_review.pk]), {"text": "x"})

    assert response.status_code == 404


# --- the review page ------------------------------------------------------------------------


def review_url(version, action: str = "change") -> str:
    return reverse(f"admin:authoring_review_{action}", args=[version.review.pk])


def test_it_draws_a_comment_box_under_each_card_and_question_of_the_review(client, in_review, mina):
    card = in_review.locations.get(number=6)
    question = in_review.questions.get(key="ticket")
    client.force_login(mina)

    page = client.get(review_url(in_review)).content.decode()

    card_html = page[page.index('id="card-6"') : page.index('id="card-7"')]
    assert "Comment on card 6" in card_html
    assert f'name="comment-location-{card.pk}" form="review-form"' in card_html
    assert f'name="comment-question-{question.pk}" form="review-form"' in page


def test_it_sends_every_boxs_comment_with_any_button_in_place(client, in_review, mina):
    card = in_review.locations.get(number=6)
    question = in_review.questions.get(key="ticket")
    client.force_login(mina)

    response = client.post(
        review_url(in_review, "comment"),
        {
            "target": "",
            "text": "",
            f"comment-location-{card.pk}": "Say where Tom hides.",
            f"comment-question-{question.pk}": "Which ticket?",
        },
        **IN_PLACE,
    )

    assert json.loads(response.content) == {
        "done": True,
        "message": "2 comments added: the author is told.",
    }
    texts = dict(ReviewComment.objects.values_list("text", "location__number"))
    assert texts == {"Say where Tom hides.": 6, "Which ticket?": None}
    assert ReviewComment.objects.get(text="Which ticket?").question == question


def test_it_keeps_a_cards_comment_when_changes_are_requested(client, in_review, mina):
    card = in_review.locations.get(number=6)
    client.force_login(mina)

    client.post(
        review_url(in_review, "request_changes"),
        {"target": "", "text": "", f"comment-location-{card.pk}": "Say where Tom hides."},
    )

    comment = ReviewComment.objects.get(version=in_review)
    assert (comment.location, comment.text) == (card, "Say where Tom hides.")


def test_it_refuses_an_empty_page_in_place_in_a_sentence(client, in_review, mina):
    client.force_login(mina)

    response = client.post(review_url(in_review, "comment"), {"target": ""}, **IN_PLACE)

    assert (response.status_code, json.loads(response.content)["message"]) == (
        400,
        "Write a comment or a reply first.",
    )
