"""Account pages: sign up, log in and out, password reset, profile, notifications."""

import re
from urllib.parse import urlencode

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Notification, NotificationPreferences, User


def test_it_signs_up_and_logs_the_new_player_in(client, db):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "dora",
            "display_name": "Dora",
            "email": "dora@example.com",
            "password1": "a fog over the Thames",
            "password2": "a fog over the Thames",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    assert user.display_name == "Dora"
    assert client.get(reverse("play:tables")).status_code == 200


def sign_up_with_next(client, target: str):
    return client.post(
        f"{reverse('accounts:signup')}?{urlencode({'next': target})}",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "a fog over the Thames",
            "password2": "a fog over the Thames",
        },
    )


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example",
        "//evil.example",
        "/\\evil.example",
        "https:evil.example",
        "\t//evil.example",
        "javascript:alert(1)",
    ],
)
def test_sign_up_goes_on_only_to_this_sites_pages(client, db, target):
    response = sign_up_with_next(client, target)

    assert response.status_code == 302
    assert response["Location"] == reverse("play:home")
    assert User.objects.filter(username="dora").exists()


def test_sign_up_goes_on_to_the_page_it_came_from(client, db):
    response = sign_up_with_next(client, "/tables/?x=1")

    assert response["Location"] == "/tables/?x=1"


def test_it_shows_the_sign_up_errors_beside_the_fields(client, db):
    response = client.post(reverse("accounts:signup"), {"username": "dora"})
    assert response.status_code == 200
    assert "This field is required" in response.text
    assert not User.objects.filter(username="dora").exists()


def test_it_logs_in_on_its_own_page_and_lands_on_my_tables(client, alice):
    page = client.get(reverse("accounts:login"))
    assert page.status_code == 200
    assert "Forgotten your password?" in page.text
    response = client.post(
        reverse("accounts:login"), {"username": "alice", "password": "alice-password"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("play:tables")


def test_it_logs_out_with_a_post(client, alice):
    client.force_login(alice)
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_it_resets_a_password_by_e_mail(client, alice):
    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password-reset/\S+)", mail.outbox[0].body)[1]
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.text
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "gaslight and hansoms", "new_password2": "gaslight and hansoms"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("gaslight and hansoms")


def test_it_sends_anonymous_visitors_to_the_login_page(client, db):
    for name in ("accounts:profile", "accounts:notifications", "play:tables"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))


def test_it_saves_the_display_name_and_e_mail_preferences(client, alice):
    client.force_login(alice)
    page = client.get(reverse("accounts:profile"))
    assert "It is your turn" in page.text  # the checkbox labels are the notification kinds
    response = client.post(
        reverse("accounts:profile"),
        {
            "profile-display_name": "Alice of Baker Street",
            "profile-email": "alice@example.com",
            "prefs-email_kinds": ["game_over", "your_turn"],
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice of Baker Street"
    preferences = NotificationPreferences.objects.get(user=alice)
    assert sorted(preferences.email_kinds) == ["game_over", "your_turn"]


def test_it_shows_the_unread_count_and_marks_notifications_read(client, alice, started):
    for number in range(2):
        Notification.objects.create(
            user=alice,
            kind="your_turn",
            message=f"It is your turn at table {number}.",
            url=f"/api/tables/{started.pk}/",
            dedupe_key=f"k{number}",
        )
    client.force_login(alice)
    home = client.get(reverse("play:home"))
    assert re.search(r'data-testid="unread-count">2<', home.text)
    page = client.get(reverse("accounts:notifications"))
    assert "It is your turn at table 1." in page.text
    assert reverse("play:table", args=[started.pk]) in page.text  # the page, not the API
    assert 'data-testid="unread-count"' not in page.text
    assert not Notification.objects.filter(user=alice, read_at__isnull=True).exists()


# --- Display names (issue 22) -------------------------------------------------------------

HIDDEN_CHARACTERS = ["\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\n", "\x07", "\u2028"]


@pytest.mark.parametrize("hidden", HIDDEN_CHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_sign_up_refuses_a_display_name_with_control_or_invisible_characters(client, db, hidden):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "dora",
            "display_name": f"Do{hidden}ra",
            "email": "dora@example.com",
            "password1": "a fog over the Thames",
            "password2": "a fog over the Thames",
        },
    )

    assert response.status_code == 200
    assert "A display name is letters, digits, spaces and punctuation" in response.text
    assert not User.objects.filter(username="dora").exists()


def save_display_name(client, name: str):
    return client.post(
        reverse("accounts:profile"),
        {"profile-display_name": name, "profile-email": "alice@example.com"},
    )


@pytest.mark.parametrize("hidden", HIDDEN_CHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_the_profile_refuses_a_display_name_with_control_or_invisible_characters(
    client, alice, hidden
):
    client.force_login(alice)

    response = save_display_name(client, f"Ali{hidden}ce")

    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.parametrize("name", ["Bob", " bob ", "BOB", "Ｂｏｂ", "charlie"])
def test_a_player_cannot_take_the_name_of_someone_at_one_of_their_tables(
    client, alice, lobby, name
):
    client.force_login(alice)

    response = save_display_name(client, name)

    assert response.status_code == 200
    assert "Someone at one of your tables is already called" in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_player_may_take_a_name_nobody_at_their_tables_has(client, alice, lobby, make_user):
    client.force_login(alice)
    make_user("irene", display_name="Irene")

    assert save_display_name(client, "Irene").status_code == 302  # irene sits elsewhere
    assert save_display_name(client, "Alice").status_code == 302  # their own name
