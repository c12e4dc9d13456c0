"""The editor's answer tester: the game's own judge, on the question's fields as the page
holds them (saved or not); the answers players gave, each accepted or rejected in one
click; and nothing for whoever may not read the answers (blind review)."""

import pytest
from django.urls import reverse

from authoring import services
from authoring.tester_selectors import answer_testers
from cases import answers
from cases.models import AnswerAttempt
from cases.package.reader import read_package_path
from cases.services import case_import_package
from play.models import Seat, Table, TableAttempt, TableStatus
from tests.authoring.conftest import TUTORIAL

ANOTHER_CASE = TUTORIAL.parent / "the-night-angler"

pytestmark = pytest.mark.django_db

TRIES = [
    "St James's Church",
    "the clock tower of St James's",
    "in the vestry of St James's Church",
    "St Peter's",
    "near St James's Church",
    "",
]


def logged_in(client, user):
    client.force_login(user)
    return client


def try_url(question):
    return reverse("authoring:answer_try", args=[question.pk])


def decide_url(question):
    return reverse("authoring:answer_decide", args=[question.pk])


def game_answers(version, user, answers_given, *, status=TableStatus.FINISHED, private=False):
    """A table of the case with one judged attempt at 221B."""
    table = Table.objects.create(case_version=version, host=user, status=status, is_private=private)
    seat = Seat.objects.create(table=table, user=user, number=0, colour="red")
    attempt = AnswerAttempt.objects.create(
        version=version, user=user, answers=answers_given, private=private
    )
    request = TableAttempt.objects.filter(table=table).count() + 1
    TableAttempt.objects.create(
        table=table, seat=seat, request=request, kind="solve", attempt=attempt
    )
    return attempt


# --- The verdicts ----------------------------------------------------------------------------


def test_its_verdicts_are_the_games_judges(client, draft, alice):
    question = draft.questions.get(key="hiding_place")
    for given in TRIES:
        response = logged_in(client, alice).post(try_url(question), {"given": given or " "})
        if not given:
            assert response.status_code == 400
            assert response.json() == {"error": "Type an answer to try."}
            continue
        expected = answers.judge(question, given)
        [verdict] = response.json()["verdicts"]
        assert (verdict["outcome"], verdict["reason"]) == (expected.outcome, expected.reason)
        assert verdict["sentence"].startswith(
            {"correct": "Right", "wrong": "Wrong", "unsure": "Unsure"}[expected.outcome]
        )


def test_it_judges_against_the_fields_as_typed_not_as_saved(client, draft, alice):
    question = draft.questions.get(key="hiding_place")
    given = "the belfry of St James's"
    saved = logged_in(client, alice).post(try_url(question), {"given": given}).json()
    assert saved["verdicts"][0]["outcome"] != "correct"

    typed = {
        "kind": "place",
        "answer": "St James's Church",
        "accept": "St James's Church tower\nthe belfry of St James's",
        "reject": "",
        "ask": question.ask,
    }
    unsaved = client.post(try_url(question), {**typed, "given": given}).json()
    assert unsaved["verdicts"][0]["outcome"] == "correct"
    question.refresh_from_db()
    assert "the belfry of St James's" not in question.accept  # trying saves nothing

    # A form typed into "rejected" is wrong at once, and another kind is another judge.
    rejected = client.post(
        try_url(question),
        {**typed, "reject": "St James's clock tower", "given": "St James's clock tower"},
    ).json()
    assert rejected["verdicts"][0]["outcome"] == "wrong"
    as_person = client.post(try_url(question), {**typed, "kind": "person", "given": given}).json()
    expected = answers.judge(
        answers.AnswerKey(
            "person", "St James's Church", ("St James's Church tower", "the belfry of St James's")
        ),
        given,
    )
    assert as_person["verdicts"][0]["outcome"] == expected.outcome


