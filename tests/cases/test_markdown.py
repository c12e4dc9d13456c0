"""Author Markdown is rendered, then sanitised: nothing executable reaches a page."""

from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from cases.markdown import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, render_markdown

PAYLOADS = yaml.safe_load((Path(__file__).parent.parent / "data" / "xss_payloads.yaml").read_text())
SAFE_SCHEMES = {"", "http", "https", "mailto"}


class TagCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))


def rendered_tags(html: str):
    collector = TagCollector()
    collector.feed(html)
    return collector.tags


def test_it_has_a_corpus_of_at_least_twenty_payloads():
    assert len(PAYLOADS) >= 20


@pytest.mark.parametrize("payload", PAYLOADS)
def test_it_renders_no_executable_html(payload):
    html = str(render_markdown(payload))
    for tag, attrs in rendered_tags(html):
        assert tag in ALLOWED_TAGS, f"{tag} survived in {html!r}"
        for name, value in attrs:
            assert name in ALLOWED_ATTRIBUTES.get(tag, set()) | {"class", "rel"}, html
            assert not name.startswith("on"), html
            if name == "href":
                href = unescape(value or "").strip()
                scheme = urlsplit(href).scheme.lower()
                assert scheme in SAFE_SCHEMES, f"unsafe link {href!r} in {html!r}"
    # Escaped text such as "&lt;script&gt;" is harmless; a real tag is not.
    assert "<script" not in html.lower()


def test_it_keeps_the_words_of_harmless_markdown():
    html = render_markdown("The **cabman** saw _a tall woman_ near [Hall](https://example.com).")
    assert "<strong>cabman</strong>" in html
    assert "<em>a tall woman</em>" in html
    assert 'href="https://example.com"' in html


def test_it_turns_double_brackets_into_a_card_reference():
    html = render_markdown("Ask the pawnbroker [[7]] about the ring.")
    assert 'class="card-ref"' in html
    assert 'href="#location-7"' in html
    assert 'aria-label="location 7"' in html
    assert ">7</a>" in html


def test_it_shows_code_as_text():
    html = render_markdown("`<b>bold</b>`")
    assert "&lt;b&gt;" in html
    assert "<b>" not in html


@pytest.mark.parametrize(
    "text",
    [
        '<a class="card-ref" data-location="3" href="https://evil.example">3</a>',
        '<a href="https://evil.example" data-location="3" class="card-ref">3</a>',
        "[3](https://evil.example){: .card-ref data-location=3 }",
        '<a class="card-ref" href="#location-3" data-location="3">3</a>',
        '<p class="card-ref" data-location="3">3</p>',
    ],
)
def test_author_markup_cannot_pass_for_a_card_reference(text):
    html = render_markdown(f"See [[7]] and {text}")

    assert html.count("card-ref") == 1 and html.count("data-location") == 1
    assert 'class="card-ref"' in html and 'data-location="7"' in html
    assert 'href="#location-7"' in html
