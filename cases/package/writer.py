"""Writing a case package: `CaseData` → files dict → a folder or a zip.

An author's own front matter (comments, key order, quoting) is given back as written
while it still says what the data says; once the data has changed (in the editor, say),
the file gets the canonical front matter instead, in the style of the format's spec.
"""

import json
import re
import unicodedata
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

import yaml

from .data import (
    CASE_FILE,
    INTRODUCTION,
    LOCATIONS_DIR,
    SOLUTION,
    SPECIAL_RULES,
    START_FIELDS,
    CaseData,
    LocationData,
)
from .frontmatter import normalise_text
from .reader import case_body_sections, case_front_matter_data, location_front_matter_data

# Zip entries get a fixed date so that exporting the same case twice gives the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


class PackageWriteError(Exception):
    """The destination cannot take the package (the message says why, plainly)."""


def package_files(data: CaseData) -> dict[str, str]:
    """The files of a case package, `{"case.md": ..., "locations/01-x.md": ...}`."""
    files = {CASE_FILE: case_file(data)}
    for location in data.locations:
        filename = location.filename or default_filename(location)
        files[f"{LOCATIONS_DIR}/{filename}"] = location_file(location)
    return files


# case.md ----------------------------------------------------------------------------------


def case_file(data: CaseData) -> str:
    front_matter = data.source_front_matter
    if not _case_front_matter_still_says(data):
        front_matter = canonical_case_front_matter(data)
    body = data.source_body if _case_body_still_says(data) else case_body(data)
    return normalise_text(f"---\n{front_matter}---\n{body}")


def _case_body_still_says(data: CaseData) -> bool:
    """Whether the author's own body (blank lines and all) still holds today's texts."""
    if not data.source_body:
        return False
    sections = case_body_sections(data.source_body)
    current = {
        "introduction": data.introduction,
        "special_rules": data.special_rules,
        "solution": data.solution,
    }
    return sections is not None and sections == current


def _case_front_matter_still_says(data: CaseData) -> bool:
    if not data.source_front_matter:
        return False
    stored = case_front_matter_data(data.source_front_matter)
    return stored is not None and stored == _front_matter_part(data)


def _front_matter_part(data: CaseData) -> CaseData:
    return replace(data, introduction="", special_rules="", solution="", locations=())


def case_body(data: CaseData) -> str:
    """The three sections. A section's text keeps its leading blank lines, so both
    "# Introduction" directly followed by text and followed by a blank line come back as
    they were written; one blank line separates sections. Empty special rules are left out."""
    sections = [
        (INTRODUCTION, data.introduction),
        (SPECIAL_RULES, data.special_rules),
        (SOLUTION, data.solution),
    ]
    parts = [
        f"# {section}\n{text.rstrip()}".rstrip("\n")
        for section, text in sections
        if section != SPECIAL_RULES or text.strip()
    ]
    return "\n\n".join(parts) + "\n"


def canonical_case_front_matter(data: CaseData) -> str:
    lines = [
        f"format: {data.format}",
        f"slug: {scalar(data.slug)}",
        f"title: {scalar(data.title)}",
        f"difficulty: {data.difficulty}",
        f"language: {scalar(data.language)}",
        f"players: {{min: {data.min_players}, max: {data.max_players}}}",
    ]
    start = [(key, getattr(data, field)) for key, field in START_FIELDS.items()]
    if any(value is not None for _, value in start):
        lines.append("start:")
        lines += [f"  {key}: {value}" for key, value in start if value is not None]
    if data.is_zoned:
        lines += ["zones:", f"  start: {scalar(data.start_zone)}"]
        if data.travel_cost is not None:
            lines.append(f"  travel_cost: {data.travel_cost}")
        names = ", ".join(
            f"{scalar(z.key, flow=True)}: {scalar(z.name, flow=True)}" for z in data.zones
        )
        lines.append(f"  names: {{{names}}}")
    lines.append("questions:")
    for question in data.questions:
        lines += [
            f"  - id: {scalar(question.key)}",
            f"    ask: {scalar(question.ask)}",
            f"    kind: {scalar(question.kind)}",
            f"    answer: {scalar(question.answer)}",
        ]
        for key in ("accept", "reject"):
            if getattr(question, key):
                lines.append(f"    {key}: {flow_list(getattr(question, key))}")
        if question.evidence:
            lines.append(f"    evidence: [{', '.join(str(n) for n in question.evidence)}]")
    return "".join(f"{line}\n" for line in lines)


