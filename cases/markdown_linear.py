"""Python-Markdown's link patterns and footnote references, in linear time.

Python-Markdown finds the end of a link's text (`[...]`) and of its address (`(...)`) by
counting brackets from each `[` to the end of the paragraph. When the brackets never close,
as in `"[" * 8000`, every `[` reads the rest of the paragraph: quadratic in its length, and
worse for `[](` repeated. The link and reference classes here give the same answers
without the rereading:

- where a bracket closes is found by one left-to-right pass that remembers every bracket it
  passes (and, for those left open at the end of the text, that they never close);
- what is remembered is keyed by the distance from the end of the text, because a pattern
  that makes a link swaps only text at or before it for a placeholder: the tail it has not
  reached yet is the same, so what was learnt about it still holds (and what was learnt
  about the text swapped is forgotten, once);
- a link's address is read out by Python-Markdown's own code only where that reading stops
  at the address's end; the link is then made and that text consumed, so no text is read
  twice. Where it would read to the end and step back, the answer is worked out here.

Python-Markdown reads raw HTML with a copy of the standard library's HTML parser, whose
patterns for a start tag let its name, its attribute names and its unquoted values run on
over `<`: in `"<a " * 25000` each `<a` reads to the end of the text (104 s). Below they stop
at `<`, as HTML's own grammar says they do; a well-formed tag reads as before.

The footnotes extension numbers the n-th reference to one footnote by trying the n - 1 names
before it: `Footnotes` starts from the last name it gave.

`tests/cases/test_markdown_cost.py` checks the output against Python-Markdown's own on
random bracket soups, and that the pathological shapes finish.
"""

import heapq
import itertools
import re

import markdown
from markdown import htmlparser
from markdown import inlinepatterns as patterns
from markdown.extensions import footnotes

_UNKNOWN = object()
_QUOTE = re.compile("['\"]")
# A `)` right after a quote, spaces between allowed: where a quoted link title may end.
_TITLE_END = re.compile("(['\"]) *\\)")
_PARENS = re.compile(r"[()]")
_SPACES = re.compile(" *")
_SINGLE_QUOTE = {quote: re.compile(quote) for quote in "'\""}
# `getLink` is left to Python-Markdown (which then makes the link and consumes the text).
_UPSTREAM = object()


# Python-Markdown's start-tag patterns (markdown.htmlparser, which sets the first itself) with
# `<` added to what a tag name, an attribute name and an unquoted value may not hold.
htmlparser.htmlparser.locatestarttagend_tolerant = re.compile(
    r"""
  <[a-zA-Z][^`<\t\n\r\f />\x00]*          # the name
  (?:[\s/]*
    (?:(?<=['"\s/])[^`<\s/>][^<\s/=>]*      # an attribute's name
      (?:\s*=+\s*(?:'[^']*'|"[^"]*"        # its value: quoted (and holding anything)
                 |(?!['"])[^`<>\s]*)       # or bare
         (?:\s*,)*
       )?(?:\s|/(?!>))*
     )*
   )?
  \s*
""",
    re.VERBOSE,
)
htmlparser.htmlparser.tagfind_tolerant = re.compile(r"([a-zA-Z][^<\t\n\r\f />\x00]*)(?:\s|/(?!>))*")


class _Tail:
    """Facts about one text, each keyed by its distance from the text's end and kept with
    its reach: the farthest distance from the end that it depends on. A new text whose
    last characters are the same keeps the facts that reach no farther than those."""

    def __init__(self):
        self.text: str | None = None
        self.facts: dict = {}  # key → (value, serial)
        self.reaches: list = []  # a heap of (-reach, serial, key): the farthest first
        self.serial = 0

    def see(self, data: str, position: int) -> None:
        """Read `data` from `position` on: keep what holds for it (the same text, or one
        whose tail from `position` is the same); forget the rest."""
        if data is self.text:
            return
        distance = len(data) - position
        text = self.text
        if text is not None and distance <= len(text) and text.endswith(data[position:]):
            while self.reaches and -self.reaches[0][0] > distance:
                _, serial, key = heapq.heappop(self.reaches)
                value, kept = self.facts.get(key, (None, None))
                if kept == serial:
                    del self.facts[key]
                    value = self.within(key, value, distance)
                    if value is not None:
                        self.remember(key, value, reach=distance)
        else:
            self.facts, self.reaches = {}, []
        self.text = data

    def within(self, key, value, distance: int):
        """What is left of a fact that reaches farther than `distance`, for the last
        `distance` characters alone; None when nothing is."""
        return None

    def remember(self, key, value, reach: int) -> None:
        self.serial += 1
        self.facts[key] = (value, self.serial)
        heapq.heappush(self.reaches, (-reach, self.serial, key))

    def recall(self, key):
        fact = self.facts.get(key)
        return _UNKNOWN if fact is None else fact[0]


