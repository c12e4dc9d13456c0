"""The shape shared by every package file: YAML front matter between `---` lines, then
Markdown; and typed reading of YAML nodes that remembers where each value was written.

We compose YAML into nodes (`yaml.compose`) instead of loading it, because nodes carry
their line, and because we decide the types ourselves: `answer: yes` is the text "yes",
not the boolean YAML 1.1 would make of it, and `answer: 4` is the text "4".
"""

import difflib
import re
from dataclasses import dataclass

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .data import Problem, error

DELIMITER = "---"
NULL_TAG = "tag:yaml.org,2002:null"
WHOLE_NUMBER = re.compile(r"[+-]?\d+")
# Every number of the format is small; int() of thousands of digits is slow, and refused by
# Python past 4300.
MAX_DIGITS = 9
# Front matter nests two or three levels; PyYAML composes nested values recursively, and
# thousands of levels ran out of stack (a traceback instead of a problem).
MAX_DEPTH = 20
_OPENING_TOKENS = (
    yaml.BlockMappingStartToken,
    yaml.BlockSequenceStartToken,
    yaml.FlowMappingStartToken,
    yaml.FlowSequenceStartToken,
)
_CLOSING_TOKENS = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)


def normalise_text(text: str) -> str:
    """The normal form both import and export use: Unix line ends, no trailing spaces on
    any line, no blank lines at the end, one final newline."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


@dataclass(frozen=True)
class SplitFile:
    front_matter: str  # the text between the two `---` lines, verbatim
    body_lines: list[str]
    body_first_line: int  # the 1-based line of body_lines[0] in the file


def split_front_matter(path: str, text: str, problems: list[Problem]) -> SplitFile | None:
    lines = normalise_text(text).split("\n")
    if lines[0] != DELIMITER:
        problems.append(
            error(path, 1, "the file must begin with front matter: a line ---, YAML, then ---")
        )
        return None
    closing = next((i for i in range(1, len(lines)) if lines[i] == DELIMITER), None)
    if closing is None:
        problems.append(error(path, 1, "the front matter opened here is never closed by ---"))
        return None
    front_matter = "".join(f"{line}\n" for line in lines[1:closing])
    body_lines = lines[closing + 1 :]
    if body_lines and body_lines[-1] == "":
        body_lines.pop()  # the final newline
    return SplitFile(front_matter, body_lines, body_first_line=closing + 2)


def compose_front_matter(path: str, front_matter: str, problems: list[Problem]) -> Node | None:
    """The front matter's YAML node tree, or None (with a problem) when there is none."""
    try:
        too_deep = _first_too_deep(front_matter)
        if too_deep is not None:
            problems.append(
                error(
                    path,
                    too_deep.start_mark.line + 2,
                    f"the front matter nests lists and mappings too deeply (at most {MAX_DEPTH} "
                    "levels)",
                )
            )
            return None
        node = yaml.compose(front_matter, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark else 1  # + 2: the opening --- and 1-based lines
        problems.append(error(path, line, f"the front matter is not valid YAML: {exc.problem}"))
        return None
    except yaml.YAMLError as exc:
        problems.append(error(path, 1, f"the front matter is not valid YAML: {exc}"))
        return None
    if node is None:
        problems.append(error(path, 1, "the front matter is empty"))
        return None
    return node


def _first_too_deep(front_matter: str) -> yaml.Token | None:
    """The token that opens a level deeper than MAX_DEPTH, if any: found by the scanner,
    which keeps no stack of its own, before the composer would recurse that deep."""
    depth = 0
    for token in yaml.scan(front_matter, Loader=yaml.SafeLoader):
        if isinstance(token, _OPENING_TOKENS):
            depth += 1
            if depth > MAX_DEPTH:
                return token
        elif isinstance(token, _CLOSING_TOKENS):
            depth -= 1
    return None


def describe(node: Node) -> str:
    """How a wrongly typed value is named in a message."""
    if isinstance(node, SequenceNode):
        return "a list"
    if isinstance(node, MappingNode):
        return "a mapping"
    if node.tag == NULL_TAG:
        return "empty"
    return f'"{node.value}"'


class NodeReader:
    """Reads typed values out of YAML nodes of one file, reporting what does not fit."""

    def __init__(self, path: str, problems: list[Problem]):
        self.path = path
        self.problems = problems

    def line(self, node: Node) -> int:
        # Marks are 0-based and the YAML starts after the opening --- line.
        return node.start_mark.line + 2

    def error(self, node: Node | None, message: str) -> None:
        self.problems.append(error(self.path, self.line(node) if node else 1, message))

    def mapping(
        self,
        node: Node,
        *,
        where: str,
        keys: tuple[str, ...] | None,
        required: tuple[str, ...] = (),
        example: str = "",
    ) -> dict[str, tuple[Node, Node]] | None:
        """`{key: (key node, value node)}`, after reporting unknown, repeated and missing
        keys (`keys=None` allows any key); None when the node is not a mapping at all."""
        if not isinstance(node, MappingNode):
            hint = f", like {example}" if example else ""
            self.error(
                node, f"{where} must be a mapping of keys to values{hint}, not {describe(node)}"
            )
            return None
        items: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, ScalarNode) else describe(key_node)
            if key in items:
                first = self.line(items[key][0])
                self.error(
                    key_node, f'the key "{key}" is written twice in {where} (first on line {first})'
                )
            elif keys is not None and key not in keys:
                self.error(key_node, f'unknown key "{key}" in {where}{_did_you_mean(key, keys)}')
            else:
                items[key] = (key_node, value_node)
        for key in required:
            if key not in items:
                self.error(node, f'{where} lacks the key "{key}"')
        return items

    def text(self, node: Node, what: str) -> str | None:
        if not isinstance(node, ScalarNode):
            self.error(node, f"{what} must be text, not {describe(node)}")
        elif node.tag == NULL_TAG or not node.value.strip():
            self.error(node, f"{what} is empty")
        else:
            return node.value
        return None

    def integer(self, node: Node, what: str) -> int | None:
        if isinstance(node, ScalarNode) and WHOLE_NUMBER.fullmatch(node.value.strip()):
            if len(node.value.strip().lstrip("+-").lstrip("0")) > MAX_DIGITS:
                self.error(node, f"{what} must be a whole number of at most {MAX_DIGITS} digits")
                return None
            return int(node.value.strip())
        self.error(node, f"{what} must be a whole number, not {describe(node)}")
        return None

    def sequence(self, node: Node, what: str, example: str) -> list[Node]:
        """The items of a list; an empty value counts as an empty list."""
        if isinstance(node, SequenceNode):
            return list(node.value)
        if isinstance(node, ScalarNode) and node.tag == NULL_TAG:
            return []
        self.error(node, f"{what} must be a list, like {example}, not {describe(node)}")
        return []


def _did_you_mean(key: str, keys: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, keys, n=1)
    if close:
        return f' (did you mean "{close[0]}"?)'
    return f"; the keys are {', '.join(keys)}"