# locations/*.md ---------------------------------------------------------------------------


def location_file(location: LocationData) -> str:
    front_matter = location.source_front_matter
    if not _location_front_matter_still_says(location):
        front_matter = canonical_location_front_matter(location)
    text = location.text.rstrip()
    return normalise_text(
        f"---\n{front_matter}---\n{text}\n" if text else f"---\n{front_matter}---\n"
    )


def _location_front_matter_still_says(location: LocationData) -> bool:
    if not location.source_front_matter:
        return False
    stored = location_front_matter_data(location.filename, location.source_front_matter)
    return stored is not None and stored == replace(location, text="")


def canonical_location_front_matter(location: LocationData) -> str:
    lines = [f"number: {location.number}", f"name: {scalar(location.name)}"]
    if location.icons:
        lines.append(f"icons: {flow_list(location.icons)}")
    if location.carriages is not None:
        lines.append(f"carriages: {location.carriages}")
    if location.zone:
        lines.append(f"zone: {scalar(location.zone)}")
    return "".join(f"{line}\n" for line in lines)


def default_filename(location: LocationData) -> str:
    """`12-scotland-yard.md` for a card that has no file yet."""
    ascii_name = unicodedata.normalize("NFKD", location.name).encode("ascii", "ignore").decode()
    kebab = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:60].strip("-")
    return f"{location.number:02d}-{kebab or 'card'}.md"


# YAML scalars -----------------------------------------------------------------------------


def scalar(text: str, *, flow: bool = False) -> str:
    """A string as YAML: plain where YAML reads it back as that same string, otherwise in
    double quotes ("4", "yes", "a: b" and "# x" need them)."""
    if _plain_is_safe(text, flow=flow):
        return text
    return json.dumps(text, ensure_ascii=False)  # JSON strings are YAML double-quoted ones


def flow_list(items: tuple[str, ...]) -> str:
    return f"[{', '.join(scalar(item, flow=True) for item in items)}]"


def _plain_is_safe(text: str, *, flow: bool) -> bool:
    if not text or text != text.strip() or "\n" in text:
        return False
    if flow:
        contexts = [
            (f"[{text}]", [text]),
            (f"{{k: {text}}}", {"k": text}),
            (f"{{{text}: v}}", {text: "v"}),
        ]
    else:
        contexts = [(f"k: {text}", {"k": text})]
    for document, expected in contexts:
        try:
            if yaml.safe_load(document) != expected:
                return False
        except yaml.YAMLError:
            return False
    return True


# Folders and zips -------------------------------------------------------------------------


def write_folder(files: dict[str, str], folder: Path) -> None:
    """Write a package into a folder: a new or empty one, or one that holds a package
    (an author's checkout), whose cards that are no longer in the case are removed."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise PackageWriteError(f"{folder} is a file, not a folder")
    if folder.exists() and any(folder.iterdir()) and not (folder / CASE_FILE).exists():
        raise PackageWriteError(
            f"{folder} is not empty and holds no case.md; choose an empty folder"
        )
    old_cards = set((folder / LOCATIONS_DIR).glob("*.md"))
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        old_cards.discard(path)
    for stale in old_cards:
        stale.unlink()


def write_zip(files: dict[str, str], target: Path | BinaryIO, *, folder: str) -> None:
    """A zip of the package's folder (`folder/case.md`, `folder/locations/...`)."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for relative in sorted(files):
            entry = zipfile.ZipInfo(f"{folder}/{relative}", date_time=ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, files[relative].encode("utf-8"))
