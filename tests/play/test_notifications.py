"""Notifications of a table: the game started, your turn, someone went to 221B, the case
was solved. Each is stored once (a task run twice notifies once), counted unread in the
API, and e-mailed only to those whose preferences ask for that kind."""

import re

import pytest
from django.core import mail

from accounts.models import Notification, NotificationPreferences
from games import get_rules
from holmes_site.models import OutboxMessage
from play import services
from play.models import Table
from play.tasks import notify_table
from tests.play.helpers import ApiPlayer

RIGHT_ANSWERS = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}


def kinds_of(user) -> list[str]:
    return sorted(Notification.objects.filter(user=user).values_list("kind", flat=True))


def mailed_to(address: str) -> list[str]:
    return [message.subject for message in mail.outbox if address in message.to]


@pytest.fixture
def preferences(alice, bob, charlie):
    # alice wants no e-mail; bob keeps the defaults (your turn, table started);
    # charlie wants e-mail only when someone goes to 221B or the case is solved.
    NotificationPreferences.objects.create(user=alice, email_kinds=[])
    NotificationPreferences.objects.create(user=charlie, email_kinds=["table_news", "game_over"])


def test_it_notifies_everyone_once_that_the_table_started(
    lobby, alice, bob, charlie, preferences, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_start(table_id=lobby.pk, user=alice)
    for user in (bob, charlie):
        assert kinds_of(user) == ["table_started"]
    assert kinds_of(alice) == []  # she pressed Start: nobody is told what they just did
    assert mailed_to("bob@example.com") == [
        "Holmes: Your table for The Clerkenwell Repeater has started."
    ]
    assert mailed_to("alice@example.com") == mailed_to("charlie@example.com") == []

    # A task delivered twice (acks_late, a lost acknowledgement) notifies once.
    with django_capture_on_commit_callbacks(execute=True):
        notify_table.delay(table.pk, "table_started", table.version, {})
    assert Notification.objects.filter(kind="table_started").count() == 2
    assert len(mail.outbox) == 1


def test_it_notifies_whose_turn_it_is(
    started, alice, bob, charlie, django_capture_on_commit_callbacks
):
    users = [alice, bob, charlie]
    turn = started.state["turn"]
    with django_capture_on_commit_callbacks(execute=True):
        result = services.game_apply_action(
            table_id=started.pk, player=turn, action={"type": "carriage_stop"}
        )
    next_turn = result.table.state["turn"]
    assert next_turn != turn
    notified = Notification.objects.filter(kind="your_turn")
    assert [n.user for n in notified] == [users[next_turn]]
    assert notified.get().url == f"/tables/{started.pk}/"
    address = users[next_turn].email
    assert mailed_to(address) == ["Holmes: It is your turn at The Clerkenwell Repeater."]

    with django_capture_on_commit_callbacks(execute=True):
        notify_table.delay(started.pk, "your_turn", result.table.version, {"player": next_turn})
    assert Notification.objects.filter(kind="your_turn").count() == 1
    assert len(mailed_to(address)) == 1


def advance_others(table, until, keep_out: int, after_commit):
    """Everyone but `keep_out` rests at the Carriage Stop and finishes reading; what each
    move queues after commit (judging at 221B, notifications) runs after it."""
    engine = get_rules(table.engine)
    for _ in range(60):
        table.refresh_from_db()
        if until(table.state):
            return table
        moves = [
            (seat, action)
            for seat in range(len(table.state["players"]))
            for action in engine.legal_actions(table.state, seat)
            if action["type"] in ("carriage_stop", "done_reading", "watson_read")
            and seat != keep_out
        ]
        assert moves, "nobody can move the game on"
        with after_commit(execute=True):
            services.game_apply_action(table_id=table.pk, player=moves[0][0], action=moves[0][1])
    raise AssertionError("the game never reached the state")


def test_it_notifies_221b_and_the_solved_case_and_counts_them_unread(
    started, alice, bob, charlie, preferences, django_capture_on_commit_callbacks
):
    users = [alice, bob, charlie]
    engine = get_rules(started.engine)
    solver = started.state["turn"]
    others = [user for seat, user in enumerate(users) if seat != solver]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=started.pk, player=solver, action={"type": "baker_street"}
        )
    for user in others:
        assert "table_news" in kinds_of(user)
    assert "table_news" not in kinds_of(users[solver])
    solver_name = users[solver].display_name
    # The log's sentence, after the table's title.
    assert re.fullmatch(
        rf"The Clerkenwell Repeater: {solver_name} went to 221B Baker Street, "
        r"holding \d+ carriages?\.",
        Notification.objects.filter(kind="table_news").first().message,
    )

    table = advance_others(
        started,
        lambda s: any(a["type"] == "answer" for a in engine.legal_actions(s, solver)),
        solver,
        django_capture_on_commit_callbacks,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=table.pk, player=solver, action={"type": "answer", "answers": RIGHT_ANSWERS}
        )
    advance_others(
        table, lambda s: s["phase"] == "over", solver, django_capture_on_commit_callbacks
    )
    table = Table.objects.get(pk=started.pk)
    assert table.state["result"]["winners"] == [solver]
    for user in users:
        assert kinds_of(user).count("game_over") == 1
    solved = Notification.objects.filter(kind="game_over").first()
    rounds = table.state["result"]["rounds"]
    assert solved.message == (
        f"The Clerkenwell Repeater is over: {solver_name} solved the case and won in "
        f"{rounds} round{'' if rounds == 1 else 's'}."
    )

    # E-mail follows each person's preferences.
    assert not mailed_to("alice@example.com")
    charlie_mail = mailed_to("charlie@example.com")
    assert any("solved the case and won" in subject for subject in charlie_mail)
    assert any("went to 221B" in subject for subject in charlie_mail) == (solver != 2)
    assert all("your turn" not in subject for subject in charlie_mail)
    bob_mail = mailed_to("bob@example.com")
    assert bob_mail and all("your turn" in subject for subject in bob_mail)

    # The unread count, then reading them.
    bob_api = ApiPlayer(bob)
    listed = bob_api.get("/api/notifications/").json()
    stored = Notification.objects.filter(user=bob).count()
    assert listed["unread"] == stored == len(listed["results"])
    assert {n["kind"] for n in listed["results"]} >= {"game_over"}
    first = listed["results"][0]["id"]
    assert bob_api.post("/api/notifications/read/", {"ids": [first]}).status_code == 204
    assert bob_api.get("/api/notifications/").json()["unread"] == stored - 1
    assert bob_api.post("/api/notifications/read/", {}).status_code == 204
    assert bob_api.get("/api/notifications/").json()["unread"] == 0
    # Reading bob's notifications leaves alice's unread.
    assert ApiPlayer(alice).get("/api/notifications/").json()["unread"] > 0

    # Every kind, delivered again, is stored and mailed once.
    count, outbox = Notification.objects.count(), len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        for notification in Notification.objects.all():
            _, version, kind = notification.dedupe_key.split(":")
            details = {"player": solver, "winners": [solver]}
            if kind == "your_turn":
                details = {"player": users.index(notification.user)}
            notify_table.delay(table.pk, kind, int(version[1:]), details)
    assert Notification.objects.count() == count
    assert len(mail.outbox) == outbox


