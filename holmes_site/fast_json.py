"""JSON written and read by orjson where the site handles the most of it: the API's
responses and the game's stored state, events and outcomes.

A move reads its table's state, writes it back with its events, and answers with the
player's view: about 15 KB of JSON through the standard library's `json` each time.
orjson does the same work in a tenth of the time (this machine: a 4.7 KB view rendered in
8 µs against 99 µs by DRF's renderer; a state written in 3 µs against 39 µs, read in 12 µs
against 31 µs).

Both classes keep their callers' contracts: the renderer writes exactly what DRF's
JSONRenderer writes for the API (compact, UTF-8, U+2028 and U+2029 escaped, datetimes and
everything else orjson does not know by DRF's own encoder), and falls back to it for what
orjson refuses or for indented output. The field stores the same JSON values as Django's
JSONField; only the spacing of the stored text differs, which neither database compares.
One limit, which none of these values meets: an integer beyond 64 bits is stored whole
(by json, which the encoder falls back to) but read back as a float.
"""

import json

import orjson
from django.db import models
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder as DrfEncoder

from .safe_input import MAX_DEPTH, json_refusal

# Keys that are not strings become strings, as the standard library's json makes them.
_FIELD_OPTIONS = orjson.OPT_NON_STR_KEYS
# Datetimes go to DRF's encoder, which writes them its own way (UTC as "Z").
_RENDER_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_LINE_SEPARATORS = ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


class OrjsonEncoder(json.JSONEncoder):
    """An encoder class for Django, which calls `json.dumps(value, cls=OrjsonEncoder)`."""

    def encode(self, o) -> str:
        try:
            return orjson.dumps(o, option=_FIELD_OPTIONS).decode()
        except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits, which json writes
            return super().encode(o)


class OrjsonDecoder(json.JSONDecoder):
    """A decoder class for Django, which calls `json.loads(text, cls=OrjsonDecoder)`.
    orjson's JSONDecodeError is the standard library's, which Django catches."""

    def decode(self, s, _w=None):
        return orjson.loads(s)


class FastJSONField(models.JSONField):
    """A JSONField whose values go through orjson on their way to and from the database."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("encoder", OrjsonEncoder)
        kwargs.setdefault("decoder", OrjsonDecoder)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value, expression, connection):
        # JSONField's, but orjson reads the text itself: json.loads(value, cls=...) builds
        # a decoder for every value, 4.2 µs a table's summary against 0.6 µs so (a move's
        # lock reads three such columns). Another decoder goes the usual way.
        if self.decoder is not OrjsonDecoder or not isinstance(value, str):
            return super().from_db_value(value, expression, connection)
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value

    def deconstruct(self):
        # As Django's own JSONField: the column and the stored values are the same, so a
        # field changed to this one needs no migration (SQLite would rebuild its table).
        name, path, args, kwargs = super().deconstruct()
        if path == "holmes_site.fast_json.FastJSONField":
            path = "django.db.models.JSONField"
        for key, default in (("encoder", OrjsonEncoder), ("decoder", OrjsonDecoder)):
            if kwargs.get(key) is default:
                del kwargs[key]
        return name, path, args, kwargs


class FastJSONRenderer(JSONRenderer):
    """DRF's JSONRenderer, writing with orjson when the output is DRF's default (compact,
    not ASCII-only), and with DRF's own code otherwise."""

    _drf_default = DrfEncoder().default

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if indent or self.ensure_ascii or not self.compact:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            content = orjson.dumps(data, default=self._drf_default, option=_RENDER_OPTIONS)
        except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits, which json writes
            return super().render(data, accepted_media_type, renderer_context)
        # As DRF: both are valid in JSON but end a line in JavaScript.
        for separator, escaped in _LINE_SEPARATORS:
            if separator in content:
                content = content.replace(separator, escaped)
        return content


# Deeper than any request of the API (a move is three levels). The standard library's
# parser recursed into 5000 levels until RecursionError (a 500); orjson stops at 1024, and
# the site's guard at far less, so that nothing after the parser recurses that deep either.
MAX_JSON_DEPTH = MAX_DEPTH


class FastJSONParser(JSONParser):
    """DRF's JSONParser reading with orjson, refusing (400) what the site's guard refuses
    (holmes_site/safe_input.py): JSON nested deeper than MAX_JSON_DEPTH, text holding NUL,
    numbers beyond 64 bits, too many values. orjson itself refuses NaN, Infinity and lone
    surrogates, which are not JSON."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})  # text encodings only, as DRF's
        raw = stream.read() if stream is not None else b""
        try:
            if encoding.lower().replace("-", "") not in ("utf8", "ascii"):
                raw = raw.decode(encoding)
            data = orjson.loads(raw)
        except (orjson.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        refusal = json_refusal(data, what="The request's JSON")
        if refusal:
            raise ParseError(refusal)
        return data
