"""Real processes for fault tests: a private Redis, Celery workers and web servers that can
be killed and restarted, all on this machine's loopback.

Each test starts its own `redis-server` on a free port, so stopping it disturbs no other
test (nor anyone else's Redis). Workers and servers share the test database, so these
tests run in the PostgreSQL pass of `make test` and skip, with a reason, in the SQLite
pass. Every wait is bounded; no test asserts how long anything took.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from django.db import connection

from tests.conftest import require_service
from tests.ports import free_port

PROJECT = Path(__file__).resolve().parents[2]
RIGHT_ANSWERS = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}


def wait_until(condition, what: str, timeout: float = 60, log=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    details = f"\n{log()}" if log else ""
    raise AssertionError(f"timed out waiting for {what}{details}")


def base_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOLMES_", "REDIS_"))}
    env.pop("DATABASE_URL", None)
    env.update({"HOLMES_DB_CONN_MAX_AGE": "0", "PYTHONUNBUFFERED": "1"})
    env.update({k: v for k, v in extra.items() if v is not None})
    return env


# --- The shared database -------------------------------------------------------------------


@pytest.fixture
def shared_database_url(transactional_db) -> str:
    """The committed test database's URL, for the worker and server subprocesses."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "runs in the PostgreSQL pass: worker and server subprocesses need a database "
            "they can share with the test"
        )
    from tests.integration.conftest import database_url_for_test_database

    return database_url_for_test_database()


# --- A private Redis ---------------------------------------------------------------------


class RedisServer:
    """A `redis-server` of our own, stopped and started again by the test."""

    def __init__(self, binary: str, log_path: Path):
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def ping(self) -> bool:
        try:
            return redis.Redis.from_url(self.url, socket_connect_timeout=1).ping()
        except redis.RedisError:
            return False

    def start(self) -> None:
        command = [
            self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--daemonize", "no",
        ]  # fmt: skip
        with self.log_path.open("a") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log)
        wait_until(self.ping, "redis-server to answer", 20, self.log_path.read_text)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None
        wait_until(lambda: not self.ping(), "redis-server to stop", 10)


@pytest.fixture
def private_redis(tmp_path):
    binary = shutil.which("redis-server")
    require_service("redis-server", None if binary else "no redis-server binary on the PATH")
    server = RedisServer(binary, tmp_path / "redis.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


# --- Processes: Celery workers and web servers ----------------------------------------------


class Process:
    """A subprocess in its own session (so it and its children can be killed together),
    writing to a log file the test can read."""

    def __init__(self, name: str, command: list[str], env: dict, log_path: Path):
        self.name = name
        self.command = command
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log_path.open("a") as log:
            log.write(f"--- starting {self.name}\n")
            log.flush()
            self.process = subprocess.Popen(
                self.command, cwd=PROJECT, env=self.env, stdout=log, stderr=log,
                start_new_session=True,
            )  # fmt: skip

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the process and its children: no chance to finish anything."""
        if self.alive():
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def wait_for_log(self, text: str, count: int = 1, timeout: float = 60) -> None:
        def seen():
            if not self.alive():
                raise AssertionError(f"{self.name} exited:\n{self.log()}")
            return self.log().count(text) >= count

        wait_until(seen, f"{text!r} in the {self.name} log", timeout, self.log)


class Worker(Process):
    def start(self) -> None:
        super().start()
        self.wait_for_log("ready.", count=self.log().count("ready.") + 1)


@pytest.fixture
def start_worker(tmp_path):
    """Start a Celery worker (prefork, one child) on the private Redis; killed at the end."""
    running: list[Worker] = []

    def start(redis_url: str, database_url: str, **env) -> Worker:
        command = [
            sys.executable, "-m", "celery", "-A", "holmes_site", "worker",
            "--pool", "prefork", "--concurrency", "1", "--loglevel", "INFO",
            "--without-heartbeat", "--without-mingle", "--without-gossip",
        ]  # fmt: skip
        worker = Worker(
            "worker",
            command,
            base_env(REDIS_URL=redis_url, DATABASE_URL=database_url, **env),
            tmp_path / "worker.log",
        )
        worker.start()
        running.append(worker)
        return worker

    yield start
    for worker in running:
        worker.kill()


class Server(Process):
    """daphne serving the site (the ASGI server in pyproject.toml), restartable on its port."""

    def __init__(self, port: int, env: dict, log_path: Path):
        command = [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
            "holmes_site.asgi:application",
        ]  # fmt: skip
        super().__init__("server", command, env, log_path)
        self.url = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        super().start()

        def answers():
            if not self.alive():
                raise AssertionError(f"the server exited:\n{self.log()}")
            try:
                urllib.request.urlopen(self.url + "/api/schema/", timeout=2)
                return True
            except urllib.error.HTTPError:
                return True  # it answered
            except OSError:
                return False

        wait_until(answers, "the server to answer", 30, self.log)

    def request(self, method: str, path: str, body=None, token=None, **headers):
        """One HTTP request: (status, headers, parsed JSON body or text)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Token {token}")
        for name, value in headers.items():
            request.add_header(name.replace("_", "-"), value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, head, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, head, raw = error.code, error.headers, error.read()
        text = raw.decode(errors="replace")
        if head.get("Content-Type", "").startswith("application/json") and text:
            return status, head, json.loads(text)
        return status, head, text


@pytest.fixture
def start_server(tmp_path):
    running: list[Server] = []

    def start(port: int | None = None, **env) -> Server:
        server = Server(port or free_port(), base_env(**env), tmp_path / "server.log")
        server.start()
        running.append(server)
        return server

    yield start
    for server in running:
        server.kill()


# --- A started table, and its players' tokens -------------------------------------------------


@pytest.fixture
def table_for_two(
    shared_database_url,
    tutorial,  # noqa: F811 (the fixture imported below)
    alice,
    bob,
    django_capture_on_commit_callbacks,
):
    """alice and bob at a started table of the tutorial case, with API tokens. Set up in
    this process (Celery eager: its notifications are stored here and now)."""
    from accounts.services import api_token_create
    from play import services

    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_create(host=alice, case_version=tutorial)
        services.table_join(invite_code=table.invite_code, user=bob)
        table = services.table_start(table_id=table.pk, user=alice)
    tokens = {0: api_token_create(user=alice)[1], 1: api_token_create(user=bob)[1]}
    return table, tokens


def play(server: Server, table_id: int, tokens: dict, seat: int, action: dict, key=None):
    """One move through the API at the current version; returns (status, body)."""
    status, _, view = server.request("GET", f"/api/tables/{table_id}/", token=tokens[seat])
    assert status == 200, view
    body = {"action": action, "expected_version": view["version"]}
    if key:
        body["idempotency_key"] = key
    status, _, answer = server.request(
        "POST", f"/api/tables/{table_id}/actions/", body, token=tokens[seat]
    )
    return status, answer


def turn_of(server: Server, table_id: int, tokens: dict) -> int:
    status, _, view = server.request("GET", f"/api/tables/{table_id}/", token=tokens[0])
    assert status == 200, view
    return view["game"]["turn"]


# The tutorial case, published, and a started table of alice, bob and charlie.
from tests.play.conftest import lobby, started, tutorial  # noqa: E402, F401
