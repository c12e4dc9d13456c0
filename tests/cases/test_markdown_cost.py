"""Rendering author Markdown takes time in proportion to the text, whatever its shape.

Python-Markdown reads the rest of a paragraph for every `[` that never closes; before
cases/markdown_linear.py, `"[" * 20000` took 144 s of CPU, and 100,000 characters (what
the editor's preview accepts) would have taken about an hour. These tests give such shapes
at 100,000 characters: they finish (no time is asserted), and the output is still
sanitised. Longer texts are shown as plain paragraphs (MAX_MARKDOWN_CHARACTERS).
"""

import random
import re

import markdown
import pytest

from cases import markdown_linear
from cases.markdown import (
    ALLOWED_TAGS,
    MAX_MARKDOWN_CHARACTERS,
    MAX_MARKDOWN_NESTING,
    render_markdown,
)

SIZE = 100_000

SHAPES = {
    "brackets": "[" * SIZE,
    "empty links left open": "[](" * (SIZE // 3),
    "empty links with a quote": '[]("' * (SIZE // 4),
    "links with words": "[x" * (SIZE // 2),
    "images": "![" * (SIZE // 2),
    "card references left open": "[[1]" * (SIZE // 4),
    "nested brackets": "[" * (SIZE // 2) + "]" * (SIZE // 2),
    "address never closed": "[](" + "(" * (SIZE - 3),
    "asterisks": "*" * SIZE,
    "underscores": "_" * SIZE,
    "emphasis": "*a" * (SIZE // 2),
    "angle brackets": "<" * SIZE,
    "tags never closed": "<a " * (SIZE // 3),
    "attributes never closed": '<a x="' * (SIZE // 6),
    "quote marks": ">" * SIZE,
    "quotes nested line by line": "\n".join(">" * depth + " x" for depth in range(1, 440)),
    "backticks": "`" * SIZE,
    "code spans": "`a" * (SIZE // 2),
    "one footnote cited again and again": "[^1]" * (SIZE // 4 - 3) + "\n\n[^1]: a",
    "list markers nested on one line": "1. " * (SIZE // 3),
}


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
def test_it_renders_a_pathological_text_of_100000_characters(text):
    assert len(text) <= MAX_MARKDOWN_CHARACTERS

    html = str(render_markdown(text))

    assert html
    assert set(re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", html)) <= ALLOWED_TAGS


def test_it_still_renders_markdown_around_many_open_brackets():
    html = str(render_markdown("[" * 20_000 + " [Hall](https://example.com) and **Watson**"))

    assert '<a href="https://example.com" rel="noopener noreferrer nofollow">Hall</a>' in html
    assert "<strong>Watson</strong>" in html


def test_it_shows_a_text_over_the_limit_as_plain_paragraphs():
    text = "**Not bold** <b>nor this</b>\n\n" + "x" * MAX_MARKDOWN_CHARACTERS

    html = str(render_markdown(text))

    assert html.startswith("<p>**Not bold** &lt;b&gt;nor this&lt;/b&gt;</p>")
    assert "<strong>" not in html


@pytest.mark.parametrize(
    "nesting",
    [
        "1. " * 1_000,
        "> " * 1_000,
        ">" * 1_000,
        "- " * 40,
        "\n".join("    " * n + "- x" for n in range(40)),
    ],
    ids=["ordered lists", "quotes", "quotes without spaces", "33+ bullets", "indented lists"],
)
def test_it_shows_lists_and_quotes_nested_too_deep_as_plain_paragraphs(nesting):
    html = str(render_markdown(nesting + "<script>alert(1)</script>"))

    assert html.startswith("<p>")
    assert "<ol>" not in html and "<ul>" not in html and "<blockquote>" not in html
    assert "<script" not in html


def test_it_still_renders_lists_and_quotes_nested_to_the_limit():
    html = str(render_markdown("> " * MAX_MARKDOWN_NESTING + "deep"))

    assert html.count("<blockquote>") == MAX_MARKDOWN_NESTING


def _python_markdown(text: str) -> str:
    return markdown.Markdown(extensions=["extra", "sane_lists"]).convert(text)


def _ours(text: str) -> str:
    return markdown.Markdown(extensions=[*markdown_linear.extra(), "sane_lists"]).convert(text)


SOUPS = {
    "brackets, parens and quotes": list("[[]]((())) \"'a!") + ["[a]", "](", '"t"', "(<a>)"],
    "addresses with titles": list("[]()\"' a!"),
    "references": list("[] a\n") + ["[x]: http://x\n", "[x]", "[X][x]", "\n\n", "![x]"],
    "footnotes": list("[] a\n:") + ["[^1]", "[^a]", "\n\n[^1]: note\n", "\n\n[^a]: [^1]\n"],
}


@pytest.mark.parametrize("pieces", SOUPS.values(), ids=SOUPS.keys())
def test_it_renders_links_and_footnotes_exactly_as_python_markdown_does(pieces):
    chooser = random.Random(221)
    for _ in range(400):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 60)))
        assert _ours(text) == _python_markdown(text), text


@pytest.mark.parametrize(
    "text",
    [
        '[Hall](https://example.com/a_(b) "The (hall)")',
        "[one](<https://example.com/x y> 'title') and ![alt](/img.png)",
        "[Hall][h] and [h]\n\n[h]: https://example.com 'Title'",
        '[x](http://a "t) [y](http://b)',
        "[a](b 'c) d\" e) f)",
        "x[^n] y[^n] z[^n]\n\n[^n]: A note.",
    ],
)
def test_it_renders_ordinary_links_as_python_markdown_does(text):
    assert _ours(text) == _python_markdown(text)


def test_it_reads_well_formed_raw_html_as_before():
    html = str(render_markdown('An <abbr title="x < y">ineq</abbr> <a href=/p>p</a>.'))

    assert '<abbr title="x &lt; y">ineq</abbr>' in html
    assert '<a href="/p" rel="noopener noreferrer nofollow">p</a>' in html
