"""Fuzzing the API from its OpenAPI schema (schemathesis): whatever a client sends, the API
answers no server error, and every answer matches the schema (its status is documented,
its body has the documented shape, errors included).

The schema is the one /api/schema/ serves; the requests go through the WSGI application
in this process, as a seated player (alice, with a token) of a started table, whose id
fills every {table_id}. Bounded: a fixed number of examples per operation and generation
mode, derandomized so that every run tries the same requests.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import api_token_create
from play import services

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 25
METHODS = {"get", "post", "put", "patch", "delete"}


def operations() -> list[tuple[str, GenerationMode]]:
    """Each operation with positive data, and with negative data when it takes any (a body
    or query parameters), read when the tests are collected (pytest-django has set Django
    up; building the schema needs no database)."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    found = []
    for path, item in sorted(paths.items()):
        for method, operation in sorted(item.items()):
            label = f"{method.upper()} {path}"
            found.append((label, GenerationMode.POSITIVE))
            takes_data = "requestBody" in operation or any(
                parameter["in"] == "query" for parameter in operation.get("parameters", [])
            )
            if takes_data:
                found.append((label, GenerationMode.NEGATIVE))
    return found


@pytest.fixture
def seated(tutorial, alice, bob):
    from django.core.cache import cache

    cache.clear()  # throttle counts of earlier tests
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    _, key = api_token_create(user=alice)
    return {"table": table.pk, "token": key}


@pytest.fixture
def api_schema(db):
    from holmes_site.wsgi import application

    # As Django's test client does: the start and end of a request must not close the
    # connection that holds this test's transaction.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.mark.parametrize(("label", "mode"), operations())
def test_it_answers_generated_requests_as_the_schema_says(api_schema, seated, label, mode):
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, label
    fixed = {"table_id": seated["table"]} if "{table_id}" in operation.path else None
    headers = {"Authorization": f"Token {seated['token']}"}

    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_as_documented(case):
        case.call_and_validate(headers=headers, checks=CHECKS)

    answers_as_documented()
