"""A zip entry that zipfile cannot unpack (encrypted, compressed by a method it does not
know, or with data that is not what its method says) is a problem the importer lists by
the file's name, as for any broken package: never an uncaught RuntimeError or
NotImplementedError."""

import io
import struct
import zipfile

import pytest

from authoring import services as authoring_services
from cases.lint import lint_package
from cases.models import Case
from cases.package.reader import read_zip
from cases.services import PackageInvalid
from tests.cases.test_package_reader import CARD_MD, PACKAGE

SECRET = "locations/02-the-secret-room.md"
LOCAL_HEADER, CENTRAL_HEADER = b"PK\x03\x04", b"PK\x01\x02"


def zip_with(entries: dict[str, str], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def patched(data: bytes, name: str, *, flags: int = 0, method: int | None = None) -> bytes:
    """`data` (a zip) with `name`'s entry given more flag bits, or another compression
    method, in both its local header and the central directory's record of it."""
    data = bytearray(data)
    encoded = name.encode()
    # Local header: flags at 6, method at 8, name length at 26, the name at 30.
    # Central record: flags at 8, method at 10, name length at 28, the name at 46.
    for signature, flags_at, name_at, length_at in (
        (LOCAL_HEADER, 6, 30, 26),
        (CENTRAL_HEADER, 8, 46, 28),
    ):
        start = data.find(signature)
        while start != -1:
            (length,) = struct.unpack_from("<H", data, start + length_at)
            if bytes(data[start + name_at : start + name_at + length]) == encoded:
                (old_flags,) = struct.unpack_from("<H", data, start + flags_at)
                struct.pack_into("<H", data, start + flags_at, old_flags | flags)
                if method is not None:
                    struct.pack_into("<H", data, start + flags_at + 2, method)
                break
            start = data.find(signature, start + 1)
        else:
            raise AssertionError(f"no {signature!r} header for {name}")
    return bytes(data)


def problems_of(data: bytes) -> list[str]:
    files = read_zip(data, label="the uploaded zip")
    _, problems = lint_package(files)
    return [str(problem) for problem in problems if problem.is_error]


def package_zip() -> bytes:
    return zip_with({**PACKAGE, SECRET: CARD_MD.replace("Scotland Yard", "The Secret Room")})


def test_it_lists_an_encrypted_entry_by_its_name():
    data = patched(package_zip(), SECRET, flags=0x1)

    assert problems_of(data) == [
        f"{SECRET}: the file is encrypted (zip the package again without a password)"
    ]


def test_it_lists_an_entry_compressed_by_an_unknown_method_by_its_name():
    data = patched(package_zip(), SECRET, method=77)

    assert problems_of(data) == [
        f"{SECRET}: the file is compressed by a method this site cannot unpack (77; zip the "
        "package again with the usual one, deflate)"
    ]


def test_it_lists_an_entry_with_strong_encryption_by_its_name():
    data = patched(package_zip(), SECRET, flags=0x40)  # bit 6: zipfile's NotImplementedError

    [problem] = problems_of(data)
    assert problem.startswith(f"{SECRET}: the file cannot be unpacked (")


def test_it_lists_an_entry_whose_data_is_not_what_its_method_says_by_its_name():
    stored = zip_with({**PACKAGE, SECRET: "not deflated at all " * 20}, zipfile.ZIP_STORED)
    data = patched(stored, SECRET, method=zipfile.ZIP_DEFLATED)  # zlib.error on reading

    [problem] = problems_of(data)
    assert problem.startswith(f"{SECRET}: the file cannot be unpacked (")


def test_the_other_files_are_still_read():
    files = read_zip(patched(package_zip(), SECRET, flags=0x1))

    assert sorted(files) == ["case.md", "locations/01-scotland-yard.md"]


@pytest.mark.django_db
def test_an_upload_with_an_encrypted_entry_is_refused_and_writes_nothing(make_user):
    author = make_user("ada")
    authoring_services.user_make_author(user=author)

    with pytest.raises(PackageInvalid) as refused:
        authoring_services.case_import_zip(
            user=author, content=patched(package_zip(), SECRET, flags=0x1)
        )

    found = [str(problem) for problem in refused.value.problems]
    assert f"{SECRET}: the file is encrypted (zip the package again without a password)" in found
    assert not Case.objects.exists()
