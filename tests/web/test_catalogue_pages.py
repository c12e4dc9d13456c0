"""The catalogue with its statistics, and opening a table from a case page."""

from django.urls import reverse

from cases import selectors as case_selectors
from play.models import Table, TableStatus
from play.selectors import case_figures
from tests.factories import CaseVersionFactory


def finish(table, *, solved: bool) -> None:
    # What the case game's site records of a finished table (Table.outcome).
    table.status = TableStatus.FINISHED
    table.outcome = {"winners": [0] if solved else [], "solved": solved, "rounds": 4}
    table.save()


def catalogue(**choices):
    """The catalogue as its page builds it: with the tables' figures from play."""
    return case_selectors.catalogue(
        figures=lambda case_ids: case_figures(case_ids=case_ids), **choices
    )


def test_it_shows_plays_and_solve_rate_from_finished_tables(client, tutorial, alice):
    for solved in (True, True, False, True):
        finish(Table.objects.create(case_version=tutorial, host=alice), solved=solved)
    Table.objects.create(case_version=tutorial, host=alice)  # still in its lobby
    page = client.get(reverse("play:home")).text
    assert "Played four times" in page
    assert "solved at 75% of tables" in page


def test_it_says_a_case_was_never_played(client, tutorial):
    assert "Not played yet" in client.get(reverse("play:home")).text


def test_it_builds_the_catalogue_in_a_constant_number_of_queries(
    tutorial, alice, django_assert_num_queries
):
    finish(Table.objects.create(case_version=tutorial, host=alice), solved=True)
    # The versions, then the tables' figures (two aggregates).
    with django_assert_num_queries(3):
        catalogue()
    for _ in range(3):
        CaseVersionFactory()
    with django_assert_num_queries(3):
        versions = catalogue()
    assert len(versions) == 4


def test_it_offers_a_table_to_logged_in_players_only(client, tutorial, alice):
    url = reverse("play:case", args=[tutorial.case.slug])
    assert "Open a table" not in client.get(url).text
    client.force_login(alice)
    page = client.get(url).text
    assert "Open a table" in page
    assert "Casebook" in page and "Random start player" in page and "Play on" in page


def test_it_opens_a_table_with_the_chosen_house_rules(client, tutorial, alice):
    client.force_login(alice)
    response = client.post(
        reverse("play:table-create", args=[tutorial.case.slug]), {"casebook": "on"}
    )
    table = Table.objects.get()
    assert response["Location"] == reverse("play:table", args=[table.pk])
    assert table.options == {"casebook": True, "random_start": False, "play_on": False}
    assert table.host == alice


def test_it_filters_by_difficulty_and_players_and_sorts(client, tutorial, alice):
    from datetime import timedelta

    from django.utils import timezone

    hard = CaseVersionFactory(difficulty=4, min_players=3, max_players=5, title="The Hard One")
    now = timezone.now()
    hard.published_at, tutorial.published_at = now, now - timedelta(days=3)
    hard.save(), tutorial.save()
    for _ in range(2):
        finish(Table.objects.create(case_version=hard, host=alice), solved=False)

    def titles(**query):
        page = client.get(reverse("play:home"), query).text
        return [title for title in ("The Clerkenwell Repeater", "The Hard One") if title in page]

    assert titles() == ["The Clerkenwell Repeater", "The Hard One"]
    assert titles(difficulty=4) == ["The Hard One"]
    assert titles(players=2) == ["The Clerkenwell Repeater"]
    assert titles(players=4, difficulty=0) == ["The Clerkenwell Repeater"]
    assert [v.title for v in catalogue(sort="newest")][0] == "The Hard One"
    assert [v.title for v in catalogue(sort="most_played")][0] == "The Hard One"
    solve = [v.title for v in catalogue(sort="solve_rate")]
    assert solve == ["The Hard One", "The Clerkenwell Repeater"]  # 0% before never played
    assert "No published case matches" in client.get(reverse("play:home"), {"difficulty": 5}).text
    assert client.get(reverse("play:home"), {"players": "lots"}).status_code == 200


def test_it_shows_each_cases_length_and_time_estimated_then_measured(client, tutorial, alice):
    from datetime import timedelta

    from django.utils import timezone

    page = client.get(reverse("play:home")).text
    assert "12 cards · about 45 minutes" in page  # 15 + 2.5 × 12, from the size
    start = timezone.now() - timedelta(hours=2)
    for minutes in (50, 60, 70):
        table = Table.objects.create(case_version=tutorial, host=alice, started_at=start)
        table.finished_at = start + timedelta(minutes=minutes)
        finish(table, solved=True)

    page = client.get(reverse("play:home")).text
    assert "12 cards · about 60 minutes at the tables so far" in page
