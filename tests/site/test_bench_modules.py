"""`make bench` runs each listed benchmark's main(): a listed module without one would
stop the run halfway."""

import importlib

import pytest

from bench.__main__ import BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_it_lists_only_modules_with_a_main(name):
    module = importlib.import_module(f"bench.{name}")
    assert callable(module.main)
