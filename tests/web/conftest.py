"""Page tests share the tutorial tables of tests/play (alice hosts; bob and charlie join),
and start with no throttle counts (sign-up and password reset count per hour)."""

from tests.play.conftest import fresh_throttles, lobby, started, tutorial  # noqa: F401
