"""Joining by a code read aloud: short, without look-alike characters, typed in any case
with or without its dash; a wrong code is said kindly, and misses are throttled."""

import re

from django.urls import reverse

from play.models import INVITE_ALPHABET, Table, invite_code_shown


def test_a_new_tables_code_is_six_characters_without_look_alikes(lobby):
    assert re.fullmatch(f"[{INVITE_ALPHABET}]{{6}}", lobby.invite_code)
    assert not set("0O1IL") & set(INVITE_ALPHABET)
    assert lobby.invite_code_shown == f"{lobby.invite_code[:3]}-{lobby.invite_code[3:]}"


def test_the_lobby_shows_the_code_in_two_groups(client, lobby, alice):
    client.force_login(alice)
    page = client.get(reverse("play:table", args=[lobby.pk]))
    assert f'id="invite-code">{lobby.invite_code_shown}<' in page.text


def test_the_headers_box_takes_a_code_in_any_case_with_or_without_its_dash(
    client, lobby, make_user
):
    dora = make_user("dora", display_name="Dora")
    client.force_login(dora)
    shown = lobby.invite_code_shown
    for typed in (shown.lower(), f" {shown[:3]} {shown[4:]} ", lobby.invite_code.lower()):
        page = client.get(reverse("play:join-by-code"), {"code": typed}, follow=True)
        assert page.redirect_chain[-1][0] == reverse("play:join", args=[lobby.invite_code])
        assert "Join the table for The Clerkenwell Repeater" in page.text
    page = client.get(reverse("play:home"))
    assert 'action="/join/"' in page.text and "Join with a code" in page.text


def test_a_wrong_code_says_so_kindly_and_offers_another_try(client, bob, db):
    client.force_login(bob)
    page = client.get(reverse("play:join-by-code"), {"code": "zzz-zzz"}, follow=True)

    assert page.status_code == 404
    assert "The code <strong>ZZZZZZ</strong> opens no table." in page.text
    assert "like HK7-4QM" in page.text and 'name="code"' in page.text


def test_trying_codes_one_after_another_is_stopped(client, bob, settings, db):
    client.force_login(bob)
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["join"].split("/")[0])
    answers = [client.get(reverse("play:join", args=[f"ZZZZ{n:02d}"])) for n in range(limit + 1)]

    assert {answer.status_code for answer in answers[:limit]} == {404}
    assert answers[-1].status_code == 429


def test_a_table_opened_before_short_codes_keeps_its_link(client, lobby, make_user):
    Table.objects.filter(pk=lobby.pk).update(invite_code="rqi5YaIkoZ")
    client.force_login(make_user("dora", display_name="Dora"))

    page = client.get(reverse("play:join", args=["rqi5YaIkoZ"]))

    assert "Join the table for The Clerkenwell Repeater" in page.text
    assert invite_code_shown("rqi5YaIkoZ") == "rqi5YaIkoZ"


def test_a_started_table_says_it_has_started_not_join(client, started, make_user):
    client.force_login(make_user("dora", display_name="Dora"))

    page = client.get(reverse("play:join", args=[started.invite_code]))

    assert "The Clerkenwell Repeater has already started" in page.text
    assert "Join the table" not in page.text and 'id="join-button"' not in page.text
