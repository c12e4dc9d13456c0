"""Real services for integration tests: Redis and a Celery worker process.

The worker is a real `celery worker` in its own process, connected to Redis and to the
test database. It needs a database both processes can reach, so these tests run in the
PostgreSQL pass of `make test`; in the SQLite pass (an in-memory database) they skip.
"""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from celery import Celery
from django.db import connection

from holmes_site.celery import app as celery_app
from tests.conftest import require_service

PROJECT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("HOLMES_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def redis_problem() -> str | None:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return None
    except redis.RedisError as error:
        return str(error)


def database_url_for_test_database() -> str:
    settings = connection.settings_dict
    user = settings["USER"] or "postgres"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    host = settings["HOST"] or "127.0.0.1"
    port = settings["PORT"] or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


class CeleryWorker:
    """A running worker on its own queue, whose log can be read."""

    def __init__(self, queue: str, log_path: Path, process: subprocess.Popen):
        self.queue = queue
        self.log_path = log_path
        self.process = process

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def send(self, task_name: str, *args):
        from celery import Celery

        # Not the current app: shared tasks resolve through the current app, and the
        # tests that follow must keep finding the project's (eager) one.
        client = Celery(broker=REDIS_URL, set_as_current=False)
        client.send_task(task_name, args=list(args), queue=self.queue)

    def wait_for_log(self, text: str, count: int = 1, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log().count(text) >= count:
                return
            if self.process.poll() is not None:
                raise AssertionError(f"the worker exited:\n{self.log()}")
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not appear {count} time(s):\n{self.log()}")


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("runs in the PostgreSQL pass: the worker needs a shared database")
    require_service("Redis", redis_problem())
    queue = f"holmes-test-{uuid.uuid4().hex[:8]}"
    log_path = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_test_database(),
        "REDIS_URL": REDIS_URL,
        "HOLMES_DB_CONN_MAX_AGE": "0",
        # What the worker queues itself (a computer player's next move) comes back to it.
        "HOLMES_CELERY_QUEUE": queue,
        "HOLMES_BOT_PAUSE_SECONDS": "0",
    }
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "holmes_site",
        "worker",
        "--pool",
        "solo",
        "--queues",
        queue,
        "--loglevel",
        "INFO",
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
    ]
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=PROJECT, env=env, stdout=log, stderr=log)
    worker = CeleryWorker(queue, log_path, process)
    try:
        worker.wait_for_log("ready.", timeout=60)
        yield worker
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def tasks_to_the_worker(celery_worker_process):
    """Send this process's tasks to the worker's queue on Redis instead of running them
    inline, as a deployed web process does.

    Shared tasks are looked up in the current Celery app: a fresh one, configured for
    Redis, stands in for the project's eager one during the test. (Changing the eager
    app's configuration would not do: it caches its broker pool and queues.)
    """
    web = Celery("holmes", set_as_current=False)
    web.conf.update(
        broker_url=REDIS_URL,
        task_default_queue=celery_worker_process.queue,
        task_ignore_result=True,
    )
    web.set_current()
    try:
        yield celery_worker_process
    finally:
        celery_app.set_current()
        web.close()
        # The worker queues its own tasks on its queue (HOLMES_CELERY_QUEUE); anything
        # that still reached the default queue, which no test worker reads, is dropped.
        redis.Redis.from_url(REDIS_URL).delete(celery_app.conf.task_default_queue)


def wait_for(condition, worker, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        if worker.process.poll() is not None:
            raise AssertionError(f"the worker exited:\n{worker.log()}")
        time.sleep(0.1)
    raise AssertionError(f"the worker did not get there:\n{worker.log()}")
