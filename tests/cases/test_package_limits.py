"""A package cannot exhaust the server: a zip is bounded in size, in entries and in what it
unpacks to (counted from its directory before anything is unpacked); YAML is bounded in
depth and numbers in digits; a folder's symbolic links are refused. Each refusal is a
problem the importer lists, naming the limit: no traceback, nothing written."""

import io
import os
import zipfile

import pytest
from django.core.files.uploadhandler import MemoryFileUploadHandler
from django.urls import reverse

from authoring import services as authoring_services
from cases.lint import lint_package
from cases.models import Case
from cases.package import reader
from cases.package.reader import (
    MAX_FILE_BYTES,
    MAX_PACKAGE_BYTES,
    MAX_ZIP_BYTES,
    MAX_ZIP_ENTRIES,
    read_package_path,
    read_zip,
)
from cases.services import PackageInvalid, case_import_package
from cases.uploads import UploadSizeLimitHandler
from tests.cases.test_package_reader import CARD_MD, CASE_MD, PACKAGE, make_zip


def zeros_zip(entries: dict[str, int], base: dict[str, str] | None = None) -> bytes:
    """A deflated zip of `base`'s texts plus entries of that many zero bytes: a few KB of
    zip that would unpack to megabytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in (base or {}).items():
            archive.writestr(name, text)
        for name, size in entries.items():
            archive.writestr(name, b"\0" * size)
    return buffer.getvalue()


def messages(files) -> list[str]:
    _, problems = lint_package(files)
    return [str(problem) for problem in problems]


@pytest.fixture
def unpacked(monkeypatch) -> list[str]:
    """The names of the zip entries read (decompressed)."""
    opened = []
    real_open = zipfile.ZipFile.open

    def spy(self, name, mode="r", *args, **kwargs):
        if mode == "r":
            opened.append(name.filename if isinstance(name, zipfile.ZipInfo) else name)
        return real_open(self, name, mode, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    return opened


def test_it_refuses_a_zip_over_the_upload_limit_before_reading_it(unpacked):
    stored = io.BytesIO()
    with zipfile.ZipFile(stored, "w") as archive:  # stored: random bytes do not shrink
        archive.writestr("case.md", CASE_MD)
        archive.writestr("locations/big.md", os.urandom(MAX_ZIP_BYTES))

    files = read_zip(stored.getvalue(), label="the uploaded zip")

    assert dict(files) == {} and unpacked == []
    assert messages(files) == ["the uploaded zip: the zip is too large (4.0 MB; at most 4 MB)"]


def test_it_counts_every_entry_unpacked_size_before_unpacking_any(unpacked):
    # Each entry is under the 1 MB a file may hold; together they are not. Entries that
    # would be dropped (hidden, macOS folders, outside the package) count as well.
    bomb = {
        ".hidden": 900_000,
        "__MACOSX/locations/02.md": 900_000,
        "elsewhere/notes.md": 900_000,
        "locations/03.md": 900_000,
        "locations/04.md": 900_000,
    }
    archive = zeros_zip(bomb, base=PACKAGE)
    assert len(archive) < 50_000

    files = read_zip(archive)

    assert dict(files) == {} and unpacked == []
    assert messages(files) == [
        "the zip: the zip unpacks to too much (4.5 MB; a package holds at most 4 MB)"
    ]


def test_it_refuses_an_entry_whose_declared_size_is_over_the_limit_without_unpacking_it(
    unpacked,
):
    files = read_zip(zeros_zip({"locations/02-big.md": MAX_FILE_BYTES + 1}, base=PACKAGE))

    assert "locations/02-big.md" not in unpacked
    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]
    assert messages(files) == ["locations/02-big.md: the file is too large (over 1 MB)"]


def test_it_refuses_a_zip_with_too_many_entries(unpacked):
    entries = {f".empty/{n}": 0 for n in range(MAX_ZIP_ENTRIES - 1)}

    files = read_zip(zeros_zip(entries, base=PACKAGE))

    assert dict(files) == {} and unpacked == []
    assert messages(files) == [
        f"the zip: the zip holds too many entries ({MAX_ZIP_ENTRIES + 1}; at most "
        f"{MAX_ZIP_ENTRIES})"
    ]


def test_it_still_reads_a_zip_within_every_limit():
    files = read_zip(zeros_zip({".DS_Store": 100_000}, base=PACKAGE))

    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]
    assert messages(files) == []


def test_the_limits_leave_room_for_the_largest_sample_case():
    assert MAX_PACKAGE_BYTES >= 50 * 40_000  # the sample cases are under 40 KB


# --- YAML and numbers ------------------------------------------------------------------


def test_it_refuses_deeply_nested_yaml_without_a_traceback():
    deep = CASE_MD.replace("difficulty: 1", "difficulty: 1\nextra: " + "[" * 5000 + "]" * 5000)

    assert messages({**PACKAGE, "case.md": deep}) == [
        "case.md:6: the front matter nests lists and mappings too deeply (at most 20 levels)"
    ]


def test_it_refuses_deeply_nested_block_yaml_too():
    nested = "".join(f"{'  ' * depth}k{depth}:\n" for depth in range(30)) + "  " * 30 + "v"
    card = CARD_MD.replace("name: Scotland Yard", f"name: Scotland Yard\n{nested}")

    found = messages({**PACKAGE, "locations/01-scotland-yard.md": card})

    assert (
        "locations/01-scotland-yard.md:24: the front matter nests lists and mappings too "
        "deeply (at most 20 levels)" in found
    )


def test_it_refuses_a_number_of_thousands_of_digits_without_a_traceback():
    huge = CASE_MD.replace("difficulty: 1", "difficulty: " + "9" * 5000)

    assert messages({**PACKAGE, "case.md": huge}) == [
        'case.md:5: "difficulty" must be a whole number of at most 9 digits'
    ]


@pytest.mark.django_db
def test_import_refuses_such_a_package_and_writes_nothing():
    huge = CASE_MD.replace("difficulty: 1", "difficulty: " + "9" * 5000)
    deep = CARD_MD.replace("name: Scotland Yard", "name: Scotland Yard\nx: " + "{a: " * 3000)

    with pytest.raises(PackageInvalid) as refused:
        case_import_package(
            files=read_zip(make_zip({"case.md": huge, "locations/01-scotland-yard.md": deep}))
        )

    found = [str(problem) for problem in refused.value.problems]
    assert 'case.md:5: "difficulty" must be a whole number of at most 9 digits' in found
    assert (
        "locations/01-scotland-yard.md:4: the front matter nests lists and mappings too deeply "
        "(at most 20 levels)" in found
    )
    assert not Case.objects.exists()


# --- Folders ---------------------------------------------------------------------------


def write_package(folder, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_it_refuses_a_symbolic_link_in_a_package_folder(tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("---\nnumber: 2\nname: The Secret\n---\nNot for the package.\n")
    package = tmp_path / "package"
    write_package(package, PACKAGE)
    (package / "locations" / "02-secret.md").symlink_to(secret)
    (package / "linked").symlink_to(tmp_path, target_is_directory=True)

    files = read_package_path(package)

    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]
    assert messages(files) == [
        "locations/02-secret.md: the file is a symbolic link; it was refused",
    ]


def test_it_bounds_what_a_folder_holds_in_all(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_PACKAGE_BYTES", 1_000_000)
    package = tmp_path / "package"
    long_card = CARD_MD + "x" * 600_000
    write_package(package, {**PACKAGE, "locations/02.md": long_card, "locations/03.md": long_card})

    files = read_package_path(package)

    assert dict(files) == {}
    assert messages(files) == [
        f"{package}: the package is too large (1.2 MB; a package holds at most 1 MB)"
    ]


# --- The admin's upload ------------------------------------------------------------------


def test_the_upload_handler_passes_on_no_more_than_the_limit_and_a_byte():
    handler = UploadSizeLimitHandler()
    handler.new_file("package", "case.zip", "application/zip", None)
    chunk = b"x" * 1_000_000
    passed = [handler.receive_data_chunk(chunk, start) for start in range(0, 10_000_000, 1_000_000)]

    assert sum(len(part or b"") for part in passed) == MAX_ZIP_BYTES + 1
    assert passed[-1] is None


@pytest.mark.django_db
def test_the_admin_upload_lists_the_size_limit_and_writes_nothing(client, make_user, settings):
    author = make_user("ada")
    authoring_services.user_make_author(user=author)
    client.force_login(author)
    package = io.BytesIO(b"PK" + os.urandom(MAX_ZIP_BYTES + 5_000_000))
    package.name = "case.zip"

    response = client.post(reverse("admin:cases_caseversion_import"), {"package": package})

    assert response.status_code == 200
    assert "the zip is too large" in response.content.decode()
    assert "at most 4 MB" in response.content.decode()
    assert not Case.objects.exists()
    assert settings.FILE_UPLOAD_HANDLERS[0] == "cases.uploads.UploadSizeLimitHandler"
    assert MemoryFileUploadHandler.__module__ in settings.FILE_UPLOAD_HANDLERS[1]
