"""The public case pages: what a player may read before a game, and nothing more."""

import pytest
from django.urls import reverse

from cases.models import VersionStatus
from tests.factories import CaseVersionFactory, LocationFactory, QuestionFactory

SECRETS = ("SOLUTION-SECRET", "ANSWER-SECRET", "ACCEPT-SECRET", "REJECT-SECRET", "CARD-SECRET")


@pytest.fixture
def published(db):
    version = CaseVersionFactory(
        title="The Sleeping Lamplighter",
        difficulty=2,
        special_rules="Fog: no carriage may cross the river in round one.",
    )
    QuestionFactory(version=version, ask="Who drugged the lamplighter?")
    QuestionFactory(version=version, ask="Where was the laudanum bought?", kind="place")
    LocationFactory(version=version)
    return version


def test_it_lists_published_cases_on_the_home_page(client, published):
    CaseVersionFactory(title="A Draft Nobody Should See", status=VersionStatus.DRAFT)
    response = client.get(reverse("play:home"))
    assert response.status_code == 200
    assert "The Sleeping Lamplighter" in response.text
    assert "A Draft Nobody Should See" not in response.text
    assert "Moderate" in response.text


def test_it_says_so_when_nothing_is_published(client, db):
    response = client.get(reverse("play:home"))
    assert "No case has been published yet" in response.text


def test_it_shows_title_difficulty_introduction_rules_and_questions(client, published):
    response = client.get(reverse("play:case", args=[published.case.slug]))
    assert response.status_code == 200
    page = response.text
    assert "The Sleeping Lamplighter" in page
    assert "Moderate" in page
    assert "A lamplighter is found asleep" in page
    assert "no carriage may cross the river" in page
    assert page.index("Who drugged the lamplighter?") < page.index("Where was the laudanum")


def test_it_never_shows_the_solution_answers_or_card_text(client, published):
    pages = [
        client.get(reverse("play:home")).text,
        client.get(reverse("play:case", args=[published.case.slug])).text,
    ]
    for page in pages:
        for secret in SECRETS:
            assert secret not in page


def test_it_answers_404_for_a_draft_or_a_missing_case(client, db):
    draft = CaseVersionFactory(status=VersionStatus.DRAFT)
    assert client.get(reverse("play:case", args=[draft.case.slug])).status_code == 404
    assert client.get(reverse("play:case", args=["no-such-case"])).status_code == 404


def test_it_renders_author_markdown_safely_on_the_case_page(client, db):
    version = CaseVersionFactory(introduction="Fog *everywhere*. <script>alert(1)</script>")
    page = client.get(reverse("play:case", args=[version.case.slug])).text
    assert "<em>everywhere</em>" in page
    assert "<script>alert" not in page


def test_it_lists_cases_with_a_constant_number_of_queries(
    client, db, django_assert_max_num_queries
):
    for _ in range(5):
        CaseVersionFactory()
    with django_assert_max_num_queries(3):
        client.get(reverse("play:home"))
