"""`make up` creates its database when it is missing and keeps it when it exists
(holmes_site.postgres.postgres_ensure), against the machine's real PostgreSQL."""

import os
import uuid

import psycopg

from holmes_site.postgres import admin_url, postgres_drop, postgres_ensure
from tests.conftest import require_service

SERVER = os.environ.get("HOLMES_TEST_POSTGRES_SERVER", "postgres://postgres@127.0.0.1:5432")


def database_exists(url: str) -> bool:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url(url), autocommit=True, connect_timeout=5) as db:
        row = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return row is not None


def test_it_creates_the_database_once_and_keeps_what_it_holds():
    url = f"{SERVER}/holmes_up_{uuid.uuid4().hex[:12]}"
    try:
        psycopg.connect(admin_url(url), connect_timeout=3).close()
    except psycopg.Error as error:
        require_service("PostgreSQL", str(error).strip().splitlines()[0])
    try:
        assert postgres_ensure(url) is None
        assert database_exists(url)
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("CREATE TABLE kept (id int)")

        assert postgres_ensure(url) is None  # a second `make up`

        with psycopg.connect(url, autocommit=True) as db:
            assert db.execute("SELECT count(*) FROM kept").fetchone() == (0,)
    finally:
        postgres_drop(url)


def test_it_says_why_when_postgresql_cannot_be_reached():
    # Port 9 (discard) on the loopback: nothing listens there.
    problem = postgres_ensure("postgres://postgres@127.0.0.1:9/holmes_nowhere")
    assert problem
