"""Importing and exporting packages through the services and the management commands."""

import io
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cases.models import Case, CaseVersion, Location, Question, VersionStatus, Zone
from cases.package.frontmatter import normalise_text
from cases.package.reader import parse_package, read_package_path
from cases.selectors import case_export_package, case_version_data
from cases.services import PackageInvalid, case_import_package

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ROOT / "tests" / "data" / "packages"
BROKEN = ROOT / "tests" / "data" / "broken_packages"
LAMBETH = PACKAGES / "the-lambeth-poisoner"
WAPPING = PACKAGES / "the-wapping-ledger"
GOOD_PACKAGES = sorted(PACKAGES.iterdir())
SAMPLE_CASES = sorted(
    p for p in (ROOT / "fixtures" / "cases").glob("*") if (p / "case.md").exists()
)

pytestmark = pytest.mark.django_db


def as_text(files) -> dict[str, str]:
    return {name: normalise_text(content.decode("utf-8")) for name, content in files.items()}


def import_folder(folder: Path, **kwargs):
    return case_import_package(files=read_package_path(folder), **kwargs)


def run(command: str, *args) -> str:
    out = io.StringIO()
    call_command(command, *[str(arg) for arg in args], stdout=out)
    return out.getvalue()


# The import service ----------------------------------------------------------------------


def test_it_imports_a_package_as_a_first_draft(alice):
    result = import_folder(WAPPING, author=alice)

    version = result.version
    assert result.created_case
    assert (version.case.slug, version.case.author, version.number) == (
        "the-wapping-ledger",
        alice,
        1,
    )
    assert version.status == VersionStatus.DRAFT
    assert (version.min_players, version.max_players, version.start_carriages) == (2, 5, 8)
    assert [z.key for z in version.zones.all()] == ["city", "river"]
    assert list(version.questions.values_list("key", flat=True)) == [
        "forger",
        "ledger",
        "sacks",
        "night",
    ]
    assert version.questions.get(key="forger").accept == ["Joe Bellweather"]
    card = version.locations.get(number=1)
    assert (card.zone.key, card.icons, card.filename) == (
        "river",
        ["police", "call_off"],
        "01-wapping-stairs.md",
    )


def test_it_keeps_the_warnings_and_notes_of_an_imported_package():
    result = import_folder(LAMBETH)

    assert [str(p) for p in result.problems] == [
        "locations/20-the-docks.md:2: note: card 20 is not evidence for any question"
    ]


def test_it_imports_a_case_again_as_a_new_version(alice):
    first = import_folder(WAPPING, author=alice, publish=True).version

    second = import_folder(WAPPING, author=alice).version

    first.refresh_from_db()
    assert (second.number, second.status) == (2, VersionStatus.DRAFT)
    assert first.status == VersionStatus.PUBLISHED  # a draft never replaces what players see
    assert Case.objects.count() == 1


def test_it_publishes_a_new_version_and_archives_the_old_one():
    first = import_folder(WAPPING, publish=True).version

    second = import_folder(WAPPING, publish=True).version

    first.refresh_from_db()
    assert (first.status, second.status) == (VersionStatus.ARCHIVED, VersionStatus.PUBLISHED)
    assert second.published_at is not None


def test_it_writes_nothing_for_a_package_with_errors():
    with pytest.raises(PackageInvalid) as invalid:
        import_folder(BROKEN / "duplicate-numbers-and-ids")

    assert (
        "locations/02-the-docks.md:3: number 12 is used twice "
        "(also in locations/01-scotland-yard.md)"
        in [str(problem) for problem in invalid.value.problems]
    )
    assert not Case.objects.exists()
    assert not Location.objects.exists()


def test_it_leaves_an_existing_case_alone_when_a_new_version_has_errors():
    import_folder(WAPPING)
    broken = as_text(read_package_path(WAPPING))
    broken["locations/02-the-warehouse.md"] = broken["locations/02-the-warehouse.md"].replace(
        "number: 2", "number: 1"
    )

    with pytest.raises(PackageInvalid):
        case_import_package(files=broken)

    assert CaseVersion.objects.count() == 1
    assert Question.objects.count() == 4


