"""API tokens: issued by `POST /api/auth/token/`, kept only as a digest, lasting
settings.API_TOKEN_DAYS, refused with 401 and a sentence once expired or revoked."""

import hashlib
import importlib
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import ApiToken
from tests.play.conftest import fast_passwords, fresh_throttles  # noqa: F401
from tests.site.test_settings import run_check

pytestmark = pytest.mark.django_db


def log_in(username: str, password: str | None = None):
    return APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": password or f"{username}-password"},
        format="json",
    )


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def made_ago(token: ApiToken, age: timedelta) -> None:
    ApiToken.objects.filter(pk=token.pk).update(created_at=timezone.now() - age)


def test_holmes_api_token_days_must_be_a_day_at_least():
    refused = run_check(HOLMES_API_TOKEN_DAYS="0")
    assert refused.returncode != 0
    assert "HOLMES_API_TOKEN_DAYS=0 must be 1 or more" in refused.stderr
    assert run_check(HOLMES_API_TOKEN_DAYS="7").returncode == 0


def test_it_issues_a_token_whose_key_it_does_not_keep(alice, settings):
    response = log_in("alice")

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "expires_at"}
    key = body["token"]
    assert len(key) == 40
    token = ApiToken.objects.get(user=alice)
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:8]
    assert key not in (token.digest, token.prefix)
    expires_at = datetime.fromisoformat(body["expires_at"])
    assert expires_at == token.created_at + timedelta(days=settings.API_TOKEN_DAYS)
    assert with_token(key).get("/api/tables/").status_code == 200


def test_it_issues_a_new_token_at_each_log_in_and_the_first_still_works(alice):
    first, second = log_in("alice").json()["token"], log_in("alice").json()["token"]

    assert first != second
    assert ApiToken.objects.filter(user=alice).count() == 2
    assert with_token(first).get("/api/tables/").status_code == 200
    assert with_token(second).get("/api/tables/").status_code == 200


def test_it_answers_401_with_a_sentence_to_an_expired_token(alice, settings):
    token, key = services.api_token_create(user=alice)
    made_ago(token, timedelta(days=settings.API_TOKEN_DAYS, seconds=1))

    response = with_token(key).get("/api/tables/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    error = response.json()["error"]
    assert error["code"] == "token_expired"
    assert error["message"].startswith("This API token expired at ")
    assert "get a new one from POST /api/auth/token/" in error["message"]


def test_it_accepts_a_token_until_it_expires(alice, settings):
    token, key = services.api_token_create(user=alice)
    made_ago(token, timedelta(days=settings.API_TOKEN_DAYS) - timedelta(minutes=1))

    assert with_token(key).get("/api/tables/").status_code == 200


def test_it_takes_the_lifetime_from_the_setting(alice, settings):
    settings.API_TOKEN_DAYS = 2
    young, young_key = services.api_token_create(user=alice)
    old, old_key = services.api_token_create(user=alice)
    made_ago(young, timedelta(days=1))
    made_ago(old, timedelta(days=2, seconds=1))

    assert with_token(young_key).get("/api/tables/").status_code == 200
    assert with_token(old_key).get("/api/tables/").status_code == 401


def test_it_answers_401_to_a_token_it_never_issued(db):
    response = with_token("0" * 40).get("/api/tables/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "authentication_failed"
    assert "not valid" in response.json()["error"]["message"]


def test_a_request_without_credentials_still_answers_403(db):
    response = APIClient().get("/api/tables/")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_authenticated"


def test_it_notes_when_a_token_was_last_used_a_few_minutes_at_a_time(alice):
    token, key = services.api_token_create(user=alice)
    assert token.last_used_at is None

    with_token(key).get("/api/tables/")
    token.refresh_from_db()
    first_use = token.last_used_at
    with_token(key).get("/api/tables/")
    token.refresh_from_db()

    assert first_use is not None
    assert token.last_used_at == first_use  # within LAST_USED_PRECISION: not written again
    ApiToken.objects.filter(pk=token.pk).update(
        last_used_at=first_use - services.LAST_USED_PRECISION
    )
    with_token(key).get("/api/tables/")
    token.refresh_from_db()
    assert token.last_used_at >= first_use


def test_issuing_a_token_drops_the_expired_ones_and_those_used_longest_ago(alice, settings):
    expired, _ = services.api_token_create(user=alice)
    made_ago(expired, timedelta(days=settings.API_TOKEN_DAYS, seconds=1))
    kept = [services.api_token_create(user=alice) for _ in range(services.API_TOKENS_KEPT)]
    (oldest, _), (second_oldest, second_key) = kept[0], kept[1]
    made_ago(oldest, timedelta(days=2))
    made_ago(second_oldest, timedelta(days=3))
    with_token(second_key).get("/api/tables/")  # used just now: it stays

    newest, _ = services.api_token_create(user=alice)

    remaining = set(ApiToken.objects.filter(user=alice).values_list("pk", flat=True))
    assert len(remaining) == services.API_TOKENS_KEPT
    assert expired.pk not in remaining
    assert oldest.pk not in remaining
    assert {second_oldest.pk, newest.pk} <= remaining


def test_a_log_in_that_only_rehashes_the_password_keeps_the_tokens(alice, settings):
    key = log_in("alice").json()["token"]  # alice's password is hashed with MD5 here
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]

    assert log_in("alice").status_code == 200

    alice.refresh_from_db()
    assert alice.password.startswith("pbkdf2_sha256$")  # Django rehashed it
    assert with_token(key).get("/api/tables/").status_code == 200


def test_a_new_password_revokes_every_token_of_that_account_only(alice, bob):
    alice_key = log_in("alice").json()["token"]
    bob_key = log_in("bob").json()["token"]

    alice.set_password("a brand new password")
    alice.save()

    assert not ApiToken.objects.filter(user=alice).exists()
    assert with_token(alice_key).get("/api/tables/").status_code == 401
    assert with_token(bob_key).get("/api/tables/").status_code == 200


def test_it_moves_drf_tokens_over_with_their_keys_and_empties_drf_table(alice):
    """The migration that brought ApiToken: DRF's tokens keep working (until they expire),
    and their keys no longer sit in the database."""
    migration = importlib.import_module("accounts.migrations.0007_api_tokens")
    created = timezone.now() - timedelta(days=3)
    # The table as DRF made it; its times as each database gives them back (SQLite: text).
    if connection.vendor == "postgresql":
        created_type, created_value = "timestamp with time zone", created
    else:
        created_type = "datetime"
        created_value = created.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            f"created {created_type} NOT NULL, user_id bigint NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            ["a" * 40, created_value, alice.pk],
        )

    # The function reads only the editor's connection; SQLite's real editor refuses to
    # open inside the test's transaction.
    migration.move_drf_tokens(apps, SimpleNamespace(connection=connection))

    token = ApiToken.objects.get(user=alice)
    assert token.prefix == "a" * 8
    assert abs(token.created_at - created) < timedelta(seconds=1)
    assert with_token("a" * 40).get("/api/tables/").status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone() == (0,)
