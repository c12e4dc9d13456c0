"""A published case's print-and-play PDF: for people logged in, and without its solution
and answer key for one who plays the case at a running table (the table page keeps a
solution closed from them then; a PDF must not open it). The PDF is read back as text."""

from django.urls import reverse

from play import services
from play.models import Table, TableStatus
from tests.cases.test_printing import _poppler, pages_of

SOLUTION_TEXT = "he was the thief"  # in the case's solution only
LEFT_OUT = "The solution and the answer key are left out of this copy"


def print_url(version) -> str:
    url = f"/cases/{version.case.slug}/print.pdf"  # the address stays as it was
    return url


def printed(client, version, tmp_path) -> list[str]:
    response = client.get(print_url(version))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return pages_of(response.content, tmp_path)


def test_it_sends_an_anonymous_visitor_to_log_in(client, tutorial):
    response = client.get(print_url(tutorial))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert b"Silas Crane" not in response.content


def test_it_prints_the_whole_case_for_someone_who_does_not_play_it(
    client, tutorial, alice, tmp_path
):
    _poppler()
    client.force_login(alice)
    pages = printed(client, tutorial, tmp_path)
    text = "".join(pages)
    # The answers, once: the case's solution gives its own, so no answer key follows it.
    assert SOLUTION_TEXT in text and "Silas Crane, Mr Brandt" in text
    assert "do not read" in text and "Answer key" not in text
    assert LEFT_OUT not in text
    # What it holds depends on who asks: no shared cache keeps it.
    assert "private" in client.get(print_url(tutorial))["Cache-Control"]


def test_it_leaves_the_solution_and_answer_key_out_for_a_player_of_a_running_table(
    client, started, tutorial, alice, charlie, make_user, tmp_path
):
    _poppler()
    client.force_login(alice)
    pages = printed(client, tutorial, tmp_path)
    text = "".join(pages)
    assert SOLUTION_TEXT not in text
    assert "Answer key" not in text and "do not read" not in text
    assert "Silas Crane, Mr Brandt" not in text  # the author's own answers, in the solution
    assert "The Clerkenwell Repeater" in text and "Answer sheet" in text  # still playable
    # The last page says why, in a sentence.
    last = " ".join(pages[-1].split())
    assert f"{LEFT_OUT}: you are playing this case at a table" in last
    # Someone who does not play it still gets it whole, cached PDF or not.
    client.force_login(make_user("dora"))
    assert SOLUTION_TEXT in "".join(printed(client, tutorial, tmp_path))
    # Once alice's table is over, so is the reason.
    Table.objects.filter(pk=started.pk).update(status=TableStatus.FINISHED)
    client.force_login(alice)
    assert SOLUTION_TEXT in "".join(printed(client, tutorial, tmp_path))


def test_a_player_of_a_local_seat_table_is_the_host_and_gets_no_solution_either(
    client, tutorial, alice, tmp_path
):
    _poppler()
    from play import local_players

    table = services.table_create(host=alice, case_version=tutorial)
    local_players.local_seat_add(table_id=table.pk, user=alice, name="Mara")
    services.table_start(table_id=table.pk, user=alice)
    client.force_login(alice)
    assert SOLUTION_TEXT not in "".join(printed(client, tutorial, tmp_path))
