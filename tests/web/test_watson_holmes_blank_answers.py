"""A blank answer on the table page: the form comes back as the player filled it in, with
the sentence by the empty box (and above the game, as every refusal), for the answers at
221B, a restatement and the Holmes card's check; with htmx or without."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from .helpers import act, page
from .test_table_pages import WRONG, deliver_verdicts, everyone_done, visit
from .test_watson_holmes_debrief import HEDGED, alice_answers_at_221b, form_answers

HIDING_PLACE = "Where is the stolen watch hidden now?"
SENTENCE = f"Write an answer to question 2, “{HIDING_PLACE}”, before you give your answers."


@pytest.fixture
def clients(alice, bob, charlie):
    made = {}
    for user in (alice, bob, charlie):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


def field(html: str, field_id: str) -> str:
    """The <input> (or <select>) tag with this id."""
    match = re.search(rf'<(?:input|select)[^>]*\bid="{field_id}"[^>]*>', html)
    assert match, f"no #{field_id} in the page"
    return match.group(0)


def escaped(text: str) -> str:
    return text.replace("'", "&#x27;").replace("“", "“")


def assert_sentence_by(html: str, field_id: str, sentence: str) -> None:
    box = field(html, field_id)
    assert 'aria-invalid="true"' in box and f"{field_id}-error" in box
    assert "hx-preserve" not in box, "a refused box is drawn as sent, not kept by the script"
    message = re.search(rf'<p class="field-error" id="{field_id}-error">([^<]*)</p>', html)
    assert message and message.group(1) == escaped(sentence)
    assert f'<p class="refusal" role="alert" id="refusal">{escaped(sentence)}</p>' in html


def alice_at_221b(clients, table) -> None:
    act(clients["alice"], table, {"type": "baker_street"})
    visit(clients, table, "bob", 2)
    table.refresh_from_db()


def test_it_gives_the_form_back_with_the_sentence_by_the_empty_box(clients, started):
    alice_at_221b(clients, started)
    version = started.version
    typed = {"thief": "Silas Crane", "hiding_place": "  ", "ticket": "212"}

    response = act(
        clients["alice"], started, {"type": "answer", "answers": {}}, **form_answers(typed)
    )

    assert response.status_code == 200
    html = response.text
    assert_sentence_by(html, "answer-hiding_place", SENTENCE)
    assert 'value="Silas Crane"' in field(html, "answer-thief")
    assert 'value="212"' in field(html, "answer-ticket")
    assert "aria-invalid" not in field(html, "answer-thief")
    assert all("required" in field(html, f"answer-{q}") for q in typed)
    started.refresh_from_db()
    assert started.version == version and started.state["answers"][0] is None
    # The page drawn afresh (a live update, a reload) is the usual form again.
    fresh = page(clients["alice"], started)
    assert "field-error" not in fresh and "hx-preserve" in field(fresh, "answer-thief")


def test_it_gives_the_whole_page_back_to_a_browser_without_script(clients, started):
    alice_at_221b(clients, started)
    typed = {"thief": "Silas Crane", "hiding_place": "", "ticket": "212"}
    started.refresh_from_db()
    data = {
        "action": '{"type": "answer", "answers": {}}',
        "expected_version": started.version,
        **form_answers(typed),
    }

    response = clients["alice"].post(reverse("play:table-act", args=[started.pk]), data)

    assert response.status_code == 200  # not a redirect: what was typed would be lost
    html = response.text
    assert 'class="table-layout"' in html and 'id="notebook-text"' in html  # the whole page
    assert_sentence_by(html, "answer-hiding_place", SENTENCE)
    assert 'value="Silas Crane"' in field(html, "answer-thief")
    assert "autofocus" in field(html, "answer-hiding_place")


def test_it_keeps_the_usual_redirect_for_a_refusal_about_no_field(clients, started):
    started.refresh_from_db()
    bob_out_of_turn = {"action": '{"type": "carriage_stop"}', "expected_version": started.version}
    response = clients["bob"].post(reverse("play:table-act", args=[started.pk]), bob_out_of_turn)
    assert response.status_code == 302


def test_it_gives_a_blank_restatement_back_with_the_sentence_by_its_box(clients, started):
    alice_answers_at_221b(clients, started, HEDGED)
    assert 'id="restate-form"' in page(clients["alice"], started)

    response = act(
        clients["alice"], started, {"type": "restate", "answers": {}}, **{"answers-ticket": " "}
    )

    question = "What number was printed on the repair ticket that lured Tom Quill out of the shop?"
    sentence = (
        f"Write an answer to question 3, “{question}”, before you give Sherlock these answers."
    )
    assert_sentence_by(response.text, "restate-ticket", sentence)
    box = field(response.text, "restate-ticket")
    assert "restate-prompt-ticket" in box and "required" in box


def test_it_gives_a_blank_holmes_check_back_with_the_sentence_by_its_box(clients, started):
    # Alice fails at 221B, so the Holmes card opens for Bob.
    act(clients["alice"], started, {"type": "baker_street"})
    visit(clients, started, "bob", 2)
    visit(clients, started, "charlie", 3)
    act(clients["alice"], started, {"type": "answer", "answers": {}}, **form_answers(WRONG))
    everyone_done(clients, started)
    deliver_verdicts(started)
    started.refresh_from_db()
    carriages = started.state["players"][1]["carriages"]

    response = act(
        clients["bob"], started, {"type": "holmes_check"}, question="hiding_place", answer=" "
    )

    sentence = (
        f"Write an answer to question 2, “{HIDING_PLACE}”, before you ask Sherlock to check it."
    )
    assert_sentence_by(response.text, "holmes-answer", sentence)
    assert '<option value="hiding_place" selected>' in response.text
    started.refresh_from_db()
    assert started.state["players"][1]["carriages"] == carriages
    assert started.state["players"][1]["holmes"]["check"] is None
