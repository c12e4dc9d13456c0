"""Reading packages: folders, zips, encodings and the normal form of text (no database)."""

import io
import zipfile

from cases.lint import lint_package
from cases.package.data import PackageFiles
from cases.package.frontmatter import normalise_text
from cases.package.reader import parse_package, read_package_path, read_zip

CASE_MD = """\
---
format: 1
slug: the-small-case
title: The Small Case
difficulty: 1
players: {min: 1, max: 7}
questions:
  - id: culprit
    ask: Who did it?
    kind: person
    answer: Margaret Doyle
    evidence: [1]
---
# Introduction
Someone did it.

# Solution
Margaret Doyle did it: she was at Scotland Yard [[1]].
"""
CARD_MD = "---\nnumber: 1\nname: Scotland Yard\n---\nMargaret Doyle was here.\n"
PACKAGE = {"case.md": CASE_MD, "locations/01-scotland-yard.md": CARD_MD}


def make_zip(entries: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def messages(files) -> list[str]:
    _, problems = lint_package(files)
    return [str(problem) for problem in problems]


def test_it_reads_a_package_built_in_memory():
    data, problems = parse_package(PACKAGE)

    assert problems == []
    assert data.slug == "the-small-case"
    assert data.questions[0].answer == "Margaret Doyle"
    assert data.locations[0].filename == "01-scotland-yard.md"
    assert data.locations[0].text == "Margaret Doyle was here."


def test_it_reads_a_zip_with_the_package_at_its_root():
    files = read_zip(make_zip(PACKAGE))

    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]
    assert messages(files) == []


def test_it_reads_a_zip_with_the_package_in_a_folder():
    files = read_zip(make_zip({f"the-small-case/{name}": text for name, text in PACKAGE.items()}))

    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]
    assert messages(files) == []


def test_it_ignores_hidden_files_and_macos_folders_in_a_zip():
    entries = {**PACKAGE, ".DS_Store": "x", "__MACOSX/case.md": "x", "locations/.swp": "x"}

    files = read_zip(make_zip(entries))

    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]


def test_it_refuses_zip_paths_that_leave_the_package():
    entries = {**PACKAGE, "../evil.md": "x", "locations/../../evil.md": "x", "/etc/passwd": "x"}

    files = read_zip(make_zip(entries))

    assert "../evil.md" not in files
    assert messages(files) == [
        "../evil.md: the zip holds a path that leaves the package (..); it was refused",
        "/etc/passwd: the zip holds an absolute path; it was refused",
        "locations/../../evil.md: the zip holds a path that leaves the package (..); "
        "it was refused",
    ]


def test_it_refuses_windows_absolute_paths_in_a_zip():
    files = read_zip(make_zip({**PACKAGE, "C:\\Windows\\evil.md": "x"}))

    assert messages(files) == ["C:/Windows/evil.md: the zip holds an absolute path; it was refused"]


def test_it_reports_a_file_that_is_not_a_zip(tmp_path):
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really a zip")

    assert messages(read_zip(broken.read_bytes(), label="broken.zip"))[0].startswith(
        "broken.zip: the zip cannot be read"
    )


def test_it_reports_a_path_that_does_not_exist(tmp_path):
    missing = tmp_path / "nowhere"

    assert messages(read_package_path(missing)) == [f"{missing}: there is no folder or zip here"]


def test_it_reports_a_file_that_is_neither_folder_nor_zip(tmp_path):
    text = tmp_path / "case.txt"
    text.write_text("hello")

    assert messages(read_package_path(text)) == [f"{text}: this is neither a folder nor a zip"]


def test_it_reads_a_zip_file_from_disk(tmp_path):
    archive = tmp_path / "the-small-case.zip"
    archive.write_bytes(make_zip({f"the-small-case/{name}": t for name, t in PACKAGE.items()}))

    assert messages(read_package_path(archive)) == []


def test_it_ignores_files_outside_the_package_folder_of_a_zip_with_a_warning():
    entries = {f"the-small-case/{name}": text for name, text in PACKAGE.items()}
    entries["notes.txt"] = "mine"

    assert messages(read_zip(make_zip(entries))) == [
        "notes.txt: warning: this file is outside the package folder the-small-case/ and is ignored"
    ]


def test_it_reports_a_zip_without_case_md_anywhere():
    assert messages(read_zip(make_zip({"a/locations/01-x.md": CARD_MD, "b/x.md": "x"}))) == [
        "a/locations/01-x.md: warning: this file is not part of a case package and is ignored",
        "b/x.md: warning: this file is not part of a case package and is ignored",
        "case.md: the package has no case.md",
        "locations/: the package has no location cards (locations/*.md)",
    ]


def test_it_carries_reading_problems_with_the_files():
    files = PackageFiles(PACKAGE, problems=[])
    files.problems.append(read_package_path("/nonexistent/x").problems[0])

    assert messages(files) == ["/nonexistent/x: there is no folder or zip here"]


def test_it_accepts_windows_line_ends_and_a_byte_order_mark():
    files = {
        "case.md": "\ufeff" + CASE_MD.replace("\n", "\r\n"),
        "locations/01-scotland-yard.md": CARD_MD.replace("\n", "\r\n").encode("utf-8"),
    }

    data, problems = parse_package(files)

    assert problems == []
    assert data == parse_package(PACKAGE)[0]


def test_it_normalises_trailing_whitespace_only():
    assert normalise_text("a  \n\n  b\t\n\n\n") == "a\n\n  b\n"
    assert normalise_text("") == ""
    assert normalise_text("x") == "x\n"


def test_it_keeps_yes_and_numbers_as_the_text_written():
    case = CASE_MD.replace(
        "    evidence: [1]\n",
        "    evidence: [1]\n  - id: sure\n    ask: Sure?\n    kind: yes_no\n    answer: yes\n"
        "  - id: hour\n    ask: When?\n    kind: number\n    answer: 04.0\n    accept: [4, four]\n",
    )

    data, problems = parse_package({**PACKAGE, "case.md": case})

    assert [q.answer for q in data.questions] == ["Margaret Doyle", "yes", "04.0"]
    assert data.questions[2].accept == ("4", "four")


def test_it_reads_a_number_written_with_a_leading_zero_as_decimal():
    card = CARD_MD.replace("number: 1", "number: 010")

    data, _ = parse_package({**PACKAGE, "locations/01-scotland-yard.md": card})

    assert data.locations[0].number == 10  # not YAML 1.1's octal 8


def test_it_keeps_the_line_of_each_value():
    data, _ = parse_package(PACKAGE)

    assert data.lines["slug"] == 3
    assert data.lines["players.min"] == 6
    assert data.questions[0].lines["answer"] == 11
    assert data.questions[0].lines["evidence.0"] == 12
    assert data.lines["introduction"] == 15
    assert data.locations[0].lines["name"] == 3


def test_it_ignores_headings_inside_code_fences():
    case = CASE_MD.replace("Someone did it.", "Someone did it.\n\n~~~\n# Solution\n~~~")

    data, problems = parse_package({**PACKAGE, "case.md": case})

    assert problems == []
    assert "# Solution" in data.introduction


def test_it_reports_an_empty_required_mapping_and_accepts_an_empty_optional_one():
    case = CASE_MD.replace("players: {min: 1, max: 7}", "players:\nstart:\nzones:")

    assert messages({**PACKAGE, "case.md": case}) == ['case.md:6: "players" is empty']
