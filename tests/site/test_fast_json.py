"""orjson writes what DRF's renderer and Django's JSONField would (holmes_site/fast_json.py)."""

import datetime
import decimal
import io
import json
import uuid

import pytest
from django.db import models
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer

from holmes_site.fast_json import (
    MAX_JSON_DEPTH,
    FastJSONField,
    FastJSONParser,
    FastJSONRenderer,
    OrjsonDecoder,
    OrjsonEncoder,
)
from play.models import Table

AWKWARD = {
    "text": "Mrs Hudson\u2028said\u2029“tea” — café",
    "when": datetime.datetime(2026, 11, 30, 9, 15, 42, 123456, tzinfo=datetime.UTC),
    "naive": datetime.datetime(2026, 11, 30, 9, 15),
    "day": datetime.date(2026, 11, 30),
    "at": datetime.time(9, 15, 42, 500000),
    "price": decimal.Decimal("1.50"),
    "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "lazy": gettext_lazy("Holmes"),
    "numbers": (1, 2.5, -3, True, None),
    "nested": {"deep": [{"a": []}, {}]},
    7: "a key that is not a string",
}


def test_it_renders_exactly_what_drf_renders():
    assert FastJSONRenderer().render(AWKWARD) == JSONRenderer().render(AWKWARD)


def test_it_escapes_the_javascript_line_separators_as_drf_does():
    rendered = FastJSONRenderer().render({"text": "a\u2028b\u2029c"})
    assert rendered == b'{"text":"a\\u2028b\\u2029c"}'
    assert json.loads(rendered) == {"text": "a\u2028b\u2029c"}


def test_it_leaves_indented_output_and_what_orjson_refuses_to_drf():
    indented = FastJSONRenderer().render(AWKWARD, "application/json; indent=2")
    assert indented == JSONRenderer().render(AWKWARD, "application/json; indent=2")
    assert b"\n  " in indented
    huge = {"n": 2**70}  # beyond 64 bits: orjson refuses it, json writes it
    assert FastJSONRenderer().render(huge) == b'{"n":1180591620717411303424}'
    assert FastJSONRenderer().render(None) == b""


def test_it_encodes_and_decodes_as_the_standard_library_does():
    value = {"a": [1, 2.5, None, True], "é": "“x”", 3: {"b": {}}}
    text = json.dumps(value, cls=OrjsonEncoder)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert json.loads(text, cls=OrjsonDecoder) == {
        "a": [1, 2.5, None, True],
        "é": "“x”",
        "3": {"b": {}},
    }
    with pytest.raises(json.JSONDecodeError):
        json.loads("{not json", cls=OrjsonDecoder)


def test_the_field_reads_stored_text_as_djangos_json_field_does():
    fast = Table._meta.get_field("summary")
    plain = models.JSONField()
    for text in ('{"a": [1, 2.5, null], "é": "x"}', "[]", '"s"', "3", "{not json", None):
        assert fast.from_db_value(text, None, None) == plain.from_db_value(text, None, None)


def test_it_deconstructs_as_djangos_json_field_so_no_migration_follows():
    name, path, args, kwargs = FastJSONField(default=dict, blank=True).deconstruct()
    assert path == "django.db.models.JSONField"
    assert kwargs == {"default": dict, "blank": True}
    name, path, args, kwargs = Table._meta.get_field("state").deconstruct()
    assert path == "play.models.EngineStateField"
    assert "encoder" not in kwargs and "decoder" not in kwargs


def test_it_stores_an_integer_beyond_64_bits_as_json_does():
    value = {"n": 123456789012345678901234567890, "m": [1, 2.5]}
    assert json.dumps(value, cls=OrjsonEncoder) == json.dumps(value)  # orjson refuses it


# --- The parser ------------------------------------------------------------------------


def parse(body: bytes, encoding: str = "utf-8"):
    return FastJSONParser().parse(io.BytesIO(body), "application/json", {"encoding": encoding})


def test_the_parser_reads_what_drfs_parser_reads():
    body = '{"a": [1, 2.5, "é", null, true], "b": {"c": "\\u2028"}}'.encode()
    drf = JSONParser().parse(io.BytesIO(body), "application/json", {})
    assert parse(body) == drf
    assert parse('{"a": "é"}'.encode("latin-1"), "latin-1") == {"a": "é"}


def test_the_parser_refuses_nesting_beyond_its_depth_and_what_is_not_json():
    assert parse(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH) is not None
    for body in (b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1), b"{", b"NaN"):
        with pytest.raises(ParseError):
            parse(body)
    with pytest.raises(ParseError):
        parse(b"{}", "bz2_codec")  # a codec that would unpack the body: refused
