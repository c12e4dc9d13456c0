"""One guard for what a client sends, called at each door where it comes in: a page's move
form (play/forms.py), the notebook's marks (the page's form and `notebook_write`), the
API's JSON bodies (holmes_site/fast_json.py) and a socket's frames (play/consumers.py).

Past the door, the site's code takes a client's values for granted: it nests them in
state and events, digests them (`action_fingerprint`), writes them with orjson and stores
them in PostgreSQL. Each of those fails on some value JSON itself allows, and a failure
there was a 500 or a socket closed without a word:

- nesting: the standard library's json recurses, and a list nested a thousand deep
  raised RecursionError wherever it was read or written;
- numbers that are not finite (NaN, Infinity, 1e999 read as Infinity), which PostgreSQL's
  JSON refuses, and whole numbers beyond 64 bits, which orjson refuses to write;
- text holding the NUL character (PostgreSQL refuses it in text and in JSON) or half of a
  character (a lone surrogate: it cannot be written as UTF-8).

Each check answers None when the value may go on, or a sentence that says why it may not:
the caller answers it with its own status (400 for the API, an error frame on a socket).
"""

import json
import math
import re
from typing import Any

MAX_DEPTH = 32  # lists and objects within one another; a move is three levels
MAX_VALUES = 10_000  # every value of a document, keys included
MAX_CHARACTERS = 200_000  # all its text, keys included
MAX_INTEGER = 2**63 - 1  # what a 64-bit integer holds: orjson and the databases
MAX_INTEGER_DIGITS = 18  # a form's whole number: always within 64 bits
_INTEGER_DIGITS = len(str(MAX_INTEGER))  # JSON's: more digits than this never fit
# Python's int() would also take other scripts' digits (and refuse ², which isdigit()
# passes): a form's number is ASCII digits, after a minus sign if it is negative.
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class Refused(ValueError):
    """Input the guard refuses: its text is the sentence to answer with."""


def json_refusal(value: Any, *, what: str = "The input", max_depth: int = MAX_DEPTH) -> str | None:
    """Why `value`, decoded JSON, may not go further (a sentence starting with `what`), or
    None. It walks the value with a list of its own, never by recursion, so however deep
    the value, the check itself cannot fail. It costs about what the API parser's depth
    check alone cost before it (measured on a socket's move, in one process)."""
    waiting: list[tuple[Any, int]] = [([value], 0)]  # the value, in a list of no depth
    values = characters = 0
    while waiting:
        container, depth = waiting.pop()
        if depth > max_depth:
            return f"{what} nests lists and objects deeper than {max_depth} levels."
        values += len(container)
        if values > MAX_VALUES:
            return f"{what} holds too many values (at most {MAX_VALUES:,})."
        if type(container) is dict:
            for key in container:
                if type(key) is not str:
                    return f"{what} has a name that is not text."
                characters += len(key)
                problem = _text_problem(key)
                if problem:
                    return f"{what} {problem}."
            members = container.values()
        else:
            members = container
        for member in members:
            kind = type(member)
            if kind is str:
                characters += len(member)
                problem = _text_problem(member)
                if problem:
                    return f"{what} {problem}."
            elif kind is dict or kind is list:
                waiting.append((member, depth + 1))
            elif kind is int:
                if not -MAX_INTEGER - 1 <= member <= MAX_INTEGER:
                    return f"{what} holds a whole number beyond 64 bits."
            elif kind is float:
                if not math.isfinite(member):
                    return f"{what} holds a number that is not finite (NaN or Infinity)."
            elif member is not None and kind is not bool:
                return f"{what} holds a value that JSON cannot hold."
        if characters > MAX_CHARACTERS:
            return f"{what} holds too much text (at most {MAX_CHARACTERS:,} characters)."
    return None


def json_loads(text: str, *, what: str = "The input") -> Any:
    """`text` read as JSON and checked by `json_refusal`. Refused, with a sentence, when
    it is not JSON or the guard refuses it. A number of more digits than 64 bits hold is
    refused before it is converted (Python refuses to convert over 4,300 digits), and so
    are NaN and Infinity, which the standard library reads though JSON has neither."""
    try:
        value = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except Refused as refused:
        raise Refused(f"{what} {refused}.") from None
    except RecursionError:
        raise Refused(f"{what} nests lists and objects deeper than {MAX_DEPTH} levels.") from None
    except ValueError:
        raise Refused(f"{what} could not be read: it is not JSON.") from None
    refusal = json_refusal(value, what=what)
    if refusal:
        raise Refused(refusal)
    return value


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > _INTEGER_DIGITS:
        raise Refused("holds a whole number beyond 64 bits")
    return int(digits)


def _constant(name: str):
    raise Refused(f"holds {name}, which is not a number JSON allows")


def text_refusal(text: str, *, what: str = "This field", max_length: int | None) -> str | None:
    """Why a form's text field may not go further (a sentence starting with `what`): over
    `max_length` characters (None: the caller bounds it), or holding the NUL character or
    half of a character. None when it may."""
    if max_length is not None and len(text) > max_length:
        return f"{what} holds at most {max_length:,} characters."
    problem = _text_problem(text)
    return f"{what} {problem}." if problem else None


def whole_number(text: str, *, max_digits: int = MAX_INTEGER_DIGITS) -> int | None:
    """A form's field as a whole number: ASCII digits (at most `max_digits`), after a
    minus sign if it is negative, and nothing else. None for any other text (the caller
    keeps it as text, or refuses it: see `number_refusal`)."""
    if len(text) > max_digits + 1 or not _WHOLE_NUMBER.fullmatch(text):
        return None
    if len(text.removeprefix("-")) > max_digits:
        return None
    return int(text)


def number_refusal(
    text: str, *, what: str = "This field", max_digits: int = MAX_INTEGER_DIGITS
) -> str | None:
    """Why a form's field that is written as a number (digits of any script, after any
    signs) is not one `whole_number` reads: other digits than 0 to 9 (², ①, a full-width
    １), a plus sign or two signs, or too many digits. None for a whole number, and for
    any other text, which is text."""
    if whole_number(text, max_digits=max_digits) is not None:
        return None
    unsigned = text.lstrip("+-")
    if not unsigned.isnumeric():  # isnumeric: every digit, and ½, Ⅻ, 五 besides
        return None
    return (
        f"{what} is not a whole number this site reads: write it with the digits 0 to 9 "
        f"(at most {max_digits}), after a minus sign if it is negative."
    )


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "holds the NUL character"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "holds half of a character (a lone surrogate)"
    return None