def test_it_refuses_a_slug_that_belongs_to_another_author(alice, bob):
    import_folder(WAPPING, author=alice)

    with pytest.raises(PackageInvalid) as invalid:
        import_folder(WAPPING, author=bob)

    assert [str(p) for p in invalid.value.problems] == [
        'case.md:3: the slug "the-wapping-ledger" belongs to another author\'s case; '
        "choose another slug"
    ]
    assert CaseVersion.objects.count() == 1


# Round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("folder", GOOD_PACKAGES + SAMPLE_CASES, ids=lambda path: path.name)
def test_it_exports_exactly_the_files_it_imported(folder):
    files = read_package_path(folder)
    version = case_import_package(files=files).version

    assert case_export_package(version=version) == as_text(files)


def test_it_gives_back_the_blank_lines_an_author_left_around_headings():
    files = read_package_path(LAMBETH)
    case_md = files["case.md"].decode("utf-8")
    front, _, body = case_md.partition("\n---\n")
    airy = front + "\n---\n\n\n" + body.replace("\n# Solution", "\n\n\n# Solution")
    files = {**files, "case.md": airy.encode("utf-8")}
    version = case_import_package(files=files).version

    assert case_export_package(version=version)["case.md"] == normalise_text(airy)


def test_it_writes_the_canonical_body_once_a_section_is_edited():
    version = import_folder(LAMBETH).version
    version.solution = "Holmes names the poisoner."
    version.save()

    exported = case_export_package(version=version)["case.md"]

    assert exported.endswith("\n\n# Solution\nHolmes names the poisoner.\n")
    again = case_import_package(files=case_export_package(version=version)).version
    assert again.solution == "Holmes names the poisoner."


def test_it_exports_canonical_front_matter_after_an_edit_and_imports_it_back():
    version = import_folder(LAMBETH).version
    question = version.questions.get(key="culprit")
    question.answer = "Margaret Doyle"
    question.accept = ["Meg Doyle"]
    question.save()
    version.title = "The Lambeth Poisoner: a new edition"
    version.save()

    exported = case_export_package(version=version)

    assert "# The spec's example" not in exported["case.md"]
    assert 'title: "The Lambeth Poisoner: a new edition"\n' in exported["case.md"]
    assert "    answer: Margaret Doyle\n    accept: [Meg Doyle]\n" in exported["case.md"]
    assert "number: 7        # the kitchen" in exported["locations/02-hale-kitchen.md"]  # unchanged
    again = case_import_package(files=exported).version
    assert case_version_data(version=again) == case_version_data(version=version)
    assert parse_package(exported)[0] == case_version_data(version=version)


def test_it_exports_a_card_added_in_the_editor_under_a_new_file_name():
    version = import_folder(WAPPING).version
    Location.objects.create(
        version=version,
        number=4,
        name="The Thames Police",
        text="Boats.",
        zone=Zone.objects.get(key="river"),
    )

    exported = case_export_package(version=version)

    assert exported["locations/04-the-thames-police.md"] == (
        "---\nnumber: 4\nname: The Thames Police\nzone: river\n---\nBoats.\n"
    )


# The commands ----------------------------------------------------------------------------


def test_it_imports_and_reports_with_import_case(alice):
    output = run("import_case", LAMBETH, "--author", "alice", "--publish")

    assert output.splitlines() == [
        "locations/20-the-docks.md:2: note: card 20 is not evidence for any question",
        "0 errors, 0 warnings, 1 note",
        "Imported the-lambeth-poisoner as version 1 (published).",
    ]
    assert Case.objects.get().author == alice