def test_it_notifies_nobody_of_another_tables_events(
    started, tutorial, dave, erin, django_capture_on_commit_callbacks
):
    other = services.table_create(host=dave, case_version=tutorial)
    services.table_join(invite_code=other.invite_code, user=erin)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=started.pk, player=started.state["turn"], action={"type": "baker_street"}
        )
    assert not Notification.objects.filter(user__in=[dave, erin]).exists()
    assert ApiPlayer(dave).get("/api/notifications/").json() == {"unread": 0, "results": []}


def test_it_notifies_in_process_without_an_outbox_row_when_celery_is_eager(
    started, alice, bob, charlie, django_capture_on_commit_callbacks
):
    # The embedded default has no broker that could be down: the outbox, which exists to
    # survive one, would only write a row to mark it delivered a moment later.
    users = [alice, bob, charlie]
    turn = started.state["turn"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.game_apply_action(
            table_id=started.pk, player=turn, action={"type": "carriage_stop"}
        )
    assert callbacks  # the notification waited for the commit
    assert not OutboxMessage.objects.exists()
    next_player = users[Table.objects.get(pk=started.pk).state["turn"]]
    assert kinds_of(next_player).count("your_turn") == 1


def test_nobody_is_told_of_their_own_move(
    started, alice, bob, charlie, django_capture_on_commit_callbacks
):
    """The seat whose move ends the game is not told it is over (nor mailed): its page says
    so at once. The others are; so is everyone when no seat acted (a verdict, a timer)."""
    users = [alice, bob, charlie]
    NotificationPreferences.objects.create(user=bob, email_kinds=["game_over", "your_turn"])
    NotificationPreferences.objects.create(user=charlie, email_kinds=["game_over", "your_turn"])
    mover = started.state["turn"]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=started.pk, player=mover, action={"type": "carriage_stop"}
        )
    assert kinds_of(users[mover]) == []  # no "your turn" for the seat that just moved

    # Told directly (the game's notices, as a move that ends the game calls for them).
    with django_capture_on_commit_callbacks(execute=True):
        notify_table.delay(
            started.pk, "game_over", 99, {"winners": [1], "rounds": 2, "actor_seat": 1}
        )
    assert "game_over" not in kinds_of(bob)
    assert not any("is over" in s or "solved" in s for s in mailed_to("bob@example.com"))
    assert "game_over" in kinds_of(alice) and "game_over" in kinds_of(charlie)
    assert any("Bob solved the case and won" in s for s in mailed_to("charlie@example.com"))

    with django_capture_on_commit_callbacks(execute=True):
        notify_table.delay(started.pk, "game_over", 100, {"winners": [1]})  # a verdict's
    assert kinds_of(bob).count("game_over") == 1
