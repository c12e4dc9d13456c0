"""A page that is not found says what to do; a table's address opened by someone not at
it offers what its invite would (tests/play/test_table_address.py), and only a table that
does not exist is not found."""

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

    # Friends copy the address bar: the table it names offers watching, or says why not.
    assert existing.status_code == 200
    assert "You are not at Alice's table" in existing.text and "Watch this game" in existing.text
    assert missing.status_code == 404
    assert "You are not at this table" in missing.text
    assert "Open the invite link" in missing.text and reverse("play:tables") in missing.text
