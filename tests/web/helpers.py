"""Playing a table through its web pages, as a browser's forms would."""

import json

from django.urls import reverse

from play import selectors


def legal(table, user) -> list[dict]:
    membership = selectors.membership_for(table_id=table.pk, user=user)
    return selectors.table_view(membership=membership)["game"]["legal_actions"]


def act(client, table, action: dict, **fields):
    """POST one move through the page's action form, as htmx does."""
    table.refresh_from_db()
    data = {"action": json.dumps(action), "expected_version": table.version, **fields}
    return client.post(reverse("play:table-act", args=[table.pk]), data, HTTP_HX_REQUEST="true")


def page(client, table) -> str:
    response = client.get(reverse("play:table", args=[table.pk]))
    assert response.status_code == 200
    return response.text
