"""API tokens on the pages: the profile lists a player's tokens and revokes them one by
one; a new password (by the e-mailed reset, or in the admin) revokes them all."""

import re

from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create
from tests.play.conftest import fast_passwords  # noqa: F401


def api_status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get("/api/tables/").status_code


def csrf_token_of(page) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]


def test_the_profile_lists_a_players_tokens_by_their_first_characters_only(client, alice, bob):
    first, first_key = api_token_create(user=alice)
    second, second_key = api_token_create(user=alice)
    _, bobs_key = api_token_create(user=bob)
    api_status(second_key)  # used once
    client.force_login(alice)

    page = client.get(reverse("accounts:profile"))

    assert page.status_code == 200
    assert '<h2 id="api-tokens-heading">API tokens</h2>' in page.text
    for header in ("Token", "Created", "Last used", "Expires"):
        assert f'<th scope="col">{header}</th>' in page.text
    assert f"<code>{first.prefix}…</code>" in page.text
    assert f"<code>{second.prefix}…</code>" in page.text
    assert page.text.index(second.prefix) < page.text.index(first.prefix)  # newest first
    for key in (first_key, second_key, bobs_key):
        assert key not in page.text
    assert bobs_key[:8] not in page.text
    assert "Never" in page.text  # the first was never used
    for token in (first, second):
        action = reverse("accounts:api-token-revoke", args=[token.pk])
        assert f'action="{action}"' in page.text
    assert 'Revoke<span class="visually-hidden"> the token' in page.text


def test_the_profile_says_when_a_player_has_no_tokens(client, alice):
    client.force_login(alice)

    assert "You have no API tokens." in client.get(reverse("accounts:profile")).text


def test_it_revokes_a_token_from_the_profile_with_the_pages_csrf_token(alice):
    token, key = api_token_create(user=alice)
    _, other_key = api_token_create(user=alice)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    revoke = reverse("accounts:api-token-revoke", args=[token.pk])
    assert client.post(revoke).status_code == 403  # no CSRF token: refused
    assert api_status(key) == 200

    page = client.get(reverse("accounts:profile"))
    response = client.post(revoke, {"csrfmiddlewaretoken": csrf_token_of(page)}, follow=True)

    assert response.redirect_chain[-1][0] == f"{reverse('accounts:profile')}#api-tokens"
    assert f"The API token {token.prefix}… is revoked" in response.text
    assert f"<code>{token.prefix}…</code>" not in response.text
    assert api_status(key) == 401
    assert api_status(other_key) == 200


def test_a_player_cannot_revoke_another_players_token(client, alice, bob):
    token, key = api_token_create(user=bob)
    client.force_login(alice)

    response = client.post(reverse("accounts:api-token-revoke", args=[token.pk]))

    assert response.status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert api_status(key) == 200


def test_revoking_takes_a_post_from_someone_logged_in(client, alice):
    token, _ = api_token_create(user=alice)
    revoke = reverse("accounts:api-token-revoke", args=[token.pk])

    assert client.post(revoke)["Location"].startswith(reverse("accounts:login"))
    client.force_login(alice)
    assert client.get(revoke).status_code == 405
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_a_password_reset_revokes_every_token_of_the_account(client, alice, bob):
    _, alice_key = api_token_create(user=alice)
    _, bobs_key = api_token_create(user=bob)
    client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    link = re.search(r"https?://[^/]+(/accounts/password-reset/\S+)", mail.outbox[0].body)[1]
    form = client.get(link, follow=True)

    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "gaslight and hansoms", "new_password2": "gaslight and hansoms"},
    )

    assert response.status_code == 302
    assert api_status(alice_key) == 401
    assert not ApiToken.objects.filter(user=alice).exists()
    assert api_status(bobs_key) == 200
    # A token asked for with the new password works.
    _, new_key = api_token_create(user=alice)
    assert api_status(new_key) == 200


def test_a_password_change_in_the_admin_revokes_every_token_of_the_account(client, make_user):
    mina = make_user("mina", is_staff=True)
    _, key = api_token_create(user=mina)
    client.force_login(mina)

    response = client.post(
        reverse("admin:password_change"),
        {
            "old_password": "mina-password",
            "new_password1": "fog on the river Thames",
            "new_password2": "fog on the river Thames",
        },
    )

    assert response.status_code == 302
    assert api_status(key) == 401


def test_a_password_set_by_an_admin_revokes_that_players_tokens(client, make_user, bob):
    _, key = api_token_create(user=bob)
    admin_user = make_user("mina", is_staff=True, is_superuser=True)
    _, admins_key = api_token_create(user=admin_user)
    client.force_login(admin_user)

    response = client.post(
        reverse("admin:auth_user_password_change", args=[bob.pk]),
        {"password1": "a leaked token no more", "password2": "a leaked token no more"},
    )

    assert response.status_code == 302
    assert api_status(key) == 401
    assert api_status(admins_key) == 200
