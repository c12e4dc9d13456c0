"""Run the Django test suite a second time, on PostgreSQL.

`make test` runs everything on SQLite first, then this. The engine tests need no
database, so they are not run again. When PostgreSQL cannot be reached the run is skipped
with a reason, unless HOLMES_REQUIRE_SERVICES=1 (as in CI), where that is a failure.
"""

import os
import subprocess
import sys

from holmes_site.postgres import postgres_problem

# One database name per run (pytest-django creates test_<name> and drops it afterwards),
# so two test runs on one machine never share a database.
DEFAULT_URL = f"postgres://postgres@127.0.0.1:5432/holmes_{os.getpid()}"
PURE_TEST_DIRS = ["tests/games"]


def main() -> int:
    url = os.environ.get("HOLMES_TEST_DATABASE_URL", DEFAULT_URL)
    problem = postgres_problem(url)
    if problem:
        required = os.environ.get("HOLMES_REQUIRE_SERVICES") == "1"
        verdict = "FAILED" if required else "skipped"
        print(f"PostgreSQL run {verdict}: cannot reach {url}: {problem}")
        return 1 if required else 0
    print(f"Running the Django tests again on PostgreSQL ({url})", flush=True)
    ignores = [f"--ignore={path}" for path in PURE_TEST_DIRS]
    env = {**os.environ, "DATABASE_URL": url}
    command = [sys.executable, "-m", "pytest", *ignores, *sys.argv[1:]]
    return subprocess.call(command, env=env)


if __name__ == "__main__":
    sys.exit(main())
