"""Writing packages: exact round trips, canonical output, folders and zips (no database)."""

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from cases.package.data import CaseData, LocationData, QuestionData, ZoneData
from cases.package.frontmatter import normalise_text
from cases.package.reader import parse_package, read_package_path, read_zip
from cases.package.writer import (
    PackageWriteError,
    default_filename,
    package_files,
    scalar,
    write_folder,
    write_zip,
)

DATA = Path(__file__).resolve().parent.parent / "data"
GOOD_PACKAGES = sorted((DATA / "packages").iterdir())
FIXTURES = Path(__file__).resolve().parent.parent.parent / "fixtures" / "cases"
SAMPLE_CASES = sorted(path for path in FIXTURES.glob("*") if (path / "case.md").exists())


def as_text(files) -> dict[str, str]:
    """A package as normalised text, the form the round trip promises to keep."""
    return {name: normalise_text(content.decode("utf-8")) for name, content in files.items()}


def without_sources(data: CaseData) -> CaseData:
    """The data as the editor would hold it, with no author front matter to reuse."""
    locations = tuple(replace(location, source_front_matter="") for location in data.locations)
    return replace(data, source_front_matter="", locations=locations)


@pytest.mark.parametrize("folder", GOOD_PACKAGES + SAMPLE_CASES, ids=lambda path: path.name)
def test_it_writes_back_the_files_it_read(folder):
    files = read_package_path(folder)
    data, problems = parse_package(files)

    assert not [problem for problem in problems if problem.is_error]
    assert package_files(data) == as_text(files)


def test_it_writes_the_canonical_package_byte_for_byte():
    files = read_package_path(DATA / "packages" / "the-wapping-ledger")
    data, _ = parse_package(files)

    assert package_files(without_sources(data)) == as_text(files)


def test_it_keeps_comments_and_odd_formatting_while_the_data_is_unchanged():
    files = read_package_path(DATA / "packages" / "the-lambeth-poisoner")
    data, _ = parse_package(files)

    written = package_files(data)

    assert "# keys in any order" in written["case.md"]
    assert "number: 7        # the kitchen" in written["locations/02-hale-kitchen.md"]
    assert written["locations/02-hale-kitchen.md"].endswith("normalised on this line.\n")


def test_it_falls_back_to_canonical_front_matter_once_the_data_changed():
    data, _ = parse_package(read_package_path(DATA / "packages" / "the-lambeth-poisoner"))
    question = replace(data.questions[0], accept=("Meg Doyle",))
    changed = replace(data, questions=(question, *data.questions[1:]))

    written = package_files(changed)

    assert "# keys in any order" not in written["case.md"]
    assert "    accept: [Meg Doyle]\n" in written["case.md"]
    assert "# Introduction\nRead aloud at the start." in written["case.md"]  # body as written
    assert parse_package(written)[0] == changed


@pytest.mark.parametrize("folder", GOOD_PACKAGES + SAMPLE_CASES, ids=lambda path: path.name)
def test_it_writes_canonical_files_that_read_back_to_the_same_data(folder):
    data, _ = parse_package(read_package_path(folder))
    canonical = package_files(without_sources(data))

    again, problems = parse_package(canonical)

    assert again == data
    assert not [problem for problem in problems if problem.is_error]
    assert package_files(again) == canonical


