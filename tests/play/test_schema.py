"""The OpenAPI schema renders without a warning, is valid OpenAPI, and documents every
action of every engine with an example; the Swagger page renders."""

import json

import pytest
from django.test import Client
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.validation import validate_schema

from games import GAMES


@pytest.fixture
def schema(db):
    GENERATOR_STATS.reset()
    response = Client().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def test_it_renders_the_schema_without_warnings_or_errors(capsys, schema):
    # drf-spectacular reports problems (such as two request bodies sharing one component
    # name, which makes one of them document the other) as warnings on stderr.
    assert not GENERATOR_STATS, capsys.readouterr().err
    validate_schema(schema)


def test_it_documents_every_action_with_an_example(schema):
    operation = schema["paths"]["/api/tables/{table_id}/actions/"]["post"]
    examples = operation["requestBody"]["content"]["application/json"]["examples"]
    documented = {example["value"]["action"]["type"] for example in examples.values()}
    for name, game in GAMES.items():
        assert set(getattr(game.rules, "ACTIONS", {})) <= documented, name
    assert {"move", "keep"} <= documented  # Sherlock & Mycroft's, seen in play
    assert {"visit", "answer", "judged", "timeout"} <= documented
    for example in examples.values():
        assert set(example["value"]) == {"action", "expected_version", "idempotency_key"}


def test_it_gives_each_request_body_its_own_component(schema):
    def body_of(path: str, method: str) -> str:
        content = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
        return content["schema"]["$ref"]

    bodies = [
        body_of("/api/auth/token/", "post"),
        body_of("/api/tables/", "post"),
        body_of("/api/tables/join/", "post"),
        body_of("/api/tables/{table_id}/colour/", "post"),
        body_of("/api/tables/{table_id}/actions/", "post"),
        body_of("/api/tables/{table_id}/notebook/", "put"),
        body_of("/api/notifications/read/", "post"),
    ]
    assert len(set(bodies)) == len(bodies), bodies
    action_body = schema["components"]["schemas"][bodies[4].rsplit("/", 1)[-1]]
    assert set(action_body["properties"]) == {"action", "expected_version", "idempotency_key"}


def test_it_renders_the_api_docs_page(db):
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
    # Swagger UI comes from our static files and its start-up script from our own URL.
    assert b"drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in response.content
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200
    assert b"/api/schema/" in script.content
