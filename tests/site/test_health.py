"""The operators' pages: /healthz (the process answers), /readyz (the database and Redis
answer, or a 503 that says which does not) and /metrics (Prometheus's text, to trusted
addresses only)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cases.models import AnswerAttempt
from games import get_rules
from play import services
from play.moves import Outcome, move_make
from tests.factories import CaseVersionFactory

PROJECT = Path(__file__).resolve().parents[2]
# Nothing listens on port 1: a real connection that is refused, no stand-in.
UNREACHABLE_DATABASE = "postgres://postgres@127.0.0.1:1/holmes"
UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


def ask_in_a_process(path: str, **env) -> tuple[int, str]:
    """Ask the site for `path` in a fresh process with these settings: how a node whose
    database or Redis is gone answers."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("HOLMES_", "DATABASE_"))}
    clean.pop("REDIS_URL", None)
    script = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
        "'holmes_site.settings'); django.setup()\n"
        "from django.test import Client\n"
        f"response = Client(HTTP_HOST='127.0.0.1').get({path!r})\n"
        "print(response.status_code); print(response.content.decode())"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    status, _, body = result.stdout.partition("\n")
    return int(status), body


def metric(body: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", body, re.MULTILINE)
    assert found, f"{name} is not in the page:\n{body}"
    return float(found.group(1))


def test_it_answers_healthz_without_the_database():
    status, body = ask_in_a_process("/healthz", DATABASE_URL=UNREACHABLE_DATABASE)

    assert (status, body.strip()) == (200, "ok")


@pytest.mark.django_db
def test_it_is_ready_when_the_database_answers(client):
    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.content == b"ready\n"
    assert response["Cache-Control"].startswith("max-age=0")


def test_it_is_not_ready_without_the_database_and_says_so():
    status, body = ask_in_a_process("/readyz", DATABASE_URL=UNREACHABLE_DATABASE)

    assert status == 503
    assert body.startswith("Not ready: the database cannot be reached (OperationalError).")


def test_it_is_not_ready_without_redis_and_says_so():
    status, body = ask_in_a_process("/readyz", REDIS_URL=UNREACHABLE_REDIS)

    assert status == 503
    assert body.startswith("Not ready: Redis cannot be reached (ConnectionError).")


@pytest.mark.django_db
def test_it_shows_the_readings_to_the_machine_itself(client):
    version = CaseVersionFactory()
    AnswerAttempt.objects.create(version=version, answers={"who": "Finch"})

    response = client.get("/metrics")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert metric(body, "holmes_judgements_pending") == 1
    assert metric(body, "holmes_open_sockets") == 0
    assert metric(body, "holmes_tasks_queued") == 0  # tasks run at once without Redis
    assert "# TYPE holmes_moves_applied_total counter" in body


@pytest.mark.django_db
def test_it_hides_the_metrics_from_other_addresses(client):
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9")

    assert response.status_code == 404
    assert b"holmes_" not in response.content


@pytest.mark.django_db
def test_it_follows_the_operators_list_of_addresses(client, settings):
    settings.METRICS_ADDRESSES = ["203.0.113.0/24"]

    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 404


def sample(body: str, name: str, **labels) -> float:
    """A labelled sample's value in the exposition, 0 when it is not there yet."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    found = re.search(rf"^{name}{{{re.escape(wanted)}}} (\S+)$", body, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


@pytest.mark.django_db
def test_it_counts_each_move_by_game_and_what_came_of_it(client, alice, bob):
    table = services.table_create(host=alice, game="sherlock_mycroft")
    services.table_join(invite_code=table.invite_code, user=bob)
    table = services.table_start(table_id=table.pk, user=alice)
    before = client.get("/metrics").content.decode()
    rules = get_rules("sherlock_mycroft")
    mover = rules.turn(table.state)
    user = table.seats.get(number=mover).user
    action = rules.legal_actions(table.state, mover)[0]

    made = move_make(user=user, table_id=table.pk, action=action, expected_version=table.version)
    stale = move_make(user=user, table_id=table.pk, action=action, expected_version=table.version)
    after = client.get("/metrics").content.decode()

    assert (made.kind, stale.kind) == (Outcome.APPLIED, Outcome.STALE)
    counted = {"game": "sherlock_mycroft"}
    applied = "holmes_moves_applied_total"
    refused = "holmes_moves_refused_total"
    assert sample(after, applied, **counted) == sample(before, applied, **counted) + 1
    assert sample(after, refused, **counted, outcome="stale") == (
        sample(before, refused, **counted, outcome="stale") + 1
    )
    timed = "holmes_move_seconds_count"
    assert sample(after, timed, **counted) == sample(before, timed, **counted) + 2


@pytest.mark.django_db
def test_it_counts_the_sockets_open_on_table_pages(client, alice, bob):
    from play import presence

    table = services.table_create(host=alice, game="sherlock_mycroft")
    services.table_join(invite_code=table.invite_code, user=bob)
    seats = {seat.user_id: seat.pk for seat in table.seats.all()}
    first = presence.socket_open(table_id=table.pk, seat_id=seats[alice.pk], user_id=alice.pk)
    presence.socket_open(table_id=table.pk, seat_id=seats[bob.pk], user_id=bob.pk)
    presence.socket_open(table_id=table.pk, seat_id=None)  # a spectator's

    opened = metric(client.get("/metrics").content.decode(), "holmes_open_sockets")
    presence.socket_close(socket_id=first)
    closed = metric(client.get("/metrics").content.decode(), "holmes_open_sockets")

    assert (opened, closed) == (3, 2)


def count_in_a_process(folder: Path, moves: int) -> str:
    """A web worker of its own, with the shared directory of counts, applying `moves`
    moves; then (moves=0) what a scrape of any one worker reads."""
    script = (
        "from holmes_site import metrics\n"
        f"metrics.MOVES_APPLIED.labels('watson_holmes').inc({moves})\n"
        "print(metrics.exposition().decode())"
    )
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    env.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_it_sums_the_counts_of_every_worker_of_a_node(tmp_path):
    # uvicorn --workers N: each worker counts its own moves; a scrape reaches one of them.
    count_in_a_process(tmp_path, 2)
    count_in_a_process(tmp_path, 3)

    scraped = count_in_a_process(tmp_path, 0)

    assert sample(scraped, "holmes_moves_applied_total", game="watson_holmes") == 5
