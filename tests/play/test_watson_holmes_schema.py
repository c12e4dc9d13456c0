"""The OpenAPI schema tells a client what a Watson & Holmes seat gets: its legal actions as
the game's action components, the reading, waiting_for, the result, the restatement and
the verdicts, and that card and solution texts are Markdown with [[n]] card references."""

import json

import pytest
from django.test import Client
from drf_spectacular.validation import validate_schema

from play.api_schema import annotated


@pytest.fixture
def schema(db):
    response = Client().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    document = json.loads(response.content)
    validate_schema(document)
    return document


@pytest.fixture
def view(schema):
    return schema["components"]["schemas"]["WatsonHolmesView"]


def test_it_types_the_legal_actions_as_the_games_own_actions(schema, view):
    items = view["properties"]["legal_actions"]["items"]["oneOf"]
    refs = {item["$ref"].rsplit("/", 1)[-1] for item in items}
    assert {"WatsonHolmesVisitAction", "WatsonHolmesRestateAction"} <= refs
    assert all(ref.startswith("WatsonHolmes") for ref in refs)
    restate = schema["components"]["schemas"]["WatsonHolmesRestateAction"]
    assert "more plainly" in restate["description"]
    assert restate["properties"]["type"]["enum"] == ["restate"]


def test_it_describes_the_restatement_and_the_verdicts(view):
    you = view["properties"]["you"]["properties"]
    restatement = you["restatement"]
    assert restatement["nullable"] is True
    question = restatement["properties"]["questions"]["items"]
    assert set(question["required"]) == {"id", "number", "ask", "answer", "prompt"}
    attempt = you["attempt"]
    # Maps by question id, whatever the case's questions are called.
    assert attempt["properties"]["verdicts"]["additionalProperties"]["enum"] == [
        "correct",
        "wrong",
        "unsure",
    ]
    assert attempt["properties"]["reasons"]["additionalProperties"] == {"type": "string"}
    assert "culprit" not in json.dumps(attempt)
    answer = view["properties"]["attempts"]["items"]["properties"]["answers"]["items"]
    assert answer["properties"]["first_answer"] == {"type": "string", "nullable": True}
    assert "until the game is over" in view["properties"]["attempts"]["description"]


def test_it_describes_the_reading_waiting_for_and_the_result(view):
    properties = view["properties"]
    text = properties["you"]["properties"]["reading"]["items"]["properties"]["text"]
    assert "Markdown" in text["description"] and "[[n]]" in text["description"]
    assert (
        "[[n]]" in properties["watson"]["properties"]["read"]["properties"]["text"]["description"]
    )
    assert "timer" in properties["waiting_for"]["description"]
    result = properties["result"]
    assert result["nullable"] is True
    assert result["properties"]["kind"]["enum"] == ["solved", "everyone_lost"]


def test_it_says_the_solution_is_markdown_with_card_references(schema):
    solution = schema["components"]["schemas"]["TableView"]["properties"]["solution"]
    assert "[[n]]" in solution["properties"]["text"]["description"]
    assert solution["properties"]["answers"]["items"]["required"] == ["id", "ask", "answer"]


def test_it_refuses_a_note_for_a_place_the_view_does_not_have():
    with pytest.raises(KeyError):
        annotated({"type": "object", "properties": {}}, {"you.nothing": {"description": "x"}})
