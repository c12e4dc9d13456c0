"""The API's doors: every JSON body passes the site's guard (holmes_site/safe_input.py)
in the parser, and marking notifications read takes a bounded list of ids (100,000 ids
were more parameters than PostgreSQL takes, and answered as a database down, 503)."""

import json

import pytest
from rest_framework.test import APIClient

from accounts.api import MAX_IDS_READ
from accounts.models import Notification
from play.models import Notebook, Table

pytestmark = pytest.mark.django_db


def api_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def post_json(api: APIClient, url: str, body: str):
    return api.generic("POST", url, body, content_type="application/json")


def unread_of(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


@pytest.fixture
def unread(bob) -> list[int]:
    notifications = Notification.objects.bulk_create(
        Notification(user=bob, kind="your_turn", message=f"Your turn ({n}).", dedupe_key=f"t:{n}")
        for n in range(3)
    )
    return [notification.pk for notification in notifications]


def test_it_refuses_100000_ids_with_a_sentence_and_marks_none(bob, unread):
    ids = [*unread, *range(10**6, 10**6 + 100_000)]

    response = post_json(api_for(bob), "/api/notifications/read/", json.dumps({"ids": ids}))

    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        "The request's JSON holds too many values (at most 10,000)."
    )
    assert unread_of(bob) == 3


def test_it_refuses_more_ids_than_it_marks_at_once_with_a_sentence(bob, unread):
    ids = [*unread, *range(10**6, 10**6 + MAX_IDS_READ - 2)]

    response = api_for(bob).post("/api/notifications/read/", {"ids": ids}, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid",
        "message": "ids: Mark at most 1,000 notifications read in one request: send the "
        "others in another.",
        "details": {"fields": {"ids": [
            "Mark at most 1,000 notifications read in one request: send the others in another."
        ]}},
    }  # fmt: skip
    assert unread_of(bob) == 3


def test_it_marks_as_many_ids_as_it_takes(bob, unread):
    ids = [*unread, *range(10**6, 10**6 + MAX_IDS_READ - 3)]

    response = api_for(bob).post("/api/notifications/read/", {"ids": ids}, format="json")

    assert response.status_code == 204
    assert unread_of(bob) == 0


@pytest.mark.parametrize(
    "action, sentence",
    [
        ('{"type": "visit", "x": "a\\u0000b"}', "The request's JSON holds the NUL character."),
        (
            '{"type": "visit", "x": ' + "[" * 40 + "]" * 40 + "}",
            "The request's JSON nests lists and objects deeper than 32 levels.",
        ),
    ],
)
def test_a_move_body_passes_the_sites_guard(started, alice, action, sentence):
    table = Table.objects.get(pk=started.pk)
    body = f'{{"action": {action}, "expected_version": {table.version}}}'

    response = post_json(api_for(alice), f"/api/tables/{table.pk}/actions/", body)

    assert response.status_code == 400
    assert response.json()["error"]["message"] == sentence
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_notebook_body_passes_the_sites_guard(started, alice):
    body = '{"text": "hm", "marks": {"C": {"\\u0000": "no"}}}'

    response = api_for(alice).generic(
        "PUT", f"/api/tables/{started.pk}/notebook/", body, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["message"] == "The request's JSON holds the NUL character."
    kept = Notebook.objects.get(seat__table_id=started.pk, seat__user=alice)
    assert (kept.text, kept.marks) == ("", {})