def test_it_writes_a_case_from_the_editor_in_the_spec_style():
    data = CaseData(
        slug="the-editor-case",
        title="The Editor Case: Part 1",
        difficulty=0,
        zones=(ZoneData("city", "London"), ZoneData("country", "Surrey")),
        start_zone="city",
        travel_cost=2,
        questions=(
            QuestionData("culprit", "Who?", "person", "Ann Lee", accept=("Annie Lee",)),
            QuestionData("hour", "When?", "number", "4", accept=("16", "four o'clock")),
            QuestionData("sure", "Sure?", "yes_no", "yes"),
        ),
        introduction="It begins.",
        solution="It ends.",
        locations=(LocationData("", 12, "Scotland Yard", "Ann Lee.", ("police",), None, "city"),),
    )

    files = package_files(data)

    assert files["case.md"] == (
        '---\nformat: 1\nslug: the-editor-case\ntitle: "The Editor Case: Part 1"\n'
        "difficulty: 0\nlanguage: en\nplayers: {min: 1, max: 7}\n"
        "zones:\n  start: city\n  travel_cost: 2\n  names: {city: London, country: Surrey}\n"
        "questions:\n"
        "  - id: culprit\n    ask: Who?\n    kind: person\n    answer: Ann Lee\n"
        "    accept: [Annie Lee]\n"
        '  - id: hour\n    ask: When?\n    kind: number\n    answer: "4"\n'
        '    accept: ["16", four o\'clock]\n'
        '  - id: sure\n    ask: Sure?\n    kind: yes_no\n    answer: "yes"\n'
        "---\n# Introduction\nIt begins.\n\n# Solution\nIt ends.\n"
    )
    assert files["locations/12-scotland-yard.md"] == (
        "---\nnumber: 12\nname: Scotland Yard\nicons: [police]\nzone: city\n---\nAnn Lee.\n"
    )
    assert parse_package(files)[0] == replace(
        data, locations=(replace(data.locations[0], filename="12-scotland-yard.md"),)
    )


@pytest.mark.parametrize(
    ("text", "flow", "written"),
    [
        ("Scotland Yard", False, "Scotland Yard"),
        ("Who poisoned Mr. Hale?", False, "Who poisoned Mr. Hale?"),
        ("four o'clock", True, "four o'clock"),
        ("4", False, '"4"'),
        ("no", False, '"no"'),
        ("null", False, '"null"'),
        ("a: b", False, '"a: b"'),
        ("a # b", False, '"a # b"'),
        ("#1", False, '"#1"'),
        ("a, b", True, '"a, b"'),
        ("[x]", False, '"[x]"'),
        ("' quoted", False, '"\' quoted"'),
        ('say "hi"', True, 'say "hi"'),
        ("line\nbreak", False, '"line\\nbreak"'),
        ("", False, '""'),
    ],
)
def test_it_quotes_strings_only_where_yaml_needs_it(text, flow, written):
    assert scalar(text, flow=flow) == written


def test_it_names_new_card_files_after_number_and_name():
    assert default_filename(LocationData("", 7, "Mrs. Hudson's Café")) == "07-mrs-hudson-s-cafe.md"
    assert default_filename(LocationData("", 112, "!!!")) == "112-card.md"


def test_it_writes_a_folder_and_replaces_an_older_export(tmp_path):
    files = {"case.md": "c\n", "locations/01-a.md": "a\n"}
    write_folder(files, tmp_path / "out")
    (tmp_path / "out" / "notes.txt").write_text("mine")

    write_folder({"case.md": "c2\n", "locations/02-b.md": "b\n"}, tmp_path / "out")

    written = sorted(
        p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*")
    )
    assert written == ["case.md", "locations", "locations/02-b.md", "notes.txt"]


def test_it_refuses_to_write_into_a_folder_that_holds_something_else(tmp_path):
    (tmp_path / "thesis.tex").write_text("mine")

    with pytest.raises(PackageWriteError, match="not empty and holds no case.md"):
        write_folder({"case.md": "c\n"}, tmp_path)


def test_it_writes_a_zip_of_the_package_folder_that_reads_back():
    files = package_files(
        parse_package(read_package_path(DATA / "packages" / "the-wapping-ledger"))[0]
    )
    first, second = io.BytesIO(), io.BytesIO()

    write_zip(files, first, folder="the-wapping-ledger")
    write_zip(files, second, folder="the-wapping-ledger")

    assert first.getvalue() == second.getvalue()  # same case, same bytes
    names = zipfile.ZipFile(first).namelist()
    assert "the-wapping-ledger/case.md" in names
    assert as_text(read_zip(first.getvalue())) == files
