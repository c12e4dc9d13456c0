"""What a client may send that is outside every limit gets a 4xx in the API's one error
shape, never a 500: JSON nested thousands deep, a table id beyond 64 bits (which SQLite
cannot even compare), a turn timer beyond PostgreSQL's integer, a body over the size
limit."""

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from play.models import Table

HUGE_ID = 2**64  # no database integer holds it


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def assert_error_shape(response, status: int, code: str | None = None):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"}
    if code:
        assert error["code"] == code


def deep_json(depth: int) -> str:
    return '{"action": ' + '{"a": ' * depth + "1" + "}" * depth + ', "expected_version": 1}'


def test_json_nested_thousands_deep_is_a_400_on_the_actions_endpoint(started, alice):
    response = api(alice).post(
        f"/api/tables/{started.pk}/actions/", deep_json(5000), content_type="application/json"
    )

    assert_error_shape(response, 400)
    assert Table.objects.get(pk=started.pk).version == started.version


def test_a_list_nested_thousands_deep_is_a_400_too(started, alice):
    body = '{"action": {"type": "note", "text": ' + "[" * 5000 + "]" * 5000 + "}}"

    response = api(alice).post(
        f"/api/tables/{started.pk}/actions/", body, content_type="application/json"
    )

    assert_error_shape(response, 400)


@pytest.mark.parametrize(
    "suffix", ["", "actions/", "events/", "notebook/", "start/", "leave/", "colour/"]
)
def test_a_table_id_beyond_64_bits_is_a_404_in_the_api(started, alice, suffix):
    client = api(alice)
    url = f"/api/tables/{HUGE_ID}/{suffix}"

    response = client.get(url) if suffix in ("", "events/", "notebook/") else client.post(url, {})

    assert_error_shape(response, 404, "not_found")


@pytest.mark.parametrize("suffix", ["", "live/", "act/", "notebook/", "start/", "colour/"])
def test_a_table_id_beyond_64_bits_is_a_404_page(started, alice, suffix):
    client = Client()
    client.force_login(alice)
    url = f"/tables/{HUGE_ID}/{suffix}"

    response = client.get(url) if suffix in ("", "live/") else client.post(url, {})

    assert response.status_code == 404


def test_a_turn_timer_beyond_a_database_integer_is_refused(tutorial, alice):
    response = api(alice).post(
        "/api/tables/",
        {"case": tutorial.case.slug, "turn_timer_seconds": 2**31},
        format="json",
    )

    assert_error_shape(response, 400, "invalid")
    assert response.json()["error"]["message"].startswith("turn_timer_seconds:")
    assert not Table.objects.filter(turn_timer_seconds__isnull=False).exists()


def test_a_body_over_the_size_limit_gets_the_api_error_shape(started, alice, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"text": "x" * 2000})

    response = api(alice).put(
        f"/api/tables/{started.pk}/notebook/", body, content_type="application/json"
    )

    assert_error_shape(response, 413, "too_large")
    assert "1000 bytes" in response.json()["error"]["message"]


def test_a_form_body_over_the_size_limit_gets_the_api_error_shape(started, alice, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = Client()
    client.force_login(alice)

    response = client.post(
        f"/api/tables/{started.pk}/actions/",
        {"expected_version": "1", "action": "x" * 2000},
    )

    assert response.status_code in (403, 413)  # CSRF may answer first; never HTML
    assert response["Content-Type"].startswith("application/json")


def test_notification_ids_beyond_64_bits_are_refused(alice):
    response = api(alice).post("/api/notifications/read/", {"ids": [HUGE_ID]}, format="json")

    assert_error_shape(response, 400, "invalid")
