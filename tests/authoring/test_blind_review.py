"""Blind review (issue 22, item 7): until the moderator reveals the review, the case editor
shows them neither the solution nor the answers, and the export is refused; the review
page's "reveal" lifts it. The author always sees their own case whole."""

from django.test import Client
from django.urls import reverse

from authoring import selectors, services

SOLUTION = "Only a man behind that counter could have torn it off"
# The questions' answer fields, by their rows in the editor's form (the answers' words
# are on cards' names too: "Silas Crane's Lodging").
ANSWER_FIELD = 'class="form-row field-answer"'
ACCEPT_FIELD = 'class="form-row field-accept"'


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def editor(client, version) -> str:
    response = client.get(reverse("admin:cases_caseversion_change", args=[version.pk]))
    assert response.status_code == 200
    return response.content.decode()


def export(client, version):
    return client.get(reverse("admin:cases_caseversion_export", args=[version.pk]))


def test_it_hides_the_solution_and_answers_from_the_moderator_before_the_reveal(in_review, mina):
    page = editor(client_for(mina), in_review)

    assert SOLUTION not in page
    assert ANSWER_FIELD not in page
    assert ACCEPT_FIELD not in page
    assert "Who stole the Ashcombe repeater?" in page  # the questions are there to read
    assert 'id="blind-review"' in page
    assert "Export package" not in page
    assert "A grey Tuesday morning in November 1886" in page  # the rest is there to read


def test_it_refuses_the_moderator_the_export_before_the_reveal(in_review, mina):
    client = client_for(mina)
    response = export(client, in_review)

    assert response.status_code == 302
    assert response.get("Content-Type", "").startswith("text/html")
    assert "reveal them on the review page first" in editor(client, in_review)


def test_it_hides_them_from_a_moderator_who_has_not_claimed_it_yet(submitted, mina):
    assert selectors.solution_hidden(user=mina, version=submitted)
    assert SOLUTION not in editor(client_for(mina), submitted)
    assert export(client_for(mina), submitted).status_code == 302


def test_it_shows_the_solution_answers_and_export_once_revealed(in_review, mina):
    services.case_reveal(version=in_review, user=mina)
    client = client_for(mina)

    page = editor(client, in_review)
    assert SOLUTION in page
    assert ANSWER_FIELD in page
    response = export(client, in_review)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"


def test_the_author_always_sees_their_own_case_whole(in_review, alice):
    client = client_for(alice)
    page = editor(client, in_review)

    assert SOLUTION in page and ANSWER_FIELD in page
    assert export(client, in_review).status_code == 200
