"""`make bench` runs each listed benchmark's main(): a listed module without one would
stop the run halfway."""

import importlib

import pytest

from bench.__main__ import BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_it_lists_only_modules_with_a_main(name):
    module = importlib.import_module(f"bench.{name}")
    assert callable(module.main)


def test_it_starts_the_benchmarks_settings_under_the_production_checks():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOLMES_", "DJANGO_"))}
    env["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stderr
