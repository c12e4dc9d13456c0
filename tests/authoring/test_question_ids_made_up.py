"""A new question needs no id invented by the writer: Save makes one from what the
question asks, unique in the case, and keeps an id the writer typed."""

from django.urls import reverse

from authoring.forms import question_key_from
from cases.services import case_start_from_template

from .conftest import change_form_data


def save_with_new_question(client, version, **fields):
    url = reverse("admin:cases_caseversion_change", args=[version.pk])
    data = change_form_data(client.get(url))
    row = int(data["questions-TOTAL_FORMS"])
    data["questions-TOTAL_FORMS"] = str(row + 1)
    data.update({f"questions-{row}-{name}": value for name, value in fields.items()})
    data["_continue"] = "Save and continue editing"
    return client.post(url, data)


def test_a_question_saved_without_an_id_gets_one_from_its_words(client, alice):
    version = case_start_from_template(author=alice, slug="no-ids", title="No ids")
    client.force_login(alice)

    response = save_with_new_question(
        client, version, key="", ask="Who wound the church clock?", kind="person", answer="Ann"
    )

    assert response.status_code == 302
    assert version.questions.get(ask="Who wound the church clock?").key == "who_wound_the"


def test_a_made_up_id_never_takes_another_questions():
    taken = {"who_wound_the", "who_wound_the_2"}

    assert question_key_from("Who wound the clock?", taken) == "who_wound_the_3"
    assert question_key_from("", set()) == "question"
    assert question_key_from("Où est l'été ?", set()) == "ou_est_lete"


def test_an_id_the_writer_typed_is_kept(client, alice):
    version = case_start_from_template(author=alice, slug="typed-id", title="Typed")
    client.force_login(alice)

    save_with_new_question(client, version, key="clock", ask="Who?", kind="person", answer="A")

    assert version.questions.filter(key="clock").exists()