def test_it_lists_every_problem_and_fails_with_import_case():
    out = io.StringIO()

    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_case", str(BROKEN / "carriages"), stdout=out)

    assert out.getvalue().splitlines() == [
        "locations/01-scotland-yard.md:5: carriages is only for cards with the carriages icon",
        "locations/02-the-cab-rank.md:5: carriages 0 is out of range: use 1 to 99",
        "2 errors, 0 warnings",
    ]
    assert not Case.objects.exists()


def test_it_refuses_an_unknown_author_with_import_case():
    with pytest.raises(CommandError, match="there is no user nobody"):
        run("import_case", LAMBETH, "--author", "nobody")


def test_it_writes_a_folder_with_export_case(tmp_path):
    import_folder(WAPPING)

    output = run("export_case", "the-wapping-ledger", tmp_path / "out")

    assert output == f"Exported the-wapping-ledger version 1 to {tmp_path / 'out'}.\n"
    written = {
        path.relative_to(tmp_path / "out").as_posix(): path.read_bytes()
        for path in (tmp_path / "out").rglob("*.md")
    }
    assert as_text(written) == as_text(read_package_path(WAPPING))


def test_it_writes_a_zip_that_imports_again_with_export_case(tmp_path):
    import_folder(WAPPING)

    run("export_case", "the-wapping-ledger", tmp_path / "case.zip")
    run("import_case", tmp_path / "case.zip")

    assert "the-wapping-ledger/case.md" in zipfile.ZipFile(tmp_path / "case.zip").namelist()
    assert CaseVersion.objects.count() == 2


def test_it_exports_a_chosen_version_with_export_case(tmp_path):
    import_folder(WAPPING)
    second = import_folder(WAPPING).version
    second.title = "Changed"
    second.save()

    run("export_case", "the-wapping-ledger", tmp_path / "v1", "--version", 1)

    assert "title: The Wapping Ledger\n" in (tmp_path / "v1" / "case.md").read_text()


def test_it_fails_for_an_unknown_case_with_export_case(tmp_path):
    with pytest.raises(CommandError, match="there is no case the-nowhere-case"):
        run("export_case", "the-nowhere-case", tmp_path / "x")


def test_it_fails_for_an_unknown_version_with_export_case(tmp_path):
    import_folder(WAPPING)

    with pytest.raises(CommandError, match="there is no version 3 of case the-wapping-ledger"):
        run("export_case", "the-wapping-ledger", tmp_path / "x", "--version", 3)


def test_it_refuses_a_folder_holding_something_else_with_export_case(tmp_path):
    import_folder(WAPPING)
    (tmp_path / "thesis.tex").write_text("mine")

    with pytest.raises(CommandError, match="not empty and holds no case.md"):
        run("export_case", "the-wapping-ledger", tmp_path)


def test_it_checks_a_folder_with_lint_case():
    assert run("lint_case", WAPPING) == "0 errors, 0 warnings\n"


def test_it_fails_on_errors_with_lint_case():
    out = io.StringIO()

    with pytest.raises(CommandError, match="the case has errors"):
        call_command("lint_case", str(BROKEN / "players-reversed"), stdout=out)

    assert out.getvalue() == "case.md:6: players min 5 is more than max 3\n1 error, 0 warnings\n"


def test_it_checks_a_case_by_slug_as_its_exported_package_with_lint_case():
    version = import_folder(WAPPING).version
    version.questions.filter(key="forger").update(evidence=[1, 99])

    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("lint_case", "the-wapping-ledger", stdout=out)

    # The front matter is now canonical: the line is that of the exported case.md.
    exported = case_export_package(version=version)["case.md"].splitlines()
    line = next(n for n, text in enumerate(exported, 1) if "evidence: [1, 99]" in text)
    assert out.getvalue().splitlines()[0] == (
        f'case.md:{line}: question "forger" lists card 99 as evidence, but there is no card 99'
    )


def test_it_fails_for_something_unknown_with_lint_case():
    with pytest.raises(CommandError, match="no folder, zip or case called the-nowhere-case"):
        run("lint_case", "the-nowhere-case")
