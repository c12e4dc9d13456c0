"""Small PostgreSQL chores for `make up`, `make test` and `make bench`: reach the server,
create or drop a database. Each reports an unreachable server as a sentence, not a
traceback.

`python -m holmes_site.postgres ensure URL` creates the database at URL if it is missing.
"""

import sys

import psycopg


def admin_url(url: str) -> str:
    """The same server's `postgres` database, from which others are created and dropped."""
    return url.rsplit("/", 1)[0] + "/postgres"


def database_name(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0]


def postgres_problem(url: str) -> str | None:
    """Why the server behind `url` cannot be reached, or None when it can."""
    try:
        with psycopg.connect(admin_url(url), connect_timeout=5):
            return None
    except psycopg.Error as error:
        return _first_line(error)


def postgres_ensure(url: str) -> str | None:
    """Create the database at `url` if it is missing; keep it if it exists."""
    name = database_name(url)
    try:
        with psycopg.connect(admin_url(url), autocommit=True, connect_timeout=5) as db:
            exists = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                db.execute(f'CREATE DATABASE "{name}"')
                print(f"Created the database {name}")
    except psycopg.Error as error:
        return _first_line(error)
    return None


def postgres_create(url: str) -> str | None:
    """A fresh, empty database at `url` (an older one of that name is dropped first)."""
    name = database_name(url)
    try:
        with psycopg.connect(admin_url(url), autocommit=True, connect_timeout=5) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            db.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        return _first_line(error)
    return None


def postgres_drop(url: str) -> None:
    with psycopg.connect(admin_url(url), autocommit=True, connect_timeout=5) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{database_name(url)}" WITH (FORCE)')


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "ensure":
        print("usage: python -m holmes_site.postgres ensure DATABASE_URL")
        return 2
    problem = postgres_ensure(argv[1])
    if problem:
        print(f"Cannot reach PostgreSQL at {argv[1]}: {problem}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
