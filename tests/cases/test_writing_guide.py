"""The writer's guide (docs/writing-a-case.md) documents every message of the linter.

The messages are read from the source of the linter and the package reader with `ast`:
every string or f-string given to a problem constructor (`error`, `warning`, `info` and the
linter's wrappers `_case_problem` and `at`), following the variables and helper functions
they are built from. Each message must be in the guide by its longest literal fragment of
three or more words (and its other fragments of three words or more); a message without
one must be there whole, its placeholders matching any short text. Case, whitespace,
quotes and backticks do not count. A new message that nobody documented fails here.
"""

import ast
import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from cases.package.data import ICONS, KINDS

ROOT = Path(__file__).resolve().parent.parent.parent
GUIDE = ROOT / "docs" / "writing-a-case.md"
SOURCES = ("cases/lint.py", "cases/package/reader.py", "cases/package/frontmatter.py")

# Calls that make a problem, by name; the message is their last positional argument.
PROBLEM_CALLS = {"error", "warning", "info", "_case_problem", "at"}
MAX_ALTERNATIVES = 64  # forms of one message (a helper's returns, an if-expression...)
PLACEHOLDER_GAP = 60  # characters a placeholder may stand for in a whole-message match

QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "`": ""})


def normalise(text: str) -> str:
    """Case, runs of whitespace, curly quotes and Markdown's backticks do not matter."""
    return " ".join(text.translate(QUOTES).casefold().split())


def words(fragment: str) -> list[str]:
    return re.findall(r"[^\W_]+", fragment)


@dataclass(frozen=True)
class Message:
    """One form of a message: its literal fragments, in order, between placeholders."""

    source: str
    line: int
    fragments: tuple[str, ...]

    @property
    def template(self) -> str:
        return "<…>".join(self.fragments)

    @property
    def long_fragments(self) -> list[str]:
        """Its literal fragments of three or more words, normalised, longest first."""
        long = {normalise(f) for f in self.fragments if len(words(f)) >= 3}
        return sorted(long, key=lambda fragment: (-len(fragment), fragment))

    @property
    def key_fragment(self) -> str | None:
        """The longest literal fragment of three or more words, if there is one."""
        return self.long_fragments[0] if self.long_fragments else None

    def is_in(self, guide: str) -> bool:
        if self.long_fragments:
            # The longest fragment, and the others of three words too (a message may share
            # its longest one with another: "the question id ...").
            return all(fragment in guide for fragment in self.long_fragments)
        # No fragment of three words: the whole message, placeholders matching short text.
        parts = [re.escape(normalise(f)) for f in self.fragments if normalise(f)]
        pattern = f".{{0,{PLACEHOLDER_GAP}}}?".join(parts)
        return bool(parts) and re.search(pattern, guide) is not None


class MessageCollector:
    """The messages of one module, from its syntax tree."""

    def __init__(self, path: str):
        self.path = path
        self.tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
        self.functions = {
            node.name: node
            for node in ast.walk(self.tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        self.parents = {
            child: parent
            for parent in ast.walk(self.tree)
            for child in ast.iter_child_nodes(parent)
        }

    def messages(self) -> list[Message]:
        found = []
        for node in ast.walk(self.tree):
            if not (isinstance(node, ast.Call) and _call_name(node) in PROBLEM_CALLS):
                continue
            if not node.args:
                continue
            for fragments in self.expand(node.args[-1], depth=0):
                fragments = tuple(f for f in fragments if f.strip())
                if fragments:
                    found.append(Message(self.path, node.lineno, fragments))
        return found

    def expand(self, node: ast.AST, depth: int) -> list[tuple[str, ...]]:
        """The forms a message expression can take, each as its literal fragments; an
        expression the source does not spell out (a value, a join) is a placeholder."""
        if depth > 8:
            return [()]
        if isinstance(node, ast.Constant):
            return [(node.value,)] if isinstance(node.value, str) else [()]
        if isinstance(node, ast.JoinedStr):
            return self._sequence(node.values, depth)
        if isinstance(node, ast.FormattedValue):
            return self.expand(node.value, depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._sequence([node.left, node.right], depth)
        if isinstance(node, ast.IfExp):
            return _capped(self.expand(node.body, depth + 1) + self.expand(node.orelse, depth + 1))
        if isinstance(node, ast.Name):
            value = self._assigned(node)
            return self.expand(value, depth + 1) if value is not None else [()]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            function = self.functions.get(node.func.id)
            if function is not None and node.func.id not in PROBLEM_CALLS:
                returns = [
                    form
                    for ret in ast.walk(function)
                    if isinstance(ret, ast.Return) and ret.value is not None
                    for form in self.expand(ret.value, depth + 1)
                ]
                return _capped(returns) or [()]
        return [()]

    def _sequence(self, parts: list[ast.AST], depth: int) -> list[tuple[str, ...]]:
        """Forms of parts written one after the other: a break between any two of them."""
        forms = [self.expand(part, depth + 1) for part in parts]
        return _capped([sum(chosen, ()) for chosen in itertools.product(*forms)])

    def _assigned(self, name: ast.Name) -> ast.AST | None:
        """The value last assigned to a local variable before it is used, if any."""
        function = self._enclosing_function(name)
        if function is None:
            return None
        candidates = [
            (node.lineno, node.value)
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name.id for t in node.targets)
            and node.lineno <= name.lineno
        ]
        return max(candidates, key=lambda pair: pair[0])[1] if candidates else None

    def _enclosing_function(self, node: ast.AST) -> ast.AST | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None


def _call_name(call: ast.Call) -> str:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return ""


def _capped(forms: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    return list(dict.fromkeys(forms))[:MAX_ALTERNATIVES]


def linter_messages() -> list[Message]:
    return [message for path in SOURCES for message in MessageCollector(path).messages()]


@pytest.fixture(scope="module")
def guide() -> str:
    return normalise(GUIDE.read_text(encoding="utf-8"))


MESSAGES = linter_messages()


def test_it_finds_the_linters_messages():
    # A collector that finds nothing would pass every check below: it must see them all.
    templates = {message.template for message in MESSAGES}
    assert len(templates) >= 70
    assert any("is evidence for" in t and "never cites it" in t for t in templates)
    assert any("cards as" in t and "list only the cards" in t for t in templates)
    assert any("the icons are" in t for t in templates)  # through a helper's return
    assert any("is not a full name" in t for t in templates)  # through a variable


def test_the_guide_documents_every_linter_message(guide):
    missing = sorted({f"{m.source}:{m.line}: {m.template}" for m in MESSAGES if not m.is_in(guide)})
    assert not missing, "The writer's guide does not document:\n" + "\n".join(missing)


def test_it_would_notice_a_message_left_out(guide):
    message = next(m for m in MESSAGES if m.key_fragment and "never cites it" in m.key_fragment)
    assert message.is_in(guide)
    assert not message.is_in(guide.replace(message.key_fragment, "…"))


def test_the_guide_names_every_icon_and_answer_kind():
    text = GUIDE.read_text(encoding="utf-8")
    for name in (*ICONS, *KINDS):
        assert f"`{name}`" in text, name


def test_the_guide_stands_alone():
    """The guide is also a page of the site: no title of its own (the page gives the h1),
    and links only to other files of docs/."""
    text = GUIDE.read_text(encoding="utf-8")
    assert "shared/" not in text
    prose = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    assert not re.search(r"^# ", prose, re.MULTILINE)
    for target in re.findall(r"\]\(([^)\s]+)", text):
        assert re.fullmatch(r"[\w-]+\.md(#[\w-]+)?", target), target
        assert (GUIDE.parent / target.partition("#")[0]).is_file(), target
