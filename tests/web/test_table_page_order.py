"""On a phone the table page reads top to bottom: the lobby's invite and Start, or the move
to make, come before the case's brief and questions (the wide layout sets them side by
side, whatever their order)."""

from django.urls import reverse


def page_of(client, user, table) -> str:
    client.force_login(user)
    response = client.get(reverse("play:table", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_lobby_invite_comes_before_the_brief(client, lobby, alice):
    page = page_of(client, alice, lobby)
    assert 'id="invite-heading"' in page and 'id="case-brief"' in page
    assert page.index('id="invite-heading"') < page.index('id="case-brief"')
    assert page.index('id="live"') < page.index('id="case-brief"')


def test_the_move_comes_before_the_brief(client, started, alice):
    page = page_of(client, alice, started)
    assert page.index('id="live"') < page.index('id="case-brief"') < page.index("</main>")
    assert "After the live region" not in page  # the template's comment stays a comment
