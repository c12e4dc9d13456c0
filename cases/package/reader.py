"""Reading a case package: a folder or a zip → a files dict → `CaseData` and problems.

Reading files from disk is kept apart from parsing the files dict, so that tests (and a
future upload form) can build packages in memory. This module checks the *shape* of a
package: files, encodings, YAML syntax, keys and value types, and the case.md headings.
What the values mean (ranges, duplicates, references...) is the linter's job
(`cases/lint.py`), which works on the typed data produced here.
"""

import io
import lzma
import re
import zipfile
import zlib
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .data import (
    CASE_FILE,
    INTRODUCTION,
    LOCATIONS_DIR,
    SECTIONS,
    SOLUTION,
    SPECIAL_RULES,
    START_FIELDS,
    CaseData,
    LocationData,
    PackageFiles,
    Problem,
    QuestionData,
    ZoneData,
    error,
    warning,
)
from .frontmatter import NULL_TAG, NodeReader, SplitFile, compose_front_matter, split_front_matter

# A case is a few dozen small Markdown files (the sample cases hold under 40 KB in all);
# anything much bigger is a mistake or an attack. A zip is checked against these from its
# directory, before any entry is unpacked: what each entry unpacks to is bounded by the
# size the directory gives it (zipfile reads no further).
MAX_FILE_BYTES = 1_000_000  # each file
MAX_FILES = 500  # files kept
MAX_PACKAGE_BYTES = 4_000_000  # every file together, unpacked, those dropped included
MAX_ZIP_BYTES = 4_000_000  # the zip itself (an upload)
MAX_ZIP_ENTRIES = 1000  # entries of its directory, folders and dropped ones included
# What zipfile unpacks: an entry compressed another way (deflate64, say), or encrypted
# (flag bit 0), raised NotImplementedError or RuntimeError, uncaught, when it was opened.
ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
ZIP_ENCRYPTED = 0x1
# What unpacking an entry may raise besides, from its data: a bad checksum, a stream that
# is not what its method says.
UNPACKING_ERRORS = (
    zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, RuntimeError,
    NotImplementedError,
)  # fmt: skip

CASE_KEYS = (
    "format", "slug", "title", "difficulty", "language", "players", "start", "zones", "questions",
)  # fmt: skip
REQUIRED_CASE_KEYS = ("format", "slug", "title", "difficulty", "players", "questions")
QUESTION_KEYS = ("id", "ask", "kind", "answer", "accept", "reject", "evidence")
REQUIRED_QUESTION_KEYS = ("id", "ask", "kind", "answer")
LOCATION_KEYS = ("number", "name", "icons", "carriages", "zone")
REQUIRED_LOCATION_KEYS = ("number", "name")
ZONES_KEYS = ("start", "travel_cost", "names")