class _Closers(_Tail):
    """Where each opening bracket of a text closes (`[`/`]` or `(`/`)`), counted as
    Python-Markdown counts them: every opener raises the depth, every closer lowers it."""

    def __init__(self, opener: str, closer: str):
        super().__init__()
        self.opener = opener
        self.next_bracket = re.compile(f"[{re.escape(opener)}{re.escape(closer)}]").search

    def closer_of(self, data: str, position: int) -> int | None:
        """The index of the closer matching the opener at `position`; None if none does."""
        self.see(data, position)
        end = len(data)
        known = self.recall(end - position)
        if known is _UNKNOWN:
            open_at = [position]
            at = position + 1
            while open_at:
                found = self.next_bracket(data, at)
                if found is None:
                    break
                at = found.start()
                if data[at] != self.opener:
                    self.remember(end - open_at.pop(), end - at, reach=end - at)
                    at += 1
                    continue
                inner = self.recall(end - at)
                if inner is None:  # an opener inside that never closes: nor do the outer
                    break
                if inner is _UNKNOWN:
                    open_at.append(at)
                    at += 1
                else:
                    at = end - inner + 1
            for opener in open_at:  # they never close: that depends on the text to its end
                self.remember(end - opener, None, reach=end - opener)
            known = self.recall(end - position)
        return None if known is None else end - known


class _Quotes(_Tail):
    """What Python-Markdown's address reader does from the first quote of an address on
    (it takes the quote to start a title), with each search's answer remembered for the
    points before the match it found."""

    def within(self, key, value, distance: int):
        """A search's answer (a name's) still holds for the points of the tail it covered;
        a count of parens (a depth's) covers text before the tail, and goes."""
        if not isinstance(key, str):
            return None
        found = value[1]
        return None if found is not None and found > distance else (distance, found)

    def next_match(self, name: str, pattern, data: str, position: int) -> int | None:
        """Where the first match of `pattern` at or after `position` starts; None if none.
        A search from before an earlier one's start reads only up to that start (and, for
        the title's end, over the spaces there: a match that began before it)."""
        end = len(data)
        distance = end - position
        last = self.recall(name)
        if last is _UNKNOWN or distance < (last[1] or 0):
            match = pattern.search(data, position)
            found = None if match is None else end - match.start()
        elif distance <= last[0]:
            found = last[1]
        else:
            searched = end - last[0]
            stop = searched
            if pattern is _TITLE_END:
                stop = _SPACES.match(data, searched).end() + 1
            match = pattern.search(data, position, stop)
            found = end - match.start() if match and match.start() < searched else last[1]
        self.remember(name, (distance, found), reach=distance)
        return None if found is None else end - found

    def title_ends(self, data: str, quote: int) -> bool:
        """Whether a `)` after the quote at `quote` ends the address: one whose last
        character before it (spaces aside) is the same quote again, or the other kind of
        quote met for the second time."""
        first = data[quote]
        other = "'" if first == '"' else '"'
        other_at = self.next_match(other, _SINGLE_QUOTE[other], data, quote + 1)
        at = quote
        while (end := self.next_match("title end", _TITLE_END, data, at)) is not None:
            if (data[end] == first and end > quote) or (
                data[end] == other and other_at is not None and other_at < end
            ):
                return True
            at = end + 1
        return False

    def depth_at(self, data: str, start: int, quote: int) -> int:
        """How many `(` are open at `quote`, counting from the one before `start`: from
        the count for another start before the same quote, when there is one."""
        end = len(data)
        key = ("depth", end - quote)
        since = self.recall(key)
        if since is _UNKNOWN:
            balance = data.count("(", start, quote) - data.count(")", start, quote)
        else:
            counted, balance = end - since[0], since[1]
            low, high = sorted((counted, start))
            between = data.count("(", low, high) - data.count(")", low, high)
            balance += between if start < counted else -between
        self.remember(key, (end - start, balance), reach=end - start)
        return 1 + balance


