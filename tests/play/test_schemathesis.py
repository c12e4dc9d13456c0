"""Fuzzing the API from its OpenAPI schema (schemathesis): whatever a client sends, the API
answers no server error, and every answer matches the schema (its status is documented,
its body has the documented shape, errors included).

The requests go through the WSGI application in this process, as a seated player (alice,
with a token) of a started table; half the generated table ids are replaced by that
table's, so the table endpoints are exercised beyond 404. Bounded: a fixed number of
examples per operation, derandomized so that every run tries the same ones.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from play import services

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def seated(tutorial, alice, bob):
    from django.core.cache import cache

    cache.clear()  # throttle counts of earlier tests
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    return {"table": table.pk, "token": Token.objects.create(user=alice).key}


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


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_it_answers_every_generated_request_as_the_schema_says(case, seated):
    table_id = (case.path_parameters or {}).get("table_id")
    if isinstance(table_id, int) and table_id % 2 == 0:
        case.path_parameters["table_id"] = seated["table"]
    case.call_and_validate(headers={"Authorization": f"Token {seated['token']}"}, checks=CHECKS)
