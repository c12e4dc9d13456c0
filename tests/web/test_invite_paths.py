"""An invite survives every way into an account: the header's links, sign-up, log-in,
password reset and the e-mail confirmation link all bring the person back to the table.
And the e-mails those paths send: absolute links, one account per address."""

import re
from urllib.parse import quote, urlencode

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from accounts.services import email_verification_token
from play import services

PASSWORD = "a fog over the Thames"


@pytest.fixture
def invite_path(lobby):
    return reverse("play:join", args=[lobby.invite_code])


def link_in(body: str) -> str:
    """The one link of an e-mail: it must be absolute, on the site's address."""
    return re.search(r"http://localhost:8000(/\S+)", body)[1]


def test_an_invite_opened_logged_out_leads_to_a_log_in_page_that_says_who_invites(
    client, invite_path
):
    page = client.get(invite_path, follow=True)

    assert page.redirect_chain[-1][0].startswith(reverse("accounts:login"))
    assert "Alice invites you to play The Clerkenwell Repeater" in page.text
    # Sign-up comes first, and every way on keeps the invite: the header's links too.
    signup_link = f"{reverse('accounts:signup')}?next={quote(invite_path)}"
    assert page.text.index(signup_link) < page.text.index('name="password"')
    assert page.text.count(f"?next={quote(invite_path)}") >= 4


def test_the_headers_sign_up_link_keeps_the_page_a_visitor_is_on(client, tutorial):
    page = client.get(reverse("play:case", args=[tutorial.case.slug]))

    case_path = quote(reverse("play:case", args=[tutorial.case.slug]))
    assert f'href="{reverse("accounts:signup")}?next={case_path}"' in page.text


def test_sign_up_from_an_invite_comes_back_to_the_table_and_confirms_the_address(
    client, invite_path, lobby, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{reverse('accounts:signup')}?{urlencode({'next': invite_path})}",
            {"username": "dora", "email": "dora@example.com", "password1": PASSWORD,
             "password2": PASSWORD, "next": invite_path},
        )  # fmt: skip

    assert response["Location"] == invite_path
    dora = User.objects.get(username="dora")
    assert dora.email_verified_at is None
    [confirmation] = mail.outbox
    link = link_in(confirmation.body)
    assert link.startswith("/accounts/verify/") and quote(invite_path, safe="") in link

    confirmed = client.get(link)

    assert confirmed["Location"] == invite_path
    dora.refresh_from_db()
    assert dora.email_verified_at is not None
    services.table_join(invite_code=lobby.invite_code, user=dora)  # the seat is hers


def test_the_confirmation_link_opened_logged_out_leads_to_log_in_and_on_to_the_table(
    client, invite_path, make_user
):
    dora = make_user("dora", email_verified_at=None)
    token = email_verification_token(dora)

    response = client.get(
        f"{reverse('accounts:verify', args=[token])}?{urlencode({'next': invite_path})}"
    )

    assert response["Location"] == f"{reverse('accounts:login')}?{urlencode({'next': invite_path})}"
    dora.refresh_from_db()
    assert dora.email_verified_at is not None


def test_a_confirmation_link_for_an_address_since_changed_confirms_nothing(client, make_user):
    dora = make_user("dora", email_verified_at=None)
    token = email_verification_token(dora)
    User.objects.filter(pk=dora.pk).update(email="dora@elsewhere.example")

    page = client.get(reverse("accounts:verify", args=[token]), follow=True)

    assert "This confirmation link is too old" in page.text
    dora.refresh_from_db()
    assert dora.email_verified_at is None


def test_a_password_reset_from_an_invite_logs_in_and_comes_back_to_the_table(
    client, invite_path, lobby, make_user
):
    dora = make_user("dora")
    form = client.get(f"{reverse('accounts:password_reset')}?{urlencode({'next': invite_path})}")
    assert f'name="next" value="{invite_path}"' in form.text

    client.post(
        f"{reverse('accounts:password_reset')}?{urlencode({'next': invite_path})}",
        {"email": "dora@example.com", "next": invite_path},
    )
    link = link_in(mail.outbox[0].body)
    form = client.get(link, follow=True)
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "gaslight and hansoms", "new_password2": "gaslight and hansoms"},
    )

    assert response["Location"] == invite_path
    assert client.get(invite_path).context["user"] == dora  # logged in, at the invite


def test_log_in_never_goes_on_to_another_site(client, alice):
    response = client.post(
        f"{reverse('accounts:login')}?next=//evil.example/",
        {"username": "alice", "password": "alice-password", "next": "//evil.example/"},
    )
    assert response["Location"] == reverse("play:tables")


def test_an_address_belongs_to_one_account_whatever_its_case(client, alice):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "dora", "email": "ALICE@example.com", "password1": PASSWORD,
         "password2": PASSWORD},
    )  # fmt: skip

    assert "Another account already uses this e-mail address" in response.text
    assert not User.objects.filter(username="dora").exists()


def test_the_profile_refuses_someone_elses_address_and_reconfirms_a_new_one(
    client, alice, bob, django_capture_on_commit_callbacks
):
    client.force_login(bob)
    data = {"profile-display_name": "Bob", "prefs-email_kinds": ["your_turn"]}

    taken = client.post(reverse("accounts:profile"), {**data, "profile-email": "Alice@Example.com"})
    assert "Another account already uses this e-mail address" in taken.text

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:profile"), {**data, "profile-email": "bob@new.example"})
    bob.refresh_from_db()
    assert bob.email == "bob@new.example" and bob.email_verified_at is None
    [confirmation] = mail.outbox
    assert confirmation.to == ["bob@new.example"] and "/accounts/verify/" in confirmation.body


def test_a_too_common_password_is_said_beside_the_password_field(client, db):
    page = client.post(
        reverse("accounts:signup"),
        {"username": "dora", "email": "dora@example.com", "password1": "password123",
         "password2": "password123"},
    )  # fmt: skip

    errors = page.context["form"].errors
    assert "This password is too common." in errors["password1"]
    assert "password2" not in errors
