"""A real Celery worker plays a computer player's moves and runs out a turn timer: each
move's commit queues the table's wake-up on Redis with its countdown, the worker applies
the bot's move (or the game's timeout at the deadline) through the one write path, and
queues the next wake-up itself."""

from games import get_rules
from play import services
from play.models import Table, TableEvent
from tests.integration.conftest import wait_for


def test_a_worker_moves_the_computer_player_and_runs_out_the_timer(
    tasks_to_the_worker,
    alice,
    settings,
):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    table = services.table_create(host=alice, game="sherlock_mycroft", turn_timer_seconds=10)
    services.seat_add_bot(table_id=table.pk, user=alice)
    table = services.table_start(table_id=table.pk, user=alice)
    rules_turn = table.state["turn"]
    assert rules_turn == 0  # the host plays first
    move = next(action for action in get_rules("sherlock_mycroft").legal_actions(table.state, 0))
    services.game_apply_action(table_id=table.pk, player=0, action=move)

    def bot_moved() -> bool:
        state = Table.objects.get(pk=table.pk).state
        return state["turn"] == 0 and Table.objects.get(pk=table.pk).version > 3

    wait_for(bot_moved, tasks_to_the_worker, timeout=30)
    assert "play.tasks.table_wake" in tasks_to_the_worker.log()
    bot_turn = Table.objects.get(pk=table.pk)
    assert bot_turn.deadline_at is not None  # alice's clock runs

    # Nobody moves: at the deadline, the worker plays the game's timeout for alice.
    wait_for(
        lambda: TableEvent.objects.filter(table_id=table.pk, type="timed_out").exists(),
        tasks_to_the_worker,
        timeout=40,
    )
    assert Table.objects.get(pk=table.pk).version > bot_turn.version
