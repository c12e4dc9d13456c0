"""Every sample case is solvable by reading its evidence: three players read exactly the
evidence cards (and a lockpick's card where an evidence card is locked), through the table
services, and answer at 221B with the solution's answers."""

from pathlib import Path

import pytest

from bench.casebook import MAX_ROUNDS, SAMPLE_CASES, play_through
from cases.package.reader import read_package_path
from cases.services import case_import_package

CASES = sorted(path for path in SAMPLE_CASES.iterdir() if (path / "case.md").exists())


@pytest.mark.parametrize("folder", CASES, ids=lambda path: Path(path).name)
def test_it_solves_the_case_by_reading_its_evidence(folder, alice, bob, charlie):
    version = case_import_package(
        files=read_package_path(folder), author=alice, publish=True
    ).version

    run = play_through(version, [alice, bob, charlie])

    assert run.read == run.evidence
    assert all("lockpick" in _icons(version, number) for number in run.access)
    assert run.solved, f"{run.slug}: not solved in {run.rounds} rounds"
    assert run.rounds <= MAX_ROUNDS


def _icons(version, number: int) -> list[str]:
    return version.locations.get(number=number).icons