class _LinearText:
    """`getText` from the remembered bracket matches, not by counting to the end."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.brackets = _Closers("[", "]")

    def getText(self, data, index):
        if not 0 < index <= len(data) or data[index - 1] != "[":
            return super().getText(data, index)
        close = self.brackets.closer_of(data, index - 1)
        if close is None:
            return "", len(data), False
        return data[index:close], close + 1, True


class _LinearLink(_LinearText):
    """`[text](address "title")`: tried only where the text and the address both close."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.parens = _Closers("(", ")")
        self.quotes = _Quotes()

    def _address(self, data: str, index: int):
        """What Python-Markdown's `getLink(data, index)` answers: None when it finds no
        address; `_UPSTREAM` when its own reading stops where the address ends; otherwise
        (it would read to the end of the text and then step back) that answer."""
        opened = self.RE_LINK.match(data, pos=index)
        if opened is None:
            return None
        if opened.group(1):  # the `(<address>)` form: its regular expression has found it
            return _UPSTREAM
        start = opened.end()
        close = self.parens.closer_of(data, index)
        self.quotes.see(data, index)
        quote = self.quotes.next_match("quote", _QUOTE, data, start)
        if quote is None or (close is not None and close < quote):
            return _UPSTREAM if close is not None else None
        if self.quotes.title_ends(data, quote):
            return _UPSTREAM
        # No title ends: it takes the paren that closes what was open at the quote, whether
        # "(" or ")" (the text up to it, or, for "(", Python-Markdown's reading of index -1).
        depth = self.quotes.depth_at(data, start, quote)
        parens = _PARENS.finditer(data, quote)
        last = next(itertools.islice(parens, depth - 1, None), None)
        if last is None:
            return None
        end = last.start() if data[last.start()] == ")" else -2
        return self.unescape(data[start:end]).strip(), None, end + 1, True

    def getLink(self, data, index):
        found = self._address(data, index)
        if found is None:
            return "", None, index, False
        if found is _UPSTREAM:
            return super().getLink(data, index)
        return found

    def handleMatch(self, m, data):
        close = self.brackets.closer_of(data, m.end(0) - 1)
        if close is None or self._address(data, close + 1) is None:
            return None, None, None
        return super().handleMatch(m, data)


class _LinearReference(_LinearText):
    """`[text][id]`: tried only where the text closes and an `[id]` follows."""

    def handleMatch(self, m, data):
        close = self.brackets.closer_of(data, m.end(0) - 1)
        if close is None or not self.RE_LINK.match(data, pos=close + 1):
            return None, None, None
        return super().handleMatch(m, data)


class LinkProcessor(_LinearLink, patterns.LinkInlineProcessor):
    pass


class ImageProcessor(_LinearLink, patterns.ImageInlineProcessor):
    pass


class ReferenceProcessor(_LinearReference, patterns.ReferenceInlineProcessor):
    pass


class ImageReferenceProcessor(_LinearReference, patterns.ImageReferenceInlineProcessor):
    pass


class ShortReferenceProcessor(_LinearText, patterns.ShortReferenceInlineProcessor):
    pass


class ShortImageReferenceProcessor(_LinearText, patterns.ShortImageReferenceInlineProcessor):
    pass


# Python-Markdown's names, patterns and priorities (markdown.inlinepatterns.build_inlinepatterns).
REPLACEMENTS = (
    ("reference", ReferenceProcessor, patterns.REFERENCE_RE, 170),
    ("link", LinkProcessor, patterns.LINK_RE, 160),
    ("image_link", ImageProcessor, patterns.IMAGE_LINK_RE, 150),
    ("image_reference", ImageReferenceProcessor, patterns.IMAGE_REFERENCE_RE, 140),
    ("short_reference", ShortReferenceProcessor, patterns.REFERENCE_RE, 130),
    ("short_image_ref", ShortImageReferenceProcessor, patterns.IMAGE_REFERENCE_RE, 125),
)


class LinearLinks(markdown.Extension):
    """Swaps Python-Markdown's link and reference patterns for the linear ones."""

    def extendMarkdown(self, md):
        for name, processor, pattern, priority in REPLACEMENTS:
            md.inlinePatterns.register(processor(pattern, md), name, priority)


class Footnotes(footnotes.FootnoteExtension):
    """The footnotes extension, naming repeated references from the last name given (the
    names it skips are all taken: the taken ones only grow)."""

    def reset(self) -> None:
        super().reset()
        self.last_ref: dict[str, str] = {}

    def unique_ref(self, reference: str, found: bool = False) -> str:
        if not found:
            return reference
        original = reference
        reference = self.last_ref.get(original, original)
        separator = self.get_separator()
        while reference in self.used_refs:
            ref, rest = reference.split(separator, 1)
            m = footnotes.RE_REF_ID.match(ref)
            if m:
                reference = f"{m.group(1)}{int(m.group(2)) + 1}{separator}{rest}"
            else:
                reference = f"{ref}2{separator}{rest}"
        self.used_refs.add(reference)
        self.last_ref[original] = reference
        self.found_refs[original] = self.found_refs.get(original, 0) + 1
        return reference


def extra() -> list:
    """Python-Markdown's "extra" (markdown.extensions.extra.extensions), with the footnotes
    and the link patterns above."""
    extensions = ["fenced_code", Footnotes(), "attr_list", "def_list", "tables", "abbr"]
    return [*extensions, "md_in_html", LinearLinks()]