# An ATX level-1 heading ("# Solution", optionally closed by #s), and a code fence.
HEADING = re.compile(r"#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


# Reading files ---------------------------------------------------------------------------


def read_package_path(path: str | Path) -> PackageFiles:
    """The files of the package in a folder or a `.zip`, with the problems met reading them."""
    path = Path(path)
    if path.is_dir():
        return read_folder(path)
    if path.is_file():
        if zipfile.is_zipfile(path):
            with path.open("rb") as stream:
                return read_zip(stream, label=path.name)
        return PackageFiles(problems=[error(str(path), None, "this is neither a folder nor a zip")])
    return PackageFiles(problems=[error(str(path), None, "there is no folder or zip here")])


def read_folder(folder: Path) -> PackageFiles:
    files = PackageFiles()
    root = folder.resolve()
    kept: list[tuple[str, Path]] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if _is_hidden(relative):
            continue
        if path.is_symlink() or not path.resolve().is_relative_to(root):
            # A link could bring any file of the server into the package: refused.
            if path.is_file():
                message = "the file is a symbolic link; it was refused"
                files.problems.append(error(relative, None, message))
            continue
        if path.is_file():
            kept.append((relative, path))
    total = sum(path.stat().st_size for _, path in kept)
    if total > MAX_PACKAGE_BYTES:
        message = f"the package is too large ({_megabytes(total)}; a package holds at most "
        message += f"{_megabytes(MAX_PACKAGE_BYTES, limit=True)})"
        return PackageFiles(problems=[error(str(folder), None, message)])
    for relative, path in kept:
        if len(files) >= MAX_FILES:
            files.problems.append(
                error(relative, None, f"a package holds at most {MAX_FILES} files")
            )
            break
        if path.stat().st_size > MAX_FILE_BYTES:
            files.problems.append(error(relative, None, "the file is too large (over 1 MB)"))
            continue
        files[relative] = path.read_bytes()
    return files


def _megabytes(size: int, *, limit: bool = False) -> str:
    """A size as messages name it: a limit "4 MB", a measure "4.5 MB"."""
    return f"{size / 1_000_000:{'g' if limit else '.1f'}} MB"


def read_zip(source: BinaryIO | bytes, *, label: str = "the zip") -> PackageFiles:
    """The package in a zip, at the zip's root or in one folder of it.

    Bounded before anything is unpacked (see MAX_ZIP_BYTES and below): a zip over a limit
    is refused whole, with a problem that names the limit."""
    if isinstance(source, bytes):
        source = io.BytesIO(source)
    size = source.seek(0, io.SEEK_END)
    source.seek(0)
    if size > MAX_ZIP_BYTES:
        limit = _megabytes(MAX_ZIP_BYTES, limit=True)
        message = f"the zip is too large ({_megabytes(size)}; at most {limit})"
        return PackageFiles(problems=[error(label, None, message)])
    files = PackageFiles()
    try:
        with zipfile.ZipFile(source) as archive:
            entries = archive.infolist()
            refusal = _zip_refusal(entries)
            if refusal:
                return PackageFiles(problems=[error(label, None, refusal)])
            for entry in entries:
                _read_zip_entry(archive, entry, files)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        return PackageFiles(problems=[error(label, None, f"the zip cannot be read ({exc})")])
    return _strip_package_folder(files)


def _zip_refusal(entries: list[zipfile.ZipInfo]) -> str | None:
    """Why the zip is refused whole, from its directory alone; None when it is not. Every
    entry counts, those that reading would drop (hidden, outside the package) too."""
    if len(entries) > MAX_ZIP_ENTRIES:
        return f"the zip holds too many entries ({len(entries)}; at most {MAX_ZIP_ENTRIES})"
    unpacked = sum(entry.file_size for entry in entries)
    if unpacked > MAX_PACKAGE_BYTES:
        return (
            f"the zip unpacks to too much ({_megabytes(unpacked)}; a package holds at most "
            f"{_megabytes(MAX_PACKAGE_BYTES, limit=True)})"
        )
    return None


def _read_zip_entry(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, files: PackageFiles) -> None:
    name = entry.filename.replace("\\", "/")
    parts = PurePosixPath(name).parts
    if name.startswith("/") or re.match(r"[A-Za-z]:", name):
        files.problems.append(error(name, None, "the zip holds an absolute path; it was refused"))
        return
    if ".." in parts:
        files.problems.append(
            error(name, None, "the zip holds a path that leaves the package (..); it was refused")
        )
        return
    if entry.is_dir() or _is_hidden(name) or parts[0] == "__MACOSX":
        return
    if len(files) >= MAX_FILES:
        files.problems.append(error(name, None, f"a package holds at most {MAX_FILES} files"))
        return
    if entry.file_size > MAX_FILE_BYTES:
        files.problems.append(error(name, None, "the file is too large (over 1 MB)"))
        return
    refusal = _entry_refusal(entry)
    if refusal:
        files.problems.append(error(name, None, refusal))
        return
    # zipfile unpacks no more than the directory's file_size; one byte more is asked all
    # the same, so that nothing here depends on it.
    try:
        with archive.open(entry) as stream:
            content = stream.read(MAX_FILE_BYTES + 1)
    except UNPACKING_ERRORS as exc:
        files.problems.append(error(name, None, f"the file cannot be unpacked ({exc})"))
        return
    if len(content) > MAX_FILE_BYTES:
        files.problems.append(error(name, None, "the file is too large (over 1 MB)"))
        return
    files["/".join(parts)] = content


def _entry_refusal(entry: zipfile.ZipInfo) -> str | None:
    """Why an entry cannot be unpacked, from the zip's directory alone; None when it can."""
    if entry.flag_bits & ZIP_ENCRYPTED:
        return "the file is encrypted (zip the package again without a password)"
    if entry.compress_type not in ZIP_METHODS:
        return (
            f"the file is compressed by a method this site cannot unpack ({entry.compress_type};"
            " zip the package again with the usual one, deflate)"
        )
    return None


def _strip_package_folder(files: PackageFiles) -> PackageFiles:
    """A zip of the folder holds `the-case/case.md`: make paths relative to that folder."""
    if CASE_FILE in files:
        return files
    roots = [name.removesuffix(f"/{CASE_FILE}") for name in files if name.count("/") == 1]
    roots = [root for root in roots if f"{root}/{CASE_FILE}" in files]
    if len(roots) != 1:
        return files
    prefix = f"{roots[0]}/"
    stripped = PackageFiles(problems=files.problems)
    for name, content in files.items():
        if name.startswith(prefix):
            stripped[name.removeprefix(prefix)] = content
        else:
            stripped.problems.append(
                warning(
                    name,
                    None,
                    f"this file is outside the package folder {roots[0]}/ and is ignored",
                )
            )
    return stripped


def _is_hidden(relative: str) -> bool:
    return any(part.startswith(".") for part in PurePosixPath(relative).parts)


# Parsing the files dict -----------------------------------------------------------------


def parse_package(files: dict[str, bytes | str]) -> tuple[CaseData | None, list[Problem]]:
    """The case a package describes (None if case.md cannot be read) and its shape problems."""
    problems: list[Problem] = list(getattr(files, "problems", []))
    if not files and any(problem.is_error for problem in problems):
        return None, problems  # nothing could be read: saying what is missing adds nothing
    texts = {name: _decode(name, content, problems) for name, content in files.items()}
    case_text = texts.pop(CASE_FILE, None)
    card_names = sorted(name for name in texts if _is_location_file(name))
    for name in sorted(set(texts) - set(card_names)):
        problems.append(warning(name, None, _stray_file_message(name)))

    if case_text is None:
        problems.append(error(CASE_FILE, None, "the package has no case.md"))
    if not card_names:
        problems.append(
            error(f"{LOCATIONS_DIR}/", None, "the package has no location cards (locations/*.md)")
        )
    case = parse_case_file(case_text, problems) if case_text is not None else None
    locations = []
    for name in card_names:
        location = parse_location_file(name.split("/", 1)[1], texts[name], problems)
        if location is not None:
            locations.append(location)
    if case is None:
        return None, problems
    return replace(case, locations=tuple(locations)), problems


def _decode(name: str, content: bytes | str, problems: list[Problem]) -> str:
    if isinstance(content, str):
        return content
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = content[: exc.start].count(b"\n") + 1
        byte = content[exc.start]
        problems.append(
            error(name, line, f"the file is not UTF-8 text (byte 0x{byte:02X}); save it as UTF-8")
        )
        # Read on with replacement characters, so the rest of the file is still checked.
        return content.decode("utf-8", errors="replace")


def _is_location_file(name: str) -> bool:
    folder, _, filename = name.partition("/")
    return folder == LOCATIONS_DIR and "/" not in filename and filename.endswith(".md")


def _stray_file_message(name: str) -> str:
    if name.startswith(f"{LOCATIONS_DIR}/"):
        return "only .md files directly in locations/ are location cards; this file is ignored"
    return "this file is not part of a case package and is ignored"


# case.md ----------------------------------------------------------------------------------


def parse_case_file(
    text: str, problems: list[Problem], *, path: str = CASE_FILE
) -> CaseData | None:
    split = split_front_matter(path, text, problems)
    if split is None:
        return None
    lines: dict[str, int] = {}
    sections = _parse_sections(path, split, problems, lines)
    values = _case_values(path, split.front_matter, problems, lines)
    if values is None:
        return None
    return CaseData(
        **values,
        **sections,
        source_front_matter=split.front_matter,
        source_body="".join(f"{line}\n" for line in split.body_lines),
        lines=lines,
    )


def case_body_sections(body: str) -> dict | None:
    """The three sections a stored case.md body holds, or None if it no longer reads."""
    problems: list[Problem] = []
    split = SplitFile("", body.removesuffix("\n").split("\n"), body_first_line=1)
    sections = _parse_sections(CASE_FILE, split, problems, {})
    return None if problems else sections


def case_front_matter_data(front_matter: str) -> CaseData | None:
    """What a case.md front matter says (without sections), or None when it has errors.

    The writer uses it to tell whether an author's stored front matter still says what
    the database holds.
    """
    problems: list[Problem] = []
    values = _case_values(CASE_FILE, front_matter, problems, {})
    if values is None or any(problem.is_error for problem in problems):
        return None
    return CaseData(**values)


def _case_values(path: str, front_matter: str, problems: list[Problem], lines: dict) -> dict | None:
    node = compose_front_matter(path, front_matter, problems)
    if node is None:
        return None
    reader = NodeReader(path, problems)
    items = reader.mapping(
        node, where="the front matter", keys=CASE_KEYS, required=REQUIRED_CASE_KEYS
    )
    if items is None:
        return None
    fields = _FieldReader(reader, items, lines)
    values = {
        "format": fields.integer("format"),
        "slug": fields.text("slug") or "",
        "title": fields.text("title") or "",
        "difficulty": fields.integer("difficulty"),
        "questions": _questions(reader, items, lines),
    }
    if "language" in items:
        values["language"] = fields.text("language") or ""
    values.update(_players(reader, items, lines))
    values.update(_start(reader, items, lines))
    values.update(_zones(reader, items, lines))
    return values


class _FieldReader:
    """Reads `key: value` pairs of one mapping, noting the line of each key."""

    def __init__(
        self,
        reader: NodeReader,
        items: dict[str, tuple[Node, Node]],
        lines: dict,
        prefix: str = "",
        where: str = "",
    ):
        self.reader, self.items, self.lines = reader, items, lines
        self.prefix, self.where = prefix, where

    def _value(self, key: str) -> tuple[Node, str] | None:
        if key not in self.items:
            return None
        key_node, value_node = self.items[key]
        self.lines[self.prefix + key] = self.reader.line(key_node)
        return value_node, f'"{key}"{self.where}'

    def integer(self, key: str) -> int | None:
        found = self._value(key)
        return self.reader.integer(*found) if found else None

    def text(self, key: str) -> str | None:
        found = self._value(key)
        return self.reader.text(*found) if found else None

    def mapping(
        self, key: str, *, optional: bool = True, **kwargs
    ) -> dict[str, tuple[Node, Node]] | None:
        found = self._value(key)
        if not found:
            return None
        if _is_null(found[0]):
            if not optional:
                self.reader.error(found[0], f"{found[1]} is empty")
            return None  # an optional mapping left empty is simply absent
        return self.reader.mapping(found[0], where=found[1], **kwargs)

    def text_list(self, key: str, example: str) -> tuple[str, ...]:
        found = self._value(key)
        if not found:
            return ()
        values = []
        for item in self.reader.sequence(*found, example):
            value = self.reader.text(item, f"each item of {found[1]}")
            if value is not None:
                self.lines[f"{self.prefix}{key}.{len(values)}"] = self.reader.line(item)
                values.append(value)
        return tuple(values)

    def integer_list(self, key: str, example: str) -> tuple[int, ...]:
        found = self._value(key)
        if not found:
            return ()
        values = []
        for item in self.reader.sequence(*found, example):
            value = self.reader.integer(item, f"each item of {found[1]}")
            if value is not None:
                self.lines[f"{self.prefix}{key}.{len(values)}"] = self.reader.line(item)
                values.append(value)
        return tuple(values)


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == NULL_TAG


def _players(reader: NodeReader, items, lines) -> dict:
    players = _FieldReader(reader, items, lines).mapping(
        "players",
        optional=False,
        keys=("min", "max"),
        required=("min", "max"),
        example="{min: 1, max: 7}",
    )
    if players is None:
        return {}
    fields = _FieldReader(reader, players, lines, prefix="players.", where=" of players")
    return {"min_players": fields.integer("min"), "max_players": fields.integer("max")}


def _start(reader: NodeReader, items, lines) -> dict:
    start = _FieldReader(reader, items, lines).mapping(
        "start", keys=tuple(START_FIELDS), example="{carriages: 10, police: 1}"
    )
    if start is None:
        return {}
    fields = _FieldReader(reader, start, lines, prefix="start.", where=" of start")
    return {field: fields.integer(key) for key, field in START_FIELDS.items() if key in start}


def _zones(reader: NodeReader, items, lines) -> dict:
    zones = _FieldReader(reader, items, lines).mapping(
        "zones", keys=ZONES_KEYS, required=("start", "names")
    )
    if zones is None:
        return {}
    fields = _FieldReader(reader, zones, lines, prefix="zones.", where=" of zones")
    values = {
        "start_zone": fields.text("start") or "",
        "travel_cost": fields.integer("travel_cost"),
    }
    names = fields.mapping(
        "names", optional=False, keys=None, example="{city: London, country: Surrey}"
    )
    zone_list = []
    for key, (key_node, value_node) in (names or {}).items():
        name = reader.text(value_node, f'the name of zone "{key}"')
        zone_list.append(ZoneData(key=key, name=name or "", line=reader.line(key_node)))
    values["zones"] = tuple(zone_list)
    return values


def _questions(reader: NodeReader, items, lines) -> tuple[QuestionData, ...]:
    if "questions" not in items:
        return ()
    key_node, value_node = items["questions"]
    lines["questions"] = reader.line(key_node)
    if _is_null(value_node):
        nodes = []
    elif isinstance(value_node, SequenceNode):
        nodes = list(value_node.value)
    else:
        reader.sequence(value_node, '"questions"', "- id: culprit ...")  # reports the type
        return ()
    if not nodes:
        reader.error(key_node, "the case has no questions; write at least one")
    questions = (_question(reader, node, index) for index, node in enumerate(nodes))
    return tuple(question for question in questions if question is not None)


def _question(reader: NodeReader, node: Node, index: int) -> QuestionData | None:
    where = (
        f'question "{_scalar_at(node, "id")}"'
        if _scalar_at(node, "id")
        else f"question {index + 1}"
    )
    items = reader.mapping(node, where=where, keys=QUESTION_KEYS, required=REQUIRED_QUESTION_KEYS)
    if items is None:
        return None
    lines = {"question": reader.line(node)}
    fields = _FieldReader(reader, items, lines, where=f" of {where}")
    return QuestionData(
        key=fields.text("id") or "",
        ask=fields.text("ask") or "",
        kind=fields.text("kind") or "",
        answer=fields.text("answer") or "",
        accept=fields.text_list("accept", "[Margaret Doyle, Meg Doyle]"),
        reject=fields.text_list("reject", "[Ellen Doyle]"),
        evidence=fields.integer_list("evidence", "[4, 12]"),
        lines=lines,
    )


def _scalar_at(node: Node, key: str) -> str:
    """The text of `key` in a mapping node, when it is a plain value (for naming things)."""
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == key and isinstance(value_node, ScalarNode):
                return value_node.value
    return ""


def _parse_sections(path: str, split: SplitFile, problems: list[Problem], lines: dict) -> dict:
    """The three Markdown sections of case.md, reporting missing, repeated, misordered and
    unknown level-1 headings.

    A section's text keeps its leading blank lines (so "# Solution" followed by a blank
    line comes back as written) but not its trailing ones: the writer puts exactly one
    blank line before each heading.
    """
    chunks: dict[str, list[str]] = {}
    heading_lines: dict[str, int] = {}
    current: list[str] | None = None
    fence = ""
    for offset, text in enumerate(split.body_lines):
        line = split.body_first_line + offset
        fence = _track_fence(text, fence)
        match = None if fence or text.startswith("##") else HEADING.fullmatch(text)
        if match is None:
            if current is not None:
                current.append(text)
            elif text.strip() and not chunks and "preamble" not in heading_lines:
                heading_lines["preamble"] = line
                problems.append(
                    error(
                        path,
                        line,
                        "this text comes before # Introduction and belongs to no section",
                    )
                )
            continue
        section = _section_named(path, line, match.group(1), problems)
        if section is None:  # an unknown heading: keep its text where it stands
            if current is not None:
                current.append(text)
            continue
        if section in heading_lines:
            first = heading_lines[section]
            problems.append(
                error(path, line, f"# {section} is written twice (first on line {first})")
            )
            current = []  # read and dropped
            continue
        later = [
            name for name in heading_lines if name in SECTIONS and _rank(name) > _rank(section)
        ]
        if later:
            problems.append(
                error(
                    path,
                    line,
                    f"# {section} must come before # {later[0]}; the order is "
                    "Introduction, Special rules, Solution",
                )
            )
        heading_lines[section] = line
        lines[f"heading.{section}"] = line
        lines[_field_of(section)] = line + 1
        current = chunks[section] = []

    last_line = split.body_first_line + max(len(split.body_lines) - 1, 0)
    for section, where in ((INTRODUCTION, split.body_first_line), (SOLUTION, last_line)):
        if section not in heading_lines:
            problems.append(error(path, where, f"case.md has no # {section} section"))
    values = {}
    for section, body in chunks.items():
        while body and not body[-1].strip():
            body.pop()
        values[_field_of(section)] = "\n".join(body)
        if not "".join(body).strip():
            message = f"the # {section} section is empty"
            if section == SPECIAL_RULES:
                problems.append(
                    warning(path, heading_lines[section], f"{message}; remove the heading")
                )
            else:
                problems.append(error(path, heading_lines[section], message))
    return values


def _track_fence(text: str, fence: str) -> str:
    """The code fence open after this line ("" when none): headings inside code are text."""
    match = FENCE.match(text)
    if not match:
        return fence
    marker = match.group(1)
    if not fence:
        return marker
    if marker[0] == fence[0] and len(marker) >= len(fence):
        return ""
    return fence


def _section_named(path: str, line: int, title: str, problems: list[Problem]) -> str | None:
    if title in SECTIONS:
        return title
    for section in SECTIONS:
        if title.strip().casefold() == section.casefold():
            problems.append(error(path, line, f'write this heading exactly as "# {section}"'))
            return section
    problems.append(
        error(
            path,
            line,
            f'unknown heading "# {title}"; case.md has the sections # Introduction, '
            "# Special rules (optional) and # Solution",
        )
    )
    return None


def _rank(section: str) -> int:
    return SECTIONS.index(section)


def _field_of(section: str) -> str:
    return section.lower().replace(" ", "_")  # "Special rules" → special_rules


# locations/*.md ---------------------------------------------------------------------------


def parse_location_file(filename: str, text: str, problems: list[Problem]) -> LocationData | None:
    path = f"{LOCATIONS_DIR}/{filename}"
    split = split_front_matter(path, text, problems)
    if split is None:
        return None
    lines: dict[str, int] = {"text": split.body_first_line}
    values = _location_values(path, split.front_matter, problems, lines)
    if values is None:
        return None
    body = list(split.body_lines)
    while body and not body[-1].strip():
        body.pop()
    return LocationData(
        filename=filename,
        text="\n".join(body),
        source_front_matter=split.front_matter,
        lines=lines,
        **values,
    )


def location_front_matter_data(filename: str, front_matter: str) -> LocationData | None:
    """What a card's front matter says (without its text), or None when it has errors."""
    problems: list[Problem] = []
    values = _location_values(f"{LOCATIONS_DIR}/{filename}", front_matter, problems, {})
    if values is None or any(problem.is_error for problem in problems):
        return None
    return LocationData(filename=filename, **values)


def _location_values(
    path: str, front_matter: str, problems: list[Problem], lines: dict
) -> dict | None:
    node = compose_front_matter(path, front_matter, problems)
    if node is None:
        return None
    reader = NodeReader(path, problems)
    items = reader.mapping(
        node, where="the card", keys=LOCATION_KEYS, required=REQUIRED_LOCATION_KEYS
    )
    if items is None:
        return None
    fields = _FieldReader(reader, items, lines)
    return {
        "number": fields.integer("number"),
        "name": fields.text("name") or "",
        "icons": fields.text_list("icons", "[police, call_off]"),
        "carriages": fields.integer("carriages"),
        "zone": (fields.text("zone") or "") if "zone" in items else "",
    }
