"""221B through the services: the real checker is unsure of an answer, the player is asked
to restate it, the restatement is judged by the Celery task, and the verdicts with their
reasons reach the player's view (and everyone's at the end)."""

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from games import get_rules
from play import selectors, services
from play.models import Table, TableAttempt, TableEvent, TableStatus
from tests.play.test_services import advance_others, current_player

RIGHT = {"thief": "Silas Crane", "hiding_place": "St James's Church"}


def answer_at_221b(table, player, answers, capture):
    """``player`` goes to 221B and writes ``answers``; the others move on until the
    attempt has been judged (a first time)."""
    engine = get_rules(table.engine)
    services.game_apply_action(table_id=table.pk, player=player, action={"type": "baker_street"})
    table = advance_others(
        table,
        lambda state: any(a["type"] == "answer" for a in engine.legal_actions(state, player)),
    )
    services.game_apply_action(
        table_id=table.pk, player=player, action={"type": "answer", "answers": answers}
    )
    # The judging task runs when the move that files the request commits.
    with capture(execute=True):
        table = advance_others(
            table, lambda state: any(r["player"] == player for r in state["requests"])
        )
    table.refresh_from_db()
    return table


def view_of(table, user):
    return selectors.table_view(membership=selectors.membership_for(table_id=table.pk, user=user))


def test_it_asks_for_a_restatement_and_wins_with_it(
    started, alice, bob, charlie, django_capture_on_commit_callbacks
):
    player = current_player(started)
    user = [alice, bob, charlie][player]
    other = [alice, bob, charlie][(player + 1) % 3]
    # "nearly 212" is a hedged number: the checker cannot be sure, so it asks.
    table = answer_at_221b(
        started, player, {**RIGHT, "ticket": "nearly 212"}, django_capture_on_commit_callbacks
    )
    assert table.state["players"][player]["status"] == "playing"
    mine = view_of(table, user)
    [asked] = mine["game"]["you"]["restatement"]["questions"]
    assert asked["id"] == "ticket"
    assert asked["prompt"].startswith("Sherlock is not sure what you mean by your answer to")
    assert {"type": "restate", "answers": {"ticket": "?"}} in mine["game"]["legal_actions"]
    assert player in mine["game"]["waiting_for"]
    # Nobody else learns which answer, nor the answers themselves.
    theirs = str(view_of(table, other))
    assert "nearly 212" not in theirs and "restatement': {" not in theirs
    assert not TableEvent.objects.filter(table=table, type="restate_your_answers", audience="all")

    with django_capture_on_commit_callbacks(execute=True):
        result = services.game_apply_action(
            table_id=table.pk,
            player=player,
            action={"type": "restate", "answers": {"ticket": "212"}},
        )
    assert result.applied
    table.refresh_from_db()
    assert table.state["players"][player]["status"] == "won"
    assert table.status == TableStatus.FINISHED
    kinds = list(
        TableAttempt.objects.filter(table=table).order_by("request").values_list("kind", flat=True)
    )
    assert kinds == ["solve", "restate"]

    # The debrief: every attempt, each answer with its verdict and the checker's reason.
    debrief = view_of(table, other)["game"]["attempts"]
    [attempt] = [entry for entry in debrief if entry["seat"] == player]
    ticket = next(answer for answer in attempt["answers"] if answer["id"] == "ticket")
    assert ticket["answer"] == "212" and ticket["first_answer"] == "nearly 212"
    assert ticket["verdict"] == "correct" and ticket["reason"]


def test_it_shows_an_eliminated_player_why_each_answer_failed(
    started, alice, bob, charlie, django_capture_on_commit_callbacks
):
    player = current_player(started)
    user = [alice, bob, charlie][player]
    other = [alice, bob, charlie][(player + 1) % 3]
    table = answer_at_221b(
        started,
        player,
        {**RIGHT, "ticket": "nearly 212"},
        django_capture_on_commit_callbacks,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=table.pk,
            player=player,
            action={"type": "restate", "answers": {"ticket": "nearly 212, I think"}},
        )
    table.refresh_from_db()
    assert table.state["players"][player]["status"] == "eliminated"
    attempt = view_of(table, user)["game"]["you"]["attempt"]
    assert attempt["verdicts"] == {"thief": "correct", "hiding_place": "correct", "ticket": "wrong"}
    assert all(attempt["reasons"][qid] for qid in attempt["verdicts"])
    theirs = view_of(table, other)
    assert theirs["game"]["attempts"] is None
    assert "nearly 212, I think" not in str(theirs) and attempt["reasons"]["ticket"] not in str(
        theirs
    )


def test_it_ends_the_wait_for_a_restatement_at_the_tables_deadline(
    started, django_capture_on_commit_callbacks
):
    Table.objects.filter(pk=started.pk).update(turn_timer_seconds=60)
    player = current_player(started)
    table = answer_at_221b(
        started, player, {**RIGHT, "ticket": "nearly 212"}, django_capture_on_commit_callbacks
    )
    # The table waits for the player, with the turn timer's deadline.
    assert table.deadline_at is not None and table.wake_at is not None
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=table.pk).update(deadline_at=past, wake_at=past)
    assert services.tables_wake_due() == 1
    table.refresh_from_db()
    attempt = table.state["players"][player]["attempt"]
    assert table.state["players"][player]["status"] == "eliminated"
    assert attempt["verdicts"]["ticket"] == "wrong" and "timer" in attempt["reasons"]["ticket"]


def test_it_keeps_the_restatement_out_of_the_others_history(
    started, alice, bob, charlie, django_capture_on_commit_callbacks
):
    player = current_player(started)
    users = [alice, bob, charlie]
    table = answer_at_221b(
        started, player, {**RIGHT, "ticket": "nearly 212"}, django_capture_on_commit_callbacks
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.game_apply_action(
            table_id=table.pk,
            player=player,
            action={"type": "restate", "answers": {"ticket": "RESTATED-SECRET 211"}},
        )
    table.refresh_from_db()
    # A wrong restatement: the player is out and the game goes on for the others.
    assert table.state["players"][player]["status"] == "eliminated"
    assert table.state["phase"] != "over"
    reasons = table.state["players"][player]["attempt"]["reasons"]
    for seat, user in enumerate(users):
        client = Client()
        client.force_login(user)
        history = client.get(f"/api/tables/{table.pk}/events/?after=0").content.decode()
        view = client.get(f"/api/tables/{table.pk}/").content.decode()
        if seat == player:
            assert "RESTATED-SECRET" in history  # their own restatement, told to them
            continue
        for body in (history, view):
            assert "RESTATED-SECRET" not in body and "nearly 212" not in body
            assert all(reason not in body for reason in reasons.values())
