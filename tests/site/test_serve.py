"""The scaled set-up's web server (holmes_site/serve.py): it serves from forked workers,
replaces one that dies, stops them all on SIGTERM, and sleeps while no one asks."""

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import uvicorn

from holmes_site import serve
from holmes_site.channel_layer import Inbox
from holmes_site.serve import (
    DatedHeaders,
    FlowSwitch,
    LeanWebSocketProtocol,
    QuietServer,
    config_from,
    parse,
)
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the launcher forks")


def children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                found.add(int(entry))
    return found


def get(port: int, path: str = "/healthz"):
    return urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5)


def wait_for(check, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            found = check()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("still waiting after a minute")


@pytest.fixture
def server(tmp_path):
    port = free_port()
    env = {**os.environ, "HOLMES_SQLITE_PATH": str(tmp_path / "db.sqlite3")}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    command = [sys.executable, "-m", "holmes_site.serve", f"--port={port}", "--workers=2"]
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: get(port).status == 200)
        yield process, port
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


def test_it_serves_from_forked_workers_and_stops_them_on_sigterm(server):
    process, port = server
    reply = get(port)
    assert reply.read() == b"ok\n"
    assert reply.headers["Date"]  # stamped as the response goes (DatedHeaders)
    workers = wait_for(lambda: len(children(process.pid)) == 2 and children(process.pid))
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


def test_the_workers_end_when_their_parent_is_killed(server):
    process, _ = server
    workers = wait_for(lambda: len(children(process.pid)) == 2 and children(process.pid))
    process.kill()
    process.wait()
    wait_for(lambda: not [pid for pid in workers if Path(f"/proc/{pid}").exists()])


def test_a_worker_that_dies_is_replaced(server):
    process, port = server
    workers = wait_for(lambda: len(children(process.pid)) == 2 and children(process.pid))
    dead = min(workers)
    os.kill(dead, signal.SIGKILL)
    wait_for(lambda: len(children(process.pid) - workers) == 1)
    assert dead not in children(process.pid)
    assert get(port).status == 200


def redis_problem(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except (redis.RedisError, OSError) as error:
        return str(error)
    return None


def test_a_celery_worker_forked_from_the_site_takes_tasks(tmp_path):
    url = os.environ.get("HOLMES_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    if redis_problem(url):
        pytest.skip(f"Redis is unreachable: {redis_problem(url)}")
    from celery import Celery

    queue = f"holmes-serve-test-{os.getpid()}"
    env = {
        **os.environ,
        "HOLMES_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "REDIS_URL": url,
        "HOLMES_CELERY_QUEUE": queue,
    }
    env.pop("DATABASE_URL", None)
    log_path = tmp_path / "serve.log"
    options = "--pool=solo --loglevel=INFO --without-heartbeat --without-mingle --without-gossip"
    command = [sys.executable, "-m", "holmes_site.serve", f"--port={free_port()}",
               f"--celery-worker={options}"]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        wait_for(lambda: "ready." in log_path.read_text() or process.poll() is not None)
        assert process.poll() is None, log_path.read_text()
        client = Celery(broker=url, set_as_current=False)
        # The worker queues this task itself as it connects: the test's own is told by its id.
        task_id = f"serve-test-{os.getpid()}"
        client.send_task("holmes_site.tasks.outbox_redeliver", queue=queue, task_id=task_id)
        wait_for(lambda: f"[{task_id}] received" in log_path.read_text())
        assert len(children(process.pid)) == 2  # a web worker and the Celery worker
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        import redis

        redis.Redis.from_url(url).delete(queue)


def test_a_worker_that_cannot_start_stops_the_server_instead_of_forking_again(tmp_path):
    env = {**os.environ, "HOLMES_SQLITE_PATH": str(tmp_path / "db.sqlite3")}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "-m", "holmes_site.serve", f"--port={free_port()}",
               "--celery-worker=--no-such-option"]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)

    assert done.returncode != 0
    assert done.stderr.count("could not start") == 1


def test_the_quiet_loop_sleeps_until_a_stop_signal():
    server = QuietServer(uvicorn.Config(app=None, lifespan="off"))

    async def main():
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, server.handle_exit, signal.SIGTERM, None)
        await asyncio.wait_for(server.main_loop(), timeout=60)

    asyncio.run(main())  # a loop the signal did not wake would time out here
    assert server.should_exit
    assert next(iter(server.server_state.default_headers))[0] == b"date"


def test_the_date_header_is_the_second_it_is_read(monkeypatch):
    headers = DatedHeaders([(b"server", b"uvicorn")])
    monkeypatch.setattr(serve.time, "time", lambda: 1_000_000_000.5)
    first = headers + [(b"x", b"1")]
    monkeypatch.setattr(serve.time, "time", lambda: 1_000_000_061.2)

    assert first == [
        (b"date", b"Sun, 09 Sep 2001 01:46:40 GMT"),
        (b"server", b"uvicorn"),
        (b"x", b"1"),
    ]
    assert list(headers)[0] == (b"date", b"Sun, 09 Sep 2001 01:47:41 GMT")


def test_the_procfile_options_are_understood():
    flags = parse(["--port=9000", "--workers=3", "--ws-per-message-deflate=false"])
    assert (flags.port, flags.workers, flags.ws_per_message_deflate) == (9000, 3, False)
    with pytest.raises(SystemExit):
        parse(["--workers=0"])


def test_sockets_are_served_by_the_lean_protocol():
    config = config_from(parse([]))
    assert config.ws is LeanWebSocketProtocol
    assert (config.ws_ping_interval, config.ws_per_message_deflate) == (60.0, False)


async def echo(scope, receive, send):
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message["text"]})


def test_the_lean_protocol_converses_and_lets_the_handshake_go():
    from websockets.asyncio.client import connect

    async def main():
        port = free_port()
        config = uvicorn.Config(
            echo, port=port, ws=LeanWebSocketProtocol, lifespan="off", log_level="warning"
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        async with connect(f"ws://127.0.0.1:{port}/") as socket:
            for text in ("one", "two" * 50_000):  # the second one several reads long
                await socket.send(text)
                assert await socket.recv() == text
            (protocol,) = [
                each
                for each in server.server_state.connections
                if isinstance(each, LeanWebSocketProtocol)
            ]
            assert (protocol.request, protocol.response) == (None, None)
            assert isinstance(protocol.queue, Inbox)
        server.should_exit = True
        await asyncio.wait_for(serving, timeout=30)

    asyncio.run(main())


def test_the_flow_switch_holds_its_waiters_until_it_is_set():
    async def main():
        switch = FlowSwitch()
        waiting = asyncio.create_task(switch.wait())
        given_up = asyncio.create_task(switch.wait())
        await asyncio.sleep(0)
        given_up.cancel()
        await asyncio.sleep(0)
        assert not waiting.done()
        switch.set()
        assert await asyncio.wait_for(waiting, timeout=5) is True
        switch.clear()
        assert not switch.is_set()
        return switch._waiters

    assert asyncio.run(main()) is None  # nothing kept once no one waits
