"""Case data as plain values, independent of Django and of the database.

A package is read into these frozen dataclasses, the linter checks them, the import
service turns them into models, and the writer turns them back into files. Values carry
the line they were written on (`lines`, keyed by field name) so that problems can point
at them; lines and verbatim sources never take part in equality, so two `CaseData` are
equal exactly when they mean the same case.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

CASE_FILE = "case.md"
LOCATIONS_DIR = "locations"

# The vocabularies of the format. They mirror `cases.models.Icon` and `AnswerKind` (a test
# checks that they agree); they are repeated here so that the linter needs no Django.
ICONS = ("police", "call_off", "lockpick", "carriages", "no_watson", "no_police", "locked")
KINDS = ("person", "place", "text", "number", "yes_no")
SUPPORTED_FORMAT = 1
MAX_DIFFICULTY = 5
MAX_PLAYERS = 7
DEFAULT_LANGUAGE = "en"

INTRODUCTION = "Introduction"
SPECIAL_RULES = "Special rules"
SOLUTION = "Solution"
SECTIONS = (INTRODUCTION, SPECIAL_RULES, SOLUTION)

Lines = Mapping[str, int]


def _lines() -> Any:
    """A `lines` field: positions are for messages, never part of what a case means."""
    return field(default_factory=dict, compare=False, repr=False)


class Severity(StrEnum):
    ERROR = "error"  # blocks an import
    WARNING = "warning"  # worth fixing; does not block
    INFO = "info"  # only shown


_PREFIX = {Severity.ERROR: "", Severity.WARNING: "warning: ", Severity.INFO: "note: "}


@dataclass(frozen=True)
class Problem:
    severity: Severity
    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        # The shape of compiler messages, so editors can jump to the place.
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {_PREFIX[self.severity]}{self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR


def error(file: str, line: int | None, message: str) -> Problem:
    return Problem(Severity.ERROR, file, line, message)


def warning(file: str, line: int | None, message: str) -> Problem:
    return Problem(Severity.WARNING, file, line, message)


def info(file: str, line: int | None, message: str) -> Problem:
    return Problem(Severity.INFO, file, line, message)


def _file_rank(file: str) -> tuple[int, str]:
    if file == CASE_FILE:
        return (1, file)
    if file.startswith(f"{LOCATIONS_DIR}/"):
        return (2, file)
    return (0, file)  # the package as a whole, a zip entry, a stray file


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    """Problems in reading order: by file (case.md, then the cards), then by line."""
    return sorted(problems, key=lambda p: (_file_rank(p.file), p.line or 0))


def count_summary(problems: list[Problem]) -> str:
    """'2 errors, 1 warning' (and notes when there are some)."""

    def plural(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    errors = sum(1 for p in problems if p.severity == Severity.ERROR)
    warnings = sum(1 for p in problems if p.severity == Severity.WARNING)
    notes = sum(1 for p in problems if p.severity == Severity.INFO)
    summary = f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
    return f"{summary}, {plural(notes, 'note')}" if notes else summary


def problem_report(problems: list[Problem]) -> str:
    """Every problem on its own line, then the counts."""
    return "\n".join([*(str(problem) for problem in problems), count_summary(problems)])


class PackageFiles(dict):
    """A package's files, `{"case.md": ..., "locations/01-x.md": ...}`, as bytes or text.

    Reading a folder or a zip can meet problems that no file shows (a refused zip entry,
    an unreadable file); they travel with the files so that whoever parses them reports
    them with everything else.
    """

    def __init__(self, files=(), problems: list[Problem] | None = None):
        super().__init__(files)
        self.problems: list[Problem] = list(problems or [])


@dataclass(frozen=True)
class ZoneData:
    key: str
    name: str
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class QuestionData:
    key: str  # the `id` in the package
    ask: str
    kind: str
    answer: str
    accept: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    evidence: tuple[int, ...] = ()
    # "answer", "accept.0", "evidence.1"... → line in case.md
    lines: Lines = _lines()


@dataclass(frozen=True)
class LocationData:
    filename: str  # the name inside locations/
    number: int | None  # None only when the package wrote something that is not a number
    name: str
    text: str = ""
    icons: tuple[str, ...] = ()
    carriages: int | None = None  # None: the default of the carriages icon
    zone: str = ""  # "" in a one-zone case
    # The front matter exactly as written, reused on export while it still says the same.
    source_front_matter: str = field(default="", compare=False, repr=False)
    lines: Lines = _lines()

    @property
    def path(self) -> str:
        return f"{LOCATIONS_DIR}/{self.filename}"


@dataclass(frozen=True)
class CaseData:
    slug: str
    title: str
    format: int | None = SUPPORTED_FORMAT
    difficulty: int | None = 1
    language: str = DEFAULT_LANGUAGE
    min_players: int | None = 1
    max_players: int | None = MAX_PLAYERS
    # Overrides of the standard set-up; None means "the rules' default".
    start_carriages: int | None = None
    start_police: int | None = None
    start_call_off: int | None = None
    start_lockpick: int | None = None
    # Zones: an empty start_zone and no zones mean a one-zone case.
    start_zone: str = ""
    travel_cost: int | None = None
    zones: tuple[ZoneData, ...] = ()
    questions: tuple[QuestionData, ...] = ()
    introduction: str = ""
    special_rules: str = ""
    solution: str = ""
    locations: tuple[LocationData, ...] = ()
    source_front_matter: str = field(default="", compare=False, repr=False)
    source_body: str = field(default="", compare=False, repr=False)
    # "difficulty", "players.min", "zones.start", "introduction" (first line of its text)...
    lines: Lines = _lines()

    @property
    def is_zoned(self) -> bool:
        return bool(self.zones) or bool(self.start_zone)


START_FIELDS = {
    "carriages": "start_carriages",
    "police": "start_police",
    "call_off": "start_call_off",
    "lockpick": "start_lockpick",
}
