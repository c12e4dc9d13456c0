"""The table services: the lobby, the move write path, judging at 221B, the notebook."""

import pytest
from django.core.exceptions import PermissionDenied

from accounts.models import Notification
from games import get_rules
from play import selectors, services
from play.models import ActionRequest, Seat, TableAttempt, TableEvent, TableStatus


def current_player(table) -> int:
    return table.state["turn"]


def test_it_seats_the_host_first_and_joiners_in_order(lobby, alice, bob, charlie):
    seats = list(Seat.objects.filter(table=lobby).order_by("number"))
    assert [seat.user for seat in seats] == [alice, bob, charlie]
    assert len({seat.colour for seat in seats}) == 3


def test_it_refuses_a_wrong_invite_code(tutorial, alice, bob):
    services.table_create(host=alice, case_version=tutorial)
    with pytest.raises(services.TableError, match="opens no table"):
        services.table_join(invite_code="not-a-code", user=bob)


def test_it_lets_a_player_leave_the_lobby_and_renumbers_seats(lobby, bob, charlie):
    services.table_leave(table_id=lobby.pk, user=bob)
    seats = list(Seat.objects.filter(table=lobby).order_by("number"))
    assert [(seat.user, seat.number) for seat in seats][-1] == (charlie, 1)


def test_it_refuses_a_colour_someone_else_plays(lobby, bob):
    alice_colour = Seat.objects.get(table=lobby, number=0).colour
    with pytest.raises(services.TableError, match="already plays"):
        services.seat_choose_colour(table_id=lobby.pk, user=bob, colour=alice_colour)


def test_it_lets_only_the_host_start(lobby, bob):
    with pytest.raises(PermissionDenied):
        services.table_start(table_id=lobby.pk, user=bob)


def test_it_starts_the_game_with_one_player_per_seat(started):
    assert started.status == TableStatus.PLAYING
    assert [p["name"] for p in started.state["players"]] == ["Alice", "Bob", "Charlie"]
    assert TableEvent.objects.filter(table=started, type="table_started").exists()


def test_it_applies_a_legal_move_and_bumps_the_version(started):
    engine = get_rules(started.engine)
    player = current_player(started)
    action = engine.legal_actions(started.state, player)[0]
    result = services.game_apply_action(
        table_id=started.pk, player=player, action=action, expected_version=started.version
    )
    assert result.applied
    assert result.table.version == started.version + 1


def test_it_refuses_a_stale_move_and_writes_nothing(started):
    player = current_player(started)
    action = get_rules(started.engine).legal_actions(started.state, player)[0]
    events_before = TableEvent.objects.count()
    version_before, state_before = started.version, started.state
    with pytest.raises(services.StaleVersion):
        services.game_apply_action(
            table_id=started.pk, player=player, action=action, expected_version=started.version - 1
        )
    started.refresh_from_db()
    assert TableEvent.objects.count() == events_before
    assert started.version == version_before
    assert started.state == state_before


def test_it_returns_the_first_result_to_a_retried_request(started):
    player = current_player(started)
    action = get_rules(started.engine).legal_actions(started.state, player)[0]
    first = services.game_apply_action(
        table_id=started.pk,
        player=player,
        action=action,
        expected_version=started.version,
        idempotency_key="retry-me",
    )
    again = services.game_apply_action(
        table_id=started.pk,
        player=player,
        action=action,
        expected_version=started.version,
        idempotency_key="retry-me",
    )
    assert first.applied and again.applied and again.replayed
    again.table.refresh_from_db()
    assert again.table.version == first.table.version
    # The key is kept on the move's first event, not in a row of its own.
    made = TableEvent.objects.filter(table=started, table_version=first.table.version)
    keys = list(made.order_by("sequence").values_list("request_key", flat=True))
    assert keys == [f"seat{player}:retry-me"] + [None] * (len(keys) - 1)
    assert not ActionRequest.objects.filter(table=started).exists()


def test_it_keeps_the_key_of_a_refused_request_in_a_row_of_its_own(started):
    waiting = (current_player(started) + 1) % 3
    refuse = dict(
        table_id=started.pk,
        player=waiting,
        action={"type": "carriage_stop"},
        idempotency_key="too-soon",
    )
    first = services.game_apply_action(**refuse, expected_version=started.version)
    someone = current_player(started)
    services.game_apply_action(
        table_id=started.pk,
        player=someone,
        action=get_rules(started.engine).legal_actions(started.state, someone)[0],
    )
    again = services.game_apply_action(**refuse, expected_version=started.version)
    assert not first.applied and not again.applied and again.replayed
    assert again.refusal == first.refusal
    stored = ActionRequest.objects.get(table=started, key=f"seat{waiting}:too-soon")
    assert stored.outcome == first.to_outcome()


def test_it_refuses_a_move_out_of_turn_with_a_sentence(started):
    waiting = (current_player(started) + 1) % 3
    result = services.game_apply_action(
        table_id=started.pk,
        player=waiting,
        action={"type": "carriage_stop"},
        expected_version=started.version,
    )
    assert not result.applied
    assert result.refusal.code
    assert result.refusal.message.endswith(".")


PROGRESSING = ("carriage_stop", "done_reading", "watson_read")


def advance_others(table, until):
    """Others rest at the Carriage Stop and finish reading, until `until(state)` holds."""
    engine = get_rules(table.engine)
    for _ in range(50):
        table.refresh_from_db()
        if until(table.state):
            return table
        moves = [
            (seat, action)
            for seat in range(len(table.state["players"]))
            for action in engine.legal_actions(table.state, seat)
            if action["type"] in PROGRESSING
        ]
        assert moves, "nobody can move the game on"
        seat, action = moves[0]
        services.game_apply_action(table_id=table.pk, player=seat, action=action)
    raise AssertionError("the game never reached the state")


def test_it_judges_a_221b_attempt_through_celery_and_the_write_path(
    started, django_capture_on_commit_callbacks
):
    engine = get_rules(started.engine)
    player = current_player(started)
    services.game_apply_action(
        table_id=started.pk,
        player=player,
        action={"type": "baker_street"},
        expected_version=started.version,
    )
    can_answer = lambda state: any(  # noqa: E731
        a["type"] == "answer" for a in engine.legal_actions(state, player)
    )
    table = advance_others(started, can_answer)
    answers = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}
    services.game_apply_action(
        table_id=table.pk, player=player, action={"type": "answer", "answers": answers}
    )
    # Judging is queued when the move that starts it commits; the eager task then
    # applies the verdicts through the same write path.
    with django_capture_on_commit_callbacks(execute=True):
        table = advance_others(
            table, lambda state: any(r["player"] == player for r in state["requests"])
        )
    table.refresh_from_db()
    attempt = TableAttempt.objects.get(table=table, seat__number=player)
    assert attempt.attempt.judged_at is not None
    assert attempt.attempt.correct_count == 3
    assert table.state["players"][player]["status"] == "won"
    assert table.status == TableStatus.FINISHED


def test_it_saves_a_notebook_privately(started, bob, charlie):
    services.notebook_write(table_id=started.pk, user=bob, text="Crane wears a grey muffler")
    membership = selectors.membership_for(table_id=started.pk, user=charlie)
    assert "grey muffler" not in str(selectors.table_view(membership=membership))


def test_it_notifies_the_players_that_the_table_started(
    lobby, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.table_start(table_id=lobby.pk, user=alice)
    assert Notification.objects.filter(user=bob, kind="table_started").count() == 1
