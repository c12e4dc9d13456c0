"""Every broken package in tests/data/broken_packages/ gives exactly its listed problems.

`expected.yaml` there names each package, what it checks, and the full list of problems
(as `lint_case` prints them) in order. Nothing here needs the database.
"""

from pathlib import Path

import pytest
import yaml

from cases.lint import lint_package
from cases.package.reader import read_package_path

CORPUS = Path(__file__).resolve().parent.parent / "data" / "broken_packages"
EXPECTED = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
PACKAGES = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())


def test_it_lists_every_broken_package_in_expected_yaml():
    assert sorted(EXPECTED) == PACKAGES
    assert len(PACKAGES) >= 15


@pytest.mark.parametrize("name", PACKAGES)
def test_it_reports_exactly_the_expected_problems(name):
    _, problems = lint_package(read_package_path(CORPUS / name))

    assert [str(problem) for problem in problems] == EXPECTED[name]["problems"]


@pytest.mark.parametrize("name", PACKAGES)
def test_it_gives_every_problem_a_file_and_a_sentence(name):
    _, problems = lint_package(read_package_path(CORPUS / name))

    assert problems
    for problem in problems:
        assert problem.file
        assert problem.line is None or problem.line >= 1
        assert problem.message and not problem.message.endswith(".")
