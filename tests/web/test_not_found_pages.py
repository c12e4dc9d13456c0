"""A page that is not found says what to do; a table opened by someone not at it says so,
alike whether the table exists (its existence is not told)."""

import re

from django.urls import reverse


def main_of(page) -> str:
    return re.search(r"<main.*</main>", page.text, re.S)[0]


def test_a_missing_page_says_what_to_do(client, db):
    page = client.get("/no-such-page/")

    assert page.status_code == 404
    assert "This page does not exist" in page.text
    assert 'href="/"' in page.text and "Join with a code" in page.text


def test_a_table_opened_by_someone_not_at_it_says_how_to_get_in(client, started, make_user):
    client.force_login(make_user("dora", display_name="Dora"))
    existing = client.get(reverse("play:table", args=[started.pk]))
    missing = client.get(reverse("play:table", args=[started.pk + 1000]))

    for page in (existing, missing):
        assert page.status_code == 404
        assert "You are not at this table" in page.text
        assert "Open the invite link" in page.text and reverse("play:tables") in page.text
    # Nothing tells the two apart: not the title, not the players.
    assert main_of(existing) == main_of(missing).replace(str(started.pk + 1000), str(started.pk))
    assert "The Clerkenwell Repeater" not in existing.text
