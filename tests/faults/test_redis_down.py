"""Redis stops during play: moves still succeed, players keep up by polling, and the
notifications those moves owe are delivered once Redis is back, exactly once.

The server runs the scaled set-up (REDIS_URL: Celery broker, channel layer and cache) on
a private Redis that the test stops and starts again. Notifications go through the
transactional outbox: written with the move, enqueued on commit (which fails, and is
logged, while Redis is down), and enqueued again by `holmes_site.tasks.outbox_redeliver`,
which a worker queues by itself as it connects once Redis is back (holmes_site/celery.py):
nobody sends it, and nothing runs on a clock. (Celery 5.7's worker does not live through
Redis going away: it exits, "Unrecoverable error", and `holmes serve`, like any process
manager, starts it again; so here the worker starts once Redis is back.)
"""

import re

from celery import Celery

from accounts.models import Notification
from holmes_site.models import OutboxMessage
from tests.faults.conftest import play, turn_of, wait_until


def send_task(redis_url: str, name: str, *args, **kwargs) -> None:
    client = Celery(broker=redis_url, set_as_current=False)
    try:
        client.send_task(name, args=list(args), kwargs=kwargs)
    finally:
        client.close()


def succeeded(worker, task: str) -> int:
    return len(re.findall(rf"Task {re.escape(task)}\[[^\]]+\] succeeded", worker.log()))


def test_it_keeps_playing_without_redis_and_notifies_once_it_is_back(
    shared_database_url, private_redis, start_worker, start_server, table_for_two, alice, bob
):
    table, tokens = table_for_two
    server = start_server(REDIS_URL=private_redis.url, DATABASE_URL=shared_database_url)
    private_redis.stop()

    # Two moves while Redis is down: both committed, both answered 200.
    versions = []
    for _ in range(2):
        seat = turn_of(server, table.pk, tokens)
        status, body = play(server, table.pk, tokens, seat, {"type": "carriage_stop"})
        assert status == 200, body
        versions.append(body["version"])
    assert "Could not enqueue play.tasks.notify_table" in server.log()

    # The page's fallback: polling with the version as ETag, 304 while nothing changes.
    status, headers, _ = server.request(
        "GET", f"/api/tables/{table.pk}/", token=tokens[0], If_None_Match=f'"{versions[-1]}"'
    )
    assert status == 304
    assert headers["ETag"] == f'"{versions[-1]}"'
    status, _, view = server.request("GET", f"/api/tables/{table.pk}/", token=tokens[1])
    assert status == 200 and view["version"] == versions[-1]

    # Nothing was delivered yet: the outbox holds what is owed.
    waiting = OutboxMessage.objects.filter(delivered_at__isnull=True)
    owed = [
        f"table{table_id}:v{version}:{kind}"
        for table_id, kind, version, _details in waiting.filter(
            task="play.tasks.notify_table"
        ).values_list("args", flat=True)
    ]
    assert f"table{table.pk}:v{versions[0]}:your_turn" in owed
    assert not Notification.objects.filter(dedupe_key__in=owed).exists()

    # The worker, as it connects, sends what the outbox holds: nobody asks it to.
    private_redis.start()
    worker = start_worker(private_redis.url, shared_database_url)
    wait_until(lambda: not waiting.exists(), "the outbox to be delivered", 60, worker.log)
    delivered = Notification.objects.filter(dedupe_key__in=owed)
    assert sorted(set(delivered.values_list("dedupe_key", flat=True))) == sorted(owed)
    # "It is your turn" is e-mailed (the default preference): once per notification.
    turn_mails = delivered.filter(kind="your_turn").count()
    assert worker.log().count("Subject: Holmes: It is your turn") == turn_mails >= 1

    # Delivered again (a second redelivery, a message redelivered): still once each.
    message = waiting.model.objects.filter(task="play.tasks.notify_table").latest("pk")
    notified = succeeded(worker, "play.tasks.notify_table")
    redelivered = succeeded(worker, "holmes_site.tasks.outbox_redeliver")
    send_task(private_redis.url, message.task, *message.args, outbox_id=message.pk)
    send_task(private_redis.url, "holmes_site.tasks.outbox_redeliver", 0)
    wait_until(
        lambda: (
            succeeded(worker, "play.tasks.notify_table") == notified + 1
            and succeeded(worker, "holmes_site.tasks.outbox_redeliver") == redelivered + 1
        ),
        "the second delivery",
        60,
        worker.log,
    )
    assert Notification.objects.filter(dedupe_key__in=owed).count() == delivered.count()
    assert worker.log().count("Subject: Holmes: It is your turn") == turn_mails
