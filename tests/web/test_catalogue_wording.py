"""The catalogue says how often a case was played in words a reader would use."""

from django.urls import reverse

from play.models import Table

from .test_catalogue_pages import finish


def stats(client) -> str:
    html = client.get(reverse("play:home")).text
    return " ".join(html.split('class="meta case-stats">')[1].split("</p>")[0].split())


def test_it_says_played_once_and_whether_it_was_solved(client, tutorial, alice):
    finish(Table.objects.create(case_version=tutorial, host=alice), solved=True)
    assert stats(client) == "Played once · solved"


def test_it_says_played_twice_and_never_a_percentage_of_one(client, tutorial, alice):
    for solved in (True, True):
        finish(Table.objects.create(case_version=tutorial, host=alice), solved=solved)
    assert stats(client) == "Played twice · solved at every table"


def test_it_says_when_no_table_has_solved_it_yet(client, tutorial, alice):
    for solved in (False, False, False):
        finish(Table.objects.create(case_version=tutorial, host=alice), solved=solved)
    assert stats(client) == "Played three times · not solved yet"
