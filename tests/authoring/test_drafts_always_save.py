"""A draft never refuses to save what the writer typed: what is missing or broken is the
linter's to report, and only Submit asks for no errors. What cannot be stored at all (a
difficulty of 9) is refused in a sentence of the writer's words, never a constraint's
name, and the page keeps everything typed."""

from django.urls import reverse

from authoring import selectors, services
from cases.models import CaseVersion
from cases.services import case_start_from_template

from .conftest import change_form_data


def change_url(version) -> str:
    return reverse("admin:cases_caseversion_change", args=[version.pk])


def save(client, version, **changes):
    data = change_form_data(client.get(change_url(version)))
    data.update(changes)
    data["_continue"] = "Save and continue editing"
    return client.post(change_url(version), data)


def lint_fields(version) -> set[tuple[str, str]]:
    return {(item.label, item.severity) for item in selectors.version_lint(version=version).items}


def test_it_saves_a_first_draft_with_no_introduction_and_no_solution(client, alice):
    client.force_login(alice)
    add = reverse("admin:cases_caseversion_add")
    data = {k: v for k, v in change_form_data(client.get(add)).items() if v not in ("", None)}
    data.update(slug="the-empty-house", title="The Empty House", difficulty=1, language="en")
    data.update(min_players=1, max_players=4, introduction="", solution="")

    response = client.post(add, data)

    assert response.status_code == 302
    version = CaseVersion.objects.get(case__slug="the-empty-house")
    assert (version.introduction, version.solution) == ("", "")
    messages = selectors.version_lint(version=version).errors
    assert any(item.field == "solution" for item in messages)
    try:
        services.check_case_submit(version=version, user=alice)
    except services.WorkflowRefused as refused:
        assert refused.code == "lint_errors"
    else:
        raise AssertionError("a case without a solution was allowed to be submitted")


def test_it_saves_an_empty_question_and_a_nameless_card(client, alice):
    version = case_start_from_template(author=alice, slug="half-written", title="Half")
    client.force_login(alice)

    response = save(
        client,
        version,
        **{"questions-0-ask": "", "questions-0-answer": "", "locations-0-name": ""},
    )

    assert response.status_code == 302
    question = version.questions.order_by("position").first()
    assert (question.ask, question.answer) == ("", "")
    assert version.locations.order_by("number").first().name == ""
    problems = lint_fields(version)
    assert (f"Question {question.key} · question", "error") in problems
    assert (f"Question {question.key} · answer", "error") in problems


def test_it_refuses_a_difficulty_of_9_in_a_sentence_and_keeps_the_page(client, alice, draft):
    client.force_login(alice)

    response = save(client, draft, difficulty="9", introduction="Fog, and a new line.")

    page = response.content.decode()
    assert response.status_code == 200
    assert "Constraint" not in page
    assert "The difficulty goes from 0 to 5." in page
    assert "Fog, and a new line." in page  # nothing typed is lost


def test_it_refuses_fewer_max_than_min_players_in_a_sentence(client, alice, draft):
    client.force_login(alice)

    response = save(client, draft, min_players="5", max_players="3")

    page = response.content.decode()
    assert "Constraint" not in page
    assert "Max players must be at least min players (5)." in page


def test_it_refuses_two_questions_with_one_id_in_a_sentence(client, alice, draft):
    client.force_login(alice)
    first = draft.questions.order_by("position").first()

    response = save(client, draft, **{"questions-1-key": first.key})

    page = response.content.decode()
    assert "duplicate" not in page
    assert "Two questions have the same id: give each question its own." in page


def test_the_banner_and_the_report_agree_after_renumbering_a_card_the_solution_cites(
    client, alice, draft
):
    client.force_login(alice)
    index = [loc.number for loc in draft.locations.order_by("number")].index(12)
    assert "[[12]]" in draft.solution

    response = save(client, draft, **{f"locations-{index}-number": "13"})
    assert response.status_code == 302, response.context["errors"]
    page = client.get(response["Location"])

    draft.refresh_from_db()
    assert "[[13]]" in draft.solution and "[[12]]" not in draft.solution
    banner = [str(m) for m in page.context["messages"] if "linter found" in str(m)]
    summary = page.context["lint_summary"]
    assert banner == [f"The linter found {summary}: see its report."] or (
        summary == "0 errors, 0 warnings" and not banner
    )


def test_it_speaks_of_fields_not_package_files(client, alice):
    version = case_start_from_template(author=alice, slug="no-cards-yet", title="Bare")
    client.force_login(alice)
    deleted = {f"locations-{i}-DELETE": "on" for i in range(version.locations.count())}

    response = save(client, version, introduction="", **deleted)
    page = client.get(response["Location"]).content.decode()

    assert not version.locations.exists()
    assert "locations/" not in page and "# Introduction" not in page
    assert "the case has no location card yet: add one under Location cards" in page
    assert 'href="#id_introduction"' in page and "the introduction is empty" in page
