"""Author Markdown to safe HTML.

Authors write Markdown (and may slip raw HTML into it); players read the result, so every
rendering goes through Python-Markdown and then nh3, an allow-list sanitiser: no script,
no event handlers, no style, no images (which could track readers), and links only to
http, https and mailto. `[[12]]` becomes a reference to location card 12.
"""

import re
import xml.etree.ElementTree as etree

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown.inlinepatterns import InlineProcessor

CARD_REFERENCE = r"\[\[\s*(\d{1,4})\s*\]\]"
CARD_REFERENCE_RE = re.compile(CARD_REFERENCE)

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "dl", "dt", "em", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "s", "small", "strong", "sub",
    "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title", "aria-label", "data-location"},
    "abbr": {"title"},
    "ol": {"start"},
    "td": {"align"},
    "th": {"align"},
}
# Only card references may carry a class: authors cannot restyle the page.
ALLOWED_CLASSES = {"a": {"card-ref"}}
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}
# Kept with their content removed, rather than letting their text leak into the page.
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "template", "svg", "math"}


class CardReferenceProcessor(InlineProcessor):
    """`[[12]]` → a link to location card 12 on the page the text is shown on."""

    def handleMatch(self, m, data):  # noqa: N802 (Python-Markdown's API)
        number = m.group(1).lstrip("0") or "0"
        link = etree.Element("a")
        link.set("class", "card-ref")
        link.set("href", f"#location-{number}")
        link.set("data-location", number)
        link.set("aria-label", f"location {number}")
        link.text = number
        return link, m.start(0), m.end(0)


class CardReferenceExtension(markdown.Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's API)
        # Above Markdown's own link pattern (160), which would read "[[12]]" as a link.
        md.inlinePatterns.register(CardReferenceProcessor(CARD_REFERENCE, md), "card_ref", 175)


def _markdown_to_html(text: str) -> str:
    # A new converter per call: Markdown instances keep state between conversions.
    converter = markdown.Markdown(
        extensions=["extra", "sane_lists", CardReferenceExtension()], output_format="html"
    )
    return converter.convert(text)


def sanitise_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags=DROPPED_WITH_CONTENT,
        attributes=ALLOWED_ATTRIBUTES,
        allowed_classes=ALLOWED_CLASSES,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )


def render_markdown(text: str) -> SafeString:
    """Render author Markdown as HTML that is safe to put in any page."""
    return mark_safe(sanitise_html(_markdown_to_html(text or "")))  # noqa: S308 (sanitised)


def card_references(text: str) -> list[int]:
    """The location numbers that `[[n]]` references in a text, in order of appearance."""
    return [int(number) for number in CARD_REFERENCE_RE.findall(text or "")]
