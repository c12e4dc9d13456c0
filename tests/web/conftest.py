"""Page tests share the tutorial tables of tests/play (alice hosts; bob and charlie join)."""

from tests.play.conftest import lobby, started, tutorial  # noqa: F401