def test_bad_input_gets_a_sentence(client, draft, alice):
    question = draft.questions.get(key="thief")
    client = logged_in(client, alice)
    cases = [
        ({"given": "Silas Crane", "kind": "colour"}, "Choose the kind of answer first"),
        ({"given": "Silas Crane", "answer": "  "}, "Write the question's answer first"),
        ({"given": ["x"] * 41}, "Try at most 40 answers at once."),
        ({"given": "x", "accept": "y" * 6000}, "The accept field is too long"),
        ({}, "Type an answer to try."),
    ]
    for data, error in cases:
        response = client.post(try_url(question), data)
        assert response.status_code == 400
        assert response.json()["error"].startswith(error)
    assert client.get(try_url(question)).json() == {"error": "Send the answer with POST."}
    long = client.post(try_url(question), {"given": "Silas " * 60}).json()["verdicts"][0]
    assert long["outcome"] == "wrong" and long["reason"].startswith("Too long")


# --- Who may test ----------------------------------------------------------------------------


def test_only_the_author_and_a_moderator_who_revealed_may_test(client, in_review, alice, bob, mina):
    question = in_review.questions.get(key="thief")
    assert (
        logged_in(client, alice).post(try_url(question), {"given": "Silas Crane"}).status_code
        == 200
    )
    for outsider in (bob, mina):  # another writer; the moderator before the reveal
        response = logged_in(client, outsider).post(try_url(question), {"given": "Silas Crane"})
        assert response.status_code == 404
        assert response.json() == {"error": "There is no such question to test."}
        assert answer_testers(user=outsider, version=in_review) == []
    services.case_reveal(version=in_review, user=mina)
    response = logged_in(client, mina).post(try_url(question), {"given": "Silas Crane"})
    assert response.json()["verdicts"][0]["outcome"] == "correct"


def test_the_blind_moderators_editor_has_no_tester(client, in_review, alice, mina):
    editor = reverse("admin:cases_caseversion_change", args=[in_review.pk])
    assert b"holmes-tester" not in logged_in(client, mina).get(editor).content
    page = logged_in(client, alice).get(editor).content.decode()
    assert page.count('class="holmes-tester"') == in_review.questions.count()
    services.case_reveal(version=in_review, user=mina)
    page = logged_in(client, mina).get(editor).content.decode()
    assert page.count('class="holmes-tester"') == in_review.questions.count()
    # The moderator reads verdicts, but the question is not theirs to change.
    assert "Accept this form" not in page


# --- The answers players gave ----------------------------------------------------------------


def test_it_lists_the_answers_of_finished_games_with_their_verdicts(draft, alice, charlie):
    game_answers(
        draft, charlie, {"hiding_place": "the belfry of St James's", "thief": "Silas Crane"}
    )
    game_answers(draft, charlie, {"hiding_place": "The belfry of St. James's"})
    game_answers(draft, alice, {"hiding_place": "St James's Church"}, private=True)
    game_answers(draft, charlie, {"hiding_place": "the crypt"}, status=TableStatus.PLAYING)

    testers = {tester.question.key: tester for tester in answer_testers(user=alice, version=draft)}
    place = testers["hiding_place"].given
    assert [(form.example, form.count, form.where) for form in place] == [
        ("the belfry of St James's", 2, "2 at tables"),
        ("St James's Church", 1, "1 at play-test"),
    ]  # a game still played keeps its answers to itself
    question = testers["hiding_place"].question
    for form in place:
        assert form.verdict.outcome == answers.judge(question, form.example).outcome
    assert [form.example for form in testers["thief"].given] == ["Silas Crane"]
    assert testers["ticket"].given == []


def test_the_editor_shows_them_with_one_click_buttons(client, draft, alice, charlie):
    game_answers(draft, charlie, {"hiding_place": "the belfry of St James's"})
    page = (
        logged_in(client, alice)
        .get(reverse("admin:cases_caseversion_change", args=[draft.pk]))
        .content.decode()
    )
    assert "“the belfry of St James's”" in page.replace("&#x27;", "'")
    assert 'data-decide="accept"' in page and 'data-decide="reject"' in page


# --- Accept or reject in one click -----------------------------------------------------------


