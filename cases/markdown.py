"""Author Markdown to safe HTML.

Authors write Markdown (and may slip raw HTML into it); players read the result, so every
rendering goes through Python-Markdown and then nh3, an allow-list sanitiser: no script,
no event handlers, no style, no images (which could track readers), and links only to
http, https and mailto. `[[12]]` becomes a reference to location card 12.

Only `[[12]]` makes a card reference (`class="card-ref"`, `data-location`): the page
treats those links as cards. Author HTML or attribute lists that set them are stripped.
Each rendering marks the references it makes with a random token, which the sanitiser
requires and removes: an author cannot know it beforehand.
"""

import re
import secrets
import xml.etree.ElementTree as etree

import markdown
import nh3
from django.utils.html import linebreaks
from django.utils.safestring import SafeString, mark_safe
from markdown.inlinepatterns import InlineProcessor

from . import markdown_linear

# Longer texts are shown as plain paragraphs: Python-Markdown's cost grows faster than the
# text in places (nesting: each level rereads the rest), so this bounds a rendering's time.
# The editor's preview refuses more (authoring.editor_admin.MAX_PREVIEW_CHARACTERS).
MAX_MARKDOWN_CHARACTERS = 100_000
# Lists and quotes nested deeper than this are shown as plain paragraphs too. No case needs
# so many levels, and Python-Markdown recurses once per level: whether it runs out of stack
# depends on the interpreter and the thread, so the bound is ours, the same everywhere.
MAX_MARKDOWN_NESTING = 32
# A line's leading block markers, each one level: "> ", "- ", "* ", "+ ", "1. ", "1) ".
_NESTING_MARKER = re.compile(r"[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))[ \t]?")

CARD_REFERENCE = r"\[\[\s*(\d{1,4})\s*\]\]"
CARD_REFERENCE_RE = re.compile(CARD_REFERENCE)

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "dl", "dt", "em", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "s", "small", "strong", "sub",
    "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    # class and data-location only as the card references' (see `_keep_attribute`).
    "a": {"href", "title", "aria-label", "class", "data-location"},
    "abbr": {"title"},
    "ol": {"start"},
    "td": {"align"},
    "th": {"align"},
}
CARD_REFERENCE_CLASS = "card-ref"
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}
# Kept with their content removed, rather than letting their text leak into the page.
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "template", "svg", "math"}


class CardReferenceProcessor(InlineProcessor):
    """`[[12]]` → a link to location card 12 on the page the text is shown on; its class
    and data-location carry this rendering's token until the sanitiser checks them."""

    def __init__(self, pattern, md, token: str):
        super().__init__(pattern, md)
        self.token = token

    def handleMatch(self, m, data):
        number = m.group(1).lstrip("0") or "0"
        link = etree.Element("a")
        link.set("class", f"{self.token}:{CARD_REFERENCE_CLASS}")
        link.set("href", f"#location-{number}")
        link.set("data-location", f"{self.token}:{number}")
        link.set("aria-label", f"location {number}")
        link.text = number
        return link, m.start(0), m.end(0)


class CardReferenceExtension(markdown.Extension):
    def __init__(self, token: str, **kwargs):
        super().__init__(**kwargs)
        self.token = token

    def extendMarkdown(self, md):
        # Above Markdown's own link pattern (160), which would read "[[12]]" as a link.
        processor = CardReferenceProcessor(CARD_REFERENCE, md, self.token)
        md.inlinePatterns.register(processor, "card_ref", 175)


def nests_too_deep(text: str) -> bool:
    """True when a line opens more than MAX_MARKDOWN_NESTING lists or quotes, by markers in
    a row ("> - 1. ...") or by indentation (four columns a level)."""
    for line in text.splitlines():
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip(" "))
        levels, at = indent // 4, 0
        while levels <= MAX_MARKDOWN_NESTING and (marker := _NESTING_MARKER.match(line, at)):
            if marker.end() == at:
                break
            levels, at = levels + 1, marker.end()
        if levels > MAX_MARKDOWN_NESTING:
            return True
    return False


def _markdown_to_html(text: str, token: str) -> str:
    # A new converter per call: Markdown instances keep state between conversions. "extra"
    # as Python-Markdown has it, but linear where its own is quadratic (see markdown_linear).
    converter = markdown.Markdown(
        extensions=[*markdown_linear.extra(), "sane_lists", CardReferenceExtension(token)],
        output_format="html",
    )
    return converter.convert(text)


def sanitise_html(html: str, token: str | None = None) -> str:
    """Allow-listed HTML; class and data-location only where they carry `token` (the card
    references of this rendering), without it. No token: neither is kept anywhere."""

    def keep_attribute(element: str, attribute: str, value: str) -> str | None:
        if attribute not in ("class", "data-location"):
            return value
        given, _, meant = value.partition(":")
        if token is None or given != token:
            return None
        if attribute == "class":
            return meant if meant == CARD_REFERENCE_CLASS else None
        return meant if meant.isdigit() else None

    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags=DROPPED_WITH_CONTENT,
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=keep_attribute,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )


def render_markdown(text: str) -> SafeString:
    """Render author Markdown as HTML that is safe to put in any page: as plain paragraphs
    when it is longer than MAX_MARKDOWN_CHARACTERS or nests deeper than MAX_MARKDOWN_NESTING."""
    text = text or ""
    token = secrets.token_hex(16)
    html = None
    if len(text) <= MAX_MARKDOWN_CHARACTERS and not nests_too_deep(text):
        try:
            html = _markdown_to_html(text, token)
        except RecursionError:  # a nesting the line check does not see; kept as a backstop
            html = None
    if html is None:
        html = linebreaks(text, autoescape=True)
    return mark_safe(sanitise_html(html, token))  # sanitised: safe to mark


def focusable_code_blocks(html: SafeString) -> SafeString:
    """Rendered Markdown whose code blocks take the keyboard's focus: one wider than the
    page scrolls sideways, and a keyboard scrolls only what it can focus. For the site's
    own pages (its guides); authors' text keeps no tabindex."""
    return mark_safe(html.replace("<pre>", '<pre tabindex="0">'))  # safe in, safe out
