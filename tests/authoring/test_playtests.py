"""A moderator's play-test is private: nobody joins it or reads the version through it,
and it counts in no figure, public or the author's."""

import pytest
from django.urls import reverse

from authoring import services
from cases.models import NearMiss
from cases.selectors import catalogue
from play import selectors as play_selectors
from play import services as play_services
from play.models import Table, TableStatus
from play.selectors import case_figures
from tests.play.test_services import advance_others


@pytest.fixture
def playtest(in_review, mina):
    return services.case_playtest_start(version=in_review, user=mina).table


def test_it_refuses_charlie_a_seat_at_a_playtest(playtest, charlie, client):
    with pytest.raises(play_services.TableError, match="private play-test table"):
        play_services.table_join(invite_code=playtest.invite_code, user=charlie)

    client.force_login(charlie)
    page = client.get(reverse("play:join", args=[playtest.invite_code]))
    assert page.status_code == 404 and "opens no table." in page.content.decode()
    api = client.post("/api/tables/join/", {"invite_code": playtest.invite_code})
    assert api.status_code in (400, 404, 409) and "private" in api.content.decode()
    assert client.get(reverse("play:table", args=[playtest.pk])).status_code == 404
    assert list(playtest.seats.values_list("user__username", flat=True)) == ["mina"]


def test_it_shows_no_invite_at_a_playtest(playtest, mina, client):
    client.force_login(mina)

    page = client.get(reverse("play:table", args=[playtest.pk])).content.decode()
    api = client.get(f"/api/tables/{playtest.pk}/").json()

    assert 'id="invite-link"' not in page and playtest.invite_code not in page
    assert "nobody can join it" in page
    assert "invite_code" not in api


def test_it_counts_a_playtest_in_no_catalogue_figure(playtest, in_review, mina, client):
    Table.objects.filter(pk=playtest.pk).update(
        status=TableStatus.FINISHED, outcome={"winners": [0], "solved": True, "rounds": 2}
    )
    services.case_reveal(version=in_review, user=mina)
    services.case_approve(version=in_review, user=mina)

    [listed] = catalogue(figures=lambda case_ids: case_figures(case_ids=case_ids))
    assert (listed.plays, listed.solve_rate) == (0, None)
    assert "Not played yet" in client.get(reverse("play:home")).content.decode()


def test_it_records_no_near_miss_from_a_playtest(
    playtest, mina, django_capture_on_commit_callbacks
):
    play_services.table_start(table_id=playtest.pk, user=mina)
    play_services.game_apply_action(table_id=playtest.pk, player=0, action={"type": "baker_street"})
    wrong = {"thief": "Tom Quill", "hiding_place": "Smithfield Market", "ticket": "211"}
    table = advance_others(
        Table.objects.get(pk=playtest.pk),
        lambda state: any(a["type"] == "answer" for a in _legal(state)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        play_services.game_apply_action(
            table_id=table.pk, player=0, action={"type": "answer", "answers": wrong}
        )

    attempt = table.attempts.get().attempt
    assert attempt.private and attempt.judged_at is not None
    assert attempt.correct_count == 0
    assert not NearMiss.objects.exists()


def _legal(state):
    from games import get_rules

    return get_rules("watson_holmes").legal_actions(state, 0)


def test_it_reads_a_playtest_to_nobody_but_its_moderator(playtest, charlie):
    from django.http import Http404

    with pytest.raises(Http404):
        play_selectors.membership_for(table_id=playtest.pk, user=charlie)