def test_accept_adds_the_form_and_reject_moves_it(client, draft, alice):
    question = draft.questions.get(key="hiding_place")
    client = logged_in(client, alice)
    form = "the belfry of St James's"
    response = client.post(decide_url(question), {"form": form, "decision": "accept"})
    assert response.status_code == 200
    assert (
        response.json()["message"] == f"“{form}” is now an accepted form of this question (saved)."
    )
    question.refresh_from_db()
    assert question.accept[-1] == form
    assert answers.judge(question, form).outcome == "correct"

    client.post(decide_url(question), {"form": form, "decision": "reject"})
    question.refresh_from_db()
    assert form not in question.accept and question.reject == [form]
    assert answers.judge(question, form).outcome == "wrong"
    client.post(decide_url(question), {"form": form, "decision": "reject"})
    question.refresh_from_db()
    assert question.reject == [form]  # once


def test_decisions_refused_say_why(client, draft, alice):
    question = draft.questions.get(key="hiding_place")
    refused = [
        ({"form": "St James's Church", "decision": "reject"},
         "That is the question's answer: change the answer before rejecting it."),
        ({"form": "  ", "decision": "accept"}, "There is no answer to accept or reject."),
        ({"form": "x", "decision": "maybe"}, "Choose to accept or to reject the answer."),
    ]  # fmt: skip
    client = logged_in(client, alice)
    for data, error in refused:
        response = client.post(decide_url(question), data)
        assert (response.status_code, response.json()["error"]) == (400, error)
    question.refresh_from_db()
    assert question.reject == []


def test_only_the_author_decides_and_only_in_a_draft(client, published, alice, bob, mina):
    question = published.questions.get(key="hiding_place")
    response = logged_in(client, alice).post(
        decide_url(question), {"form": "x", "decision": "accept"}
    )
    assert response.status_code == 400
    assert "edit it as a new draft version instead" in response.json()["error"]
    response = logged_in(client, bob).post(
        decide_url(question), {"form": "x", "decision": "accept"}
    )
    assert response.status_code == 404
    response = logged_in(client, mina).post(
        decide_url(question), {"form": "x", "decision": "accept"}
    )
    assert response.status_code == 403
    question.refresh_from_db()
    assert "x" not in question.accept


def test_it_reads_every_version_of_the_case_and_no_other_case(published, alice, bob, charlie):
    draft = services.case_version_new_draft(version=published, user=alice)
    game_answers(published, charlie, {"thief": "Silas J. Crane"})
    other = case_import_package(files=read_package_path(ANOTHER_CASE), author=bob).version
    game_answers(other, charlie, {"thief": "Tom Quill"})

    testers = {tester.question.key: tester for tester in answer_testers(user=alice, version=draft)}
    assert [form.example for form in testers["thief"].given] == ["Silas J. Crane"]


def test_a_form_longer_than_an_answer_is_refused(client, draft, alice):
    question = draft.questions.get(key="thief")
    response = logged_in(client, alice).post(
        decide_url(question), {"form": "Silas " * 50, "decision": "accept"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == (
        "That answer is too long to be a form (over 200 characters)."
    )


def test_a_question_not_saved_yet_is_tried_through_its_version(client, in_review, alice, mina):
    url = reverse("authoring:answer_try_new", args=[in_review.pk])
    typed = {"kind": "person", "answer": "Tom Quill", "ask": "Who was lured out?"}
    response = logged_in(client, alice).post(url, {**typed, "given": "Thomas Quill"})
    expected = answers.judge(
        answers.AnswerKey("person", "Tom Quill", ask=typed["ask"]), "Thomas Quill"
    )
    assert response.json()["verdicts"][0]["outcome"] == expected.outcome
    response = client.post(url, {"given": "Tom Quill"})  # no fields: nothing to judge by
    assert response.json() == {"error": "Choose the kind of answer first: the judge reads by kind."}
    response = logged_in(client, mina).post(url, {**typed, "given": "Tom Quill"})
    assert response.status_code == 404  # blind: the moderator has not revealed it
