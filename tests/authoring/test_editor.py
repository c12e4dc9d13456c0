"""The editor pages: they render, save through the friendly widgets, show the linter's
problems linked to their fields, preview Markdown as players see it, and import and
export packages."""

import io
import zipfile

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from authoring import services
from cases.markdown import render_markdown
from cases.models import Case, CaseVersion, NearMiss, VersionStatus
from cases.package.reader import read_package_path, read_zip
from cases.package.writer import write_zip
from cases.services import case_import_package
from play.models import Table, TableAttempt, TableEvent, TableStatus

from .conftest import TUTORIAL, change_form_data


def change_url(version) -> str:
    return reverse("admin:cases_caseversion_change", args=[version.pk])


def test_it_renders_the_editor_with_inlines_and_previews(client, alice, draft):
    draft.introduction = "It was *foggy*. See [[3]].\n\n<script>alert(1)</script>"
    draft.save()
    client.force_login(alice)

    response = client.get(change_url(draft))

    page = response.content.decode()
    assert response.status_code == 200
    assert str(render_markdown(draft.introduction)) in page
    assert "<script>alert(1)</script>" not in page
    assert 'id="id_questions-0-answer"' in page
    assert 'name="locations-0-icons"' in page and 'type="checkbox"' in page
    card = draft.locations.get(number=1)
    assert str(render_markdown(card.text)) in page
    assert "Linter: 0 errors, 0 warnings" in page


