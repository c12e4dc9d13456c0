"""The lobby's QR code (play/templates/play/_invite_qr.html): the invite link as an inline
SVG that the content security policy allows, with the table's code beside it. The browser
test (tests/e2e/test_table_at_a_real_table.py) scans it back from a screenshot."""

import re

import segno
from django.urls import reverse

from play.templatetags.invite_qr import invite_qr_svg

from .helpers import page


def test_it_shows_the_invite_as_a_qr_code_and_the_code_to_read_out(client, alice, lobby):
    client.force_login(alice)
    html = page(client, lobby)
    figure = re.search(r'<figure class="invite-qr".*?</figure>', html, re.S)[0]
    assert '<svg viewBox="0 0 ' in figure and 'class="invite-qr-code"' in figure
    assert f'id="invite-code">{lobby.invite_code_shown}<' in figure
    # Inline styles and scripts would be refused by the page's content security policy.
    assert "style=" not in figure and "<script" not in figure


def test_the_qr_code_is_of_the_absolute_invite_url_built_from_the_request(client, alice, lobby):
    client.force_login(alice)
    html = page(client, lobby)
    absolute = "http://testserver" + reverse("play:join", args=[lobby.invite_code])
    assert str(invite_qr_svg(absolute)) in html
    assert str(invite_qr_svg(reverse("play:join", args=[lobby.invite_code]))) not in html
    size = segno.make(absolute, error="m").symbol_size()[0]  # with its four-module margin
    assert f'viewBox="0 0 {size} {size}"' in html


def test_a_private_play_test_table_has_no_qr_code(client, alice, tutorial):
    from play import services

    table = services.table_create_private(host=alice, case_version=tutorial)
    client.force_login(alice)
    html = page(client, table)
    assert "invite-qr" not in html
