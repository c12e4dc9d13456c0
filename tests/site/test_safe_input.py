"""The site's one guard for what clients send (holmes_site/safe_input.py): each check
answers a sentence for what it refuses and None for the rest, and never fails itself,
however deep or large the value."""

import math

import pytest

from holmes_site.safe_input import (
    MAX_DEPTH,
    MAX_VALUES,
    Refused,
    json_loads,
    json_refusal,
    number_refusal,
    text_refusal,
    whole_number,
)


def nested(depth: int):
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    "value",
    [None, True, 0, -(2**63) + 1, 2**63 - 1, 1.5, "é ✓ 名", [], {}, nested(MAX_DEPTH),
     {"a": [1, {"b": None}]}],
)  # fmt: skip
def test_it_lets_json_values_through(value):
    assert json_refusal(value) is None


@pytest.mark.parametrize(
    "value, sentence",
    [
        (nested(MAX_DEPTH + 1), "The move nests lists and objects deeper than 32 levels."),
        (nested(100_000), "The move nests lists and objects deeper than 32 levels."),
        ({"a": math.nan}, "The move holds a number that is not finite (NaN or Infinity)."),
        ([math.inf], "The move holds a number that is not finite (NaN or Infinity)."),
        ([2**63], "The move holds a whole number beyond 64 bits."),
        ([-(10**4000)], "The move holds a whole number beyond 64 bits."),
        ({"a": "x\x00"}, "The move holds the NUL character."),
        ({"x\x00": 1}, "The move holds the NUL character."),
        (["\ud800"], "The move holds half of a character (a lone surrogate)."),
        ({"\udc00": 1}, "The move holds half of a character (a lone surrogate)."),
        ({1: "a"}, "The move has a name that is not text."),
        ([(1, 2)], "The move holds a value that JSON cannot hold."),
        (list(range(MAX_VALUES + 1)), "The move holds too many values (at most 10,000)."),
        (["x" * 200_001], "The move holds too much text (at most 200,000 characters)."),
    ],
)
def test_it_refuses_with_a_sentence(value, sentence):
    assert json_refusal(value, what="The move") == sentence


@pytest.mark.parametrize(
    "text, sentence",
    [
        ("[" * 5000 + "]" * 5000, "The note sheet nests lists and objects deeper than 32 levels."),
        ("[" * 40 + "]" * 40, "The note sheet nests lists and objects deeper than 32 levels."),
        ("NaN", "The note sheet holds NaN, which is not a number JSON allows."),
        ("-Infinity", "The note sheet holds -Infinity, which is not a number JSON allows."),
        ("1e999", "The note sheet holds a number that is not finite (NaN or Infinity)."),
        ("9" * 5000, "The note sheet holds a whole number beyond 64 bits."),
        ('"\\ud800"', "The note sheet holds half of a character (a lone surrogate)."),
        ("{", "The note sheet could not be read: it is not JSON."),
    ],
)
def test_it_reads_json_text_or_refuses_it_with_a_sentence(text, sentence):
    with pytest.raises(Refused) as refused:
        json_loads(text, what="The note sheet")
    assert str(refused.value) == sentence


def test_it_reads_json_text_it_lets_through():
    assert json_loads('{"a": [1, -2.5, "\\u00e9", null]}') == {"a": [1, -2.5, "é", None]}
    assert json_loads(str(2**63 - 1)) == 2**63 - 1


def test_a_text_field_is_bounded_and_holds_no_nul_nor_half_characters():
    assert text_refusal("Holmes", max_length=6) is None
    assert text_refusal("Holmes!", what="The name", max_length=6) == (
        "The name holds at most 6 characters."
    )
    assert text_refusal("a\x00", max_length=None) == "This field holds the NUL character."
    assert text_refusal("a\udfff", max_length=None) == (
        "This field holds half of a character (a lone surrogate)."
    )


@pytest.mark.parametrize(
    "text, number",
    [("0", 0), ("42", 42), ("-7", -7), ("9" * 18, int("9" * 18)), ("+5", None),
     ("--5", None), ("²", None), ("①", None), ("１", None), (" 5", None), ("5\n", None),
     ("", None), ("-", None), ("9" * 19, None), ("1" * 4301, None)],
)  # fmt: skip
def test_a_whole_number_is_ascii_digits_after_a_minus_sign_if_any(text, number):
    assert whole_number(text) == number


def test_a_field_written_as_a_number_must_be_one_it_reads():
    for text in ("5", "-5", "", "-", "eleven", "C", "5 cards"):
        assert number_refusal(text) is None
    for text in ("²", "①", "１", "--5", "+5", "½", "9" * 19, "1" * 4301):
        assert number_refusal(text, what="The rank") == (
            "The rank is not a whole number this site reads: write it with the digits 0 to 9 "
            "(at most 18), after a minus sign if it is negative."
        )