def test_it_saves_lists_through_friendly_widgets(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["questions-1-accept"] = "the church tower\n\n  St James's  \n"
    data["questions-1-evidence"] = "2, 6 8"
    data["locations-2-icons"] = ["lockpick", "police"]
    data["_continue"] = "Save and continue editing"

    response = client.post(change_url(draft), data)

    assert response.status_code == 302, response.context["errors"] if response.context else ""
    question = draft.questions.get(key="hiding_place")
    assert question.accept == ["the church tower", "St James's"]
    assert question.evidence == [2, 6, 8]
    assert draft.locations.get(number=3).icons == ["police", "lockpick"]


def test_it_refuses_evidence_that_is_not_numbers(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["questions-0-evidence"] = "1, two"

    response = client.post(change_url(draft), data)

    assert response.status_code == 200
    assert "&quot;two&quot; is not a card number; write numbers like 4, 12." in (
        response.content.decode()
    )


def test_it_shows_lint_problems_on_save_linked_to_their_fields(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["questions-2-answer"] = "two hundred and twelve"
    data["questions-2-evidence"] = "1, 99"
    data["_continue"] = "Save and continue editing"

    saved = client.post(change_url(draft), data, follow=True)

    page = saved.content.decode()
    assert "The linter found 2 errors" in page
    panel = {(e["item"].field, e["anchor"]) for e in saved.context["lint_panel"]}
    assert ("answer", "id_questions-2-answer") in panel
    assert ("evidence", "id_questions-2-evidence") in panel
    assert 'href="#id_questions-2-answer"' in page
    assert "the answer to question &quot;ticket&quot; must be a number" in page


def test_it_links_card_problems_to_the_card_field(client, alice, draft):
    card = draft.locations.get(number=4)
    card.text = ""
    card.save()
    client.force_login(alice)

    response = client.get(change_url(draft))

    [entry] = [
        e for e in response.context["lint_panel"] if e["item"].message == "the card has no text"
    ]
    index = [loc.pk for loc in draft.locations.order_by("number")].index(card.pk)
    assert entry["anchor"] == f"id_locations-{index}-text"
    assert entry["item"].message == "the card has no text"


def test_it_adds_a_new_case(client, alice):
    client.force_login(alice)
    response = client.get(reverse("admin:cases_caseversion_add"))
    data = {
        key: value for key, value in change_form_data(response).items() if value not in ("", None)
    }
    data.update(
        slug="the-empty-house",
        title="The Empty House",
        difficulty=1,
        language="en",
        min_players=1,
        max_players=4,
        introduction="A shot in Park Lane.",
        solution="Colonel Moran.",
    )

    response = client.post(reverse("admin:cases_caseversion_add"), data)

    assert response.status_code == 302
    version = CaseVersion.objects.get(case__slug="the-empty-house")
    assert (version.case.author, version.number, version.status) == (alice, 1, "draft")


def test_it_makes_a_published_version_read_only_with_a_new_draft_button(client, alice, published):
    client.force_login(alice)

    page = client.get(change_url(published))
    assert page.context["has_change_permission"] is False
    assert "Edit as a new draft" in page.content.decode()
    data = change_form_data(page) if page.context.get("adminform") else {}
    refused = client.post(change_url(published), {**data, "title": "Changed"})
    assert refused.status_code == 403
    response = client.post(reverse("admin:cases_caseversion_new_draft", args=[published.pk]))

    draft = published.case.versions.get(number=2)
    assert response["Location"] == change_url(draft)
    assert CaseVersion.objects.get(pk=published.pk).title == "The Clerkenwell Repeater"


def test_it_submits_from_the_editor_or_says_why_not(client, alice, draft):
    client.force_login(alice)
    draft.questions.filter(key="ticket").update(answer="twelve dozen")

    page = client.get(change_url(draft)).content.decode()
    refused = client.post(
        reverse("admin:cases_caseversion_submit", args=[draft.pk]), follow=True
    ).content.decode()

    text = "The case has 1 error to fix before it can be submitted (warnings may stay)."
    assert text in page and text in refused
    assert CaseVersion.objects.get(pk=draft.pk).status == VersionStatus.DRAFT
    draft.questions.filter(key="ticket").update(answer="212")
    client.post(reverse("admin:cases_caseversion_submit", args=[draft.pk]))
    assert CaseVersion.objects.get(pk=draft.pk).status == VersionStatus.SUBMITTED


# --- import and export -------------------------------------------------------------------------


def tutorial_zip() -> bytes:
    buffer = io.BytesIO()
    write_zip(
        {name: content.decode() for name, content in read_package_path(TUTORIAL).items()},
        buffer,
        folder="the-clerkenwell-repeater",
    )
    return buffer.getvalue()


def upload(client, content: bytes, name="case.zip"):
    package = io.BytesIO(content)
    package.name = name
    return client.post(reverse("admin:cases_caseversion_import"), {"package": package})


def test_it_round_trips_a_package_through_import_and_export(client, alice):
    client.force_login(alice)

    imported = upload(client, tutorial_zip())

    version = CaseVersion.objects.get(case__slug="the-clerkenwell-repeater")
    assert imported["Location"] == change_url(version)
    assert version.case.author == alice and version.status == "draft"
    exported = client.get(reverse("admin:cases_caseversion_export", args=[version.pk]))
    assert exported["Content-Type"] == "application/zip"
    assert 'filename="the-clerkenwell-repeater-v1.zip"' in exported["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(exported.content)) as archive:
        assert "the-clerkenwell-repeater/case.md" in archive.namelist()
    original = read_package_path(TUTORIAL)
    assert {n: c.decode().rstrip() for n, c in read_zip(exported.content).items()} == {
        n: c.decode().rstrip() for n, c in original.items()
    }


def test_it_shows_every_problem_of_a_broken_package(client, alice):
    client.force_login(alice)
    files = {n: c.decode() for n, c in read_package_path(TUTORIAL).items()}
    files["case.md"] = files["case.md"].replace("difficulty: 0", "difficulty: 9")
    buffer = io.BytesIO()
    write_zip(files, buffer, folder="broken")

    response = upload(client, buffer.getvalue())

    assert response.status_code == 200
    assert "difficulty 9 is out of range: use 0 (introductory) to 5" in response.content.decode()
    assert not Case.objects.exists()


def test_it_refuses_an_import_while_a_version_is_open(client, alice, draft):
    client.force_login(alice)

    response = upload(client, tutorial_zip())

    assert (
        "Version 1 of this case is still open (draft); finish or delete it before importing "
        "a new one." in response.content.decode()
    )
    assert draft.case.versions.count() == 1


def test_it_refuses_an_import_over_another_authors_case(client, bob, draft):
    client.force_login(bob)

    response = upload(client, tutorial_zip())

    assert "belongs to another author" in response.content.decode()


# --- the review page ---------------------------------------------------------------------------


def test_it_keeps_the_review_blind_until_the_moderator_asks(client, mina, published, alice):
    draft = services.case_version_new_draft(version=published, user=alice)
    card = draft.locations.get(number=3)
    card.text = "Inspector Lestrade is out; Constable Pike takes your statement."
    card.save()
    services.case_submit(version=draft, user=alice)
    client.force_login(mina)
    url = reverse("admin:authoring_review_change", args=[draft.review.pk])
    client.post(reverse("admin:authoring_review_claim", args=[draft.review.pk]))

    blind = client.get(url).content.decode()
    client.post(reverse("admin:authoring_review_playtest", args=[draft.review.pk]))
    client.post(reverse("admin:authoring_review_reveal", args=[draft.review.pk]))
    seen = client.get(url)

    secret = draft.solution.strip().splitlines()[0][:40]
    assert 'id="solution-hidden"' in blind and secret not in blind
    assert Table.objects.filter(case_version=draft, host=mina).count() == 1
    page = seen.content.decode()
    assert secret in page
    [item] = seen.context["diff"].items
    assert (item.label, item.status, item.changes[0].label) == ("Card 3", "changed", "Text")
    assert "+Inspector Lestrade is out; Constable Pike takes your statement." in page


def test_it_requests_changes_from_the_review_page(client, mina, in_review):
    question = in_review.questions.get(key="ticket")
    client.force_login(mina)

    client.post(
        reverse("admin:authoring_review_request_changes", args=[in_review.review.pk]),
        {"target": f"question:{question.pk}", "text": "Which ticket?"},
    )

    assert CaseVersion.objects.get(pk=in_review.pk).status == "changes_requested"
    comment = in_review.review_comments.get()
    assert (comment.question, comment.text, comment.moderator) == (question, "Which ticket?", mina)


# --- statistics -------------------------------------------------------------------------------


def finished_table(version, user, *, result="solved", rounds=4, verdicts=None, visits=()):
    from cases.models import AnswerAttempt
    from play.models import Seat

    table = Table.objects.create(
        case_version=version,
        host=user,
        status=TableStatus.FINISHED,
        # What the case game's site records of a finished table (Table.outcome).
        outcome={"winners": [0], "solved": result == "solved", "rounds": rounds},
    )
    seat = Seat.objects.create(table=table, user=user, number=0, colour="red")
    for sequence, number in enumerate(visits, start=1):
        TableEvent.objects.create(
            table=table,
            sequence=sequence,
            table_version=sequence,
            audience="all",
            type="visited",
            payload={"player": 0, "location": number},
        )
    if verdicts:
        attempt = AnswerAttempt.objects.create(
            version=version,
            user=user,
            answers={key: "x" for key in verdicts},
            verdicts={key: {"verdict": v, "score": 1, "reason": ""} for key, v in verdicts.items()},
            judged_at=version.created_at,
        )
        TableAttempt.objects.create(
            table=table, seat=seat, request=1, kind="solve", attempt=attempt
        )
    return table


def test_it_counts_plays_solves_accuracy_and_visits(published, charlie):
    from authoring.selectors import case_statistics

    finished_table(
        published,
        charlie,
        rounds=4,
        verdicts={"thief": "correct", "ticket": "wrong"},
        visits=[3, 3, 5],
    )
    finished_table(
        published, charlie, rounds=6, verdicts={"thief": "correct", "ticket": "correct"}, visits=[3]
    )
    finished_table(published, charlie, result="everyone_lost", visits=[7])

    case = published.case
    with CaptureQueriesContext(connection) as queries:
        stats = case_statistics(case=case)
    for _ in range(3):
        finished_table(published, charlie, verdicts={"thief": "wrong"}, visits=[1, 2])
    with CaptureQueriesContext(connection) as more_queries:
        case_statistics(case=case)
    assert len(queries) == len(more_queries) <= 9

    assert (stats.plays, stats.solved, stats.rounds_to_solve) == (3, 2, {4: 1, 6: 1})
    assert round(stats.solve_rate, 2) == 0.67 and stats.average_rounds == 5
    by_key = {q.key: q for q in stats.questions}
    assert (by_key["thief"].accuracy, by_key["ticket"].accuracy) == (1.0, 0.5)
    assert [(n, v) for n, _, v in stats.most_visited] == [(3, 3), (5, 1), (7, 1)]


def test_it_leaves_playtests_out_of_statistics(in_review, mina, charlie):
    from authoring.selectors import case_statistics

    test = services.case_playtest_start(version=in_review, user=mina)
    Table.objects.filter(pk=test.table_id).update(
        status=TableStatus.FINISHED, state={"result": {"kind": "solved", "rounds": 2}}
    )

    assert case_statistics(case=in_review.case).plays == 0


def test_it_adds_a_near_miss_as_an_accepted_form_in_a_new_draft(client, alice, published):
    question = published.questions.get(key="hiding_place")
    miss = NearMiss.objects.create(
        question=question,
        normalised="st james belfry",
        example="St James's belfry",
        verdict="wrong",
        count=3,
    )
    client.force_login(alice)
    page = client.get(reverse("admin:cases_caseversion_statistics", args=[published.pk]))
    assert "St James&#x27;s belfry" in page.content.decode()

    response = client.post(reverse("admin:cases_nearmiss_accept", args=[miss.pk]))

    draft = published.case.versions.get(number=2)
    assert response["Location"] == change_url(draft)
    assert "St James's belfry" in draft.questions.get(key="hiding_place").accept
    assert "St James's belfry" not in published.questions.get(key="hiding_place").accept
    client.post(reverse("admin:cases_nearmiss_accept", args=[miss.pk]))
    assert published.case.versions.count() == 2
    assert draft.questions.get(key="hiding_place").accept.count("St James's belfry") == 1


def test_it_refuses_a_near_miss_while_the_case_is_under_review(alice, published, mina):
    from authoring.services import WorkflowRefused

    draft = services.case_version_new_draft(version=published, user=alice)
    services.case_submit(version=draft, user=alice)
    miss = NearMiss.objects.create(
        question=published.questions.first(), normalised="x", example="x", verdict="wrong"
    )

    try:
        services.near_miss_accept(near_miss=miss, user=alice)
    except WorkflowRefused as refused:
        message = str(refused)
    assert message == (
        "Version 2 is submitted; wait for the moderator's decision before adding accepted forms."
    )


def test_it_adds_a_question_at_the_end_when_no_position_is_given(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["questions-TOTAL_FORMS"] = "4"
    data.update(
        {
            "questions-3-key": "clockmaker",
            "questions-3-ask": "Who made the repeater?",
            "questions-3-kind": "person",
            "questions-3-answer": "Elias Brandt",
            "questions-3-accept": "Mr Elias Brandt",
            "questions-3-version": str(draft.pk),
        }
    )

    response = client.post(change_url(draft), data)

    assert response.status_code == 302
    assert [(q.key, q.position) for q in draft.questions.order_by("position")][-1] == (
        "clockmaker",
        3,
    )


def location_index(version, number: int) -> int:
    """The row of card `number` in the editor's card list (ordered by number)."""
    return [loc.number for loc in version.locations.order_by("number")].index(number)


def test_it_swaps_two_card_numbers_in_one_save_and_references_follow(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    smithfield, bell = location_index(draft, 6), location_index(draft, 7)
    data[f"locations-{smithfield}-number"] = "7"
    data[f"locations-{bell}-number"] = "6"
    data["_continue"] = "Save and continue editing"

    response = client.post(change_url(draft), data, follow=True)

    assert response.status_code == 200
    assert draft.locations.get(number=7).name == "Smithfield Market"
    assert draft.locations.get(number=6).name == "The Bell and Compass"
    wiggins = draft.locations.get(number=5).text
    assert "Smithfield [[7]]" in wiggins and "Bell and Compass [[6]]" in wiggins
    assert draft.questions.get(key="hiding_place").evidence == [2, 7, 8, 9]
    assert "Renumbered card 6 → 7, card 7 → 6" in response.content.decode()
    assert "Linter: 0 errors" in response.content.decode()


def test_it_refuses_a_number_another_card_keeps_with_a_sentence(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data[f"locations-{location_index(draft, 6)}-number"] = "7"

    response = client.post(change_url(draft), data)

    assert response.status_code == 200
    assert "Two cards have the same number: give each card its own." in response.content.decode()
    assert draft.locations.get(number=6).name == "Smithfield Market"


# --- The editor's help for long cases: live preview, autosave, fields that apply ---------


def test_it_previews_markdown_through_the_players_sanitiser(client, alice):
    client.force_login(alice)
    url = reverse("admin:cases_caseversion_markdown_preview")

    response = client.post(url, {"text": "**Fog** at [[3]]<script>alert(1)</script>"})

    html = response.json()["html"]
    assert html == str(render_markdown("**Fog** at [[3]]<script>alert(1)</script>"))
    assert "<strong>Fog</strong>" in html and "<script" not in html


def test_it_previews_markdown_only_for_writers_and_moderators(client, charlie, alice):
    charlie.is_staff = True
    charlie.save()
    url = reverse("admin:cases_caseversion_markdown_preview")
    client.force_login(charlie)
    assert client.post(url, {"text": "hello"}).status_code == 403
    client.force_login(alice)
    assert client.get(url).status_code == 405
    too_long = client.post(url, {"text": "x" * 100_001})
    assert too_long.status_code == 400 and "Too long to preview" in too_long.json()["error"]


def test_it_autosaves_without_messages_history_or_redirect(client, alice, draft):
    from django.contrib.admin.models import LogEntry

    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["title"] = "The Clerkenwell Repeater, autosaved"

    response = client.post(change_url(draft), data, headers={"X-Holmes-Autosave": "1"})

    assert response.status_code == 200 and response.json()["saved"] is True
    assert CaseVersion.objects.get(pk=draft.pk).title == "The Clerkenwell Repeater, autosaved"
    assert not LogEntry.objects.exists()
    page = client.get(change_url(draft)).content.decode()
    assert "was changed successfully" not in page and "The linter found" not in page


def test_it_saves_nothing_when_an_autosave_does_not_validate(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["title"] = "Changed"
    data["questions-0-evidence"] = "1, two"

    response = client.post(change_url(draft), data, headers={"X-Holmes-Autosave": "1"})

    assert response.status_code == 400
    assert response.json() == {
        "saved": False,
        "message": 'Not saved automatically: "two" is not a card number; write numbers like '
        "4, 12. Press Save to see it by its field.",
    }
    assert CaseVersion.objects.get(pk=draft.pk).title == "The Clerkenwell Repeater"


def test_it_refuses_an_autosave_of_a_version_under_review(client, alice, submitted):
    client.force_login(alice)
    data = {"title": "Changed", "_continue": "1"}

    response = client.post(change_url(submitted), data, headers={"X-Holmes-Autosave": "1"})

    assert response.status_code == 403
    assert CaseVersion.objects.get(pk=submitted.pk).title == "The Clerkenwell Repeater"


def test_it_shows_the_zone_field_only_in_a_case_with_zones(client, alice, draft):
    from django.conf import settings

    client.force_login(alice)
    assert 'name="locations-0-zone"' not in client.get(change_url(draft)).content.decode()
    hollow_lane = settings.BASE_DIR / "fixtures" / "cases" / "the-measurer-of-hollow-lane"
    zoned = case_import_package(files=read_package_path(hollow_lane), author=alice).version
    assert 'name="locations-0-zone"' in client.get(change_url(zoned)).content.decode()


def test_it_shows_the_author_a_preview_of_the_whole_case(client, alice, bob, mina, submitted):
    url = reverse("admin:cases_caseversion_preview", args=[submitted.pk])
    client.force_login(alice)

    page = client.get(url).content.decode()

    assert page.count('class="game-card location-card"') == 12
    assert str(render_markdown(submitted.solution)) in page
    assert 'id="solution"' in page and "<details" in page
    client.force_login(bob)  # another author: the version is not his to see
    assert client.get(url).status_code == 404
    client.force_login(mina)  # a moderator reviews blind, from the review page
    assert client.get(url).status_code == 403


def test_it_saves_texts_with_the_line_ends_of_a_package(client, alice, draft):
    client.force_login(alice)
    data = change_form_data(client.get(change_url(draft)))
    data["introduction"] = "First line.\r\n\r\nSecond paragraph."
    data["locations-0-text"] = "A card.\r\nIts second line."
    data["_continue"] = "Save and continue editing"

    client.post(change_url(draft), data)

    draft.refresh_from_db()
    assert draft.introduction == "First line.\n\nSecond paragraph."
    assert draft.locations.order_by("number").first().text == "A card.\nIts second line."
