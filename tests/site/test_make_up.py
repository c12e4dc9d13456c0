"""`make up` runs the scaled set-up as production does (issue 22): DEBUG off, a real secret
key, the static files collected before the site serves a page, and no demo accounts with
known passwords; `make up-dev` is the development variant, named as such. Read from
`make -n`, which prints the commands without running them."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def commands(target: str) -> list[str]:
    done = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [line for line in done.stdout.splitlines() if "manage.py" in line or "honcho" in line]


def test_make_up_runs_with_debug_off_and_collects_the_static_files_first():
    steps = commands("up")
    assert steps, "make up runs nothing?"
    assert all("HOLMES_DEBUG=0" in step for step in steps)
    assert all('HOLMES_SECRET_KEY="$(cat ' in step for step in steps)
    names = [next(word for word in ("migrate", "collectstatic", "check --deploy", "honcho")
                  if word in step) for step in steps]  # fmt: skip
    assert names == ["migrate", "collectstatic", "check --deploy", "honcho"]


def test_make_up_creates_no_demo_accounts():
    assert not [step for step in commands("up") if "load_demo" in step]


def test_make_up_dev_is_the_development_variant_with_the_demo():
    steps = commands("up-dev")
    assert all("HOLMES_DEBUG=1" in step for step in steps)
    assert any("load_demo" in step for step in steps)
    assert steps[-1].endswith("honcho start -f Procfile")
