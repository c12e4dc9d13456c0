"""The move's input: the plain form every client sends is taken without the serializer
(play.api.action_input), and must come out exactly as the serializer would take it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from play.api import TableActionApi, action_input

json_scalars = (
    st.none() | st.booleans() | st.integers(-5, 10**20) | st.floats() | st.text(max_size=90)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
keys = st.sampled_from(["action", "expected_version", "idempotency_key", "other"])
near_misses = st.dictionaries(keys, json_values, max_size=4)
well_formed = st.fixed_dictionaries(
    {
        "action": st.dictionaries(st.text(max_size=8), json_values, max_size=4),
        "expected_version": st.integers(0, 10**12),
    },
    optional={"idempotency_key": st.text(min_size=1, max_size=80)},
)


def by_the_serializer(data):
    serializer = TableActionApi.Input(data=data)
    if serializer.is_valid():
        return dict(serializer.validated_data)
    return ValidationError(serializer.errors).detail


def by_action_input(data):
    try:
        return dict(action_input(data))
    except ValidationError as error:
        return error.detail


@settings(max_examples=300, deadline=None)
@given(data=well_formed | near_misses | json_values)
def test_it_answers_every_input_exactly_as_the_serializer(data):
    assert by_action_input(data) == by_the_serializer(data)


@pytest.mark.parametrize(
    "data",
    [
        {"action": {"type": "visit"}, "expected_version": 3},
        {"action": {"type": "visit"}, "expected_version": 3, "idempotency_key": "k-1"},
        {"action": {"type": "visit"}, "expected_version": "3"},  # the serializer converts
        {"action": {"type": "visit"}, "expected_version": True},
        {"action": {"type": "visit"}, "expected_version": -1},
        {"action": {"type": "visit"}, "expected_version": 3, "idempotency_key": ""},
        {"action": {"type": "visit"}, "expected_version": 3, "idempotency_key": " k "},
        {"action": {"type": "visit"}, "expected_version": 3, "idempotency_key": None},
        {"action": {"type": "visit"}, "expected_version": 3, "idempotency_key": "k" * 81},
        {"action": "visit", "expected_version": 3},
        {"expected_version": 3},
        [],
    ],
)
def test_it_answers_the_edges_exactly_as_the_serializer(data):
    assert by_action_input(data) == by_the_serializer(data)


def test_it_takes_the_plain_form_without_the_serializer(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the serializer was used")

    monkeypatch.setattr(TableActionApi.Input, "is_valid", refuse)
    move = {
        "action": {"type": "visit", "location": 4},
        "expected_version": 9,
        "idempotency_key": "a",
    }
    assert action_input(move) == move
    assert action_input(move)["action"] is not move["action"]  # a copy, as DictField makes
