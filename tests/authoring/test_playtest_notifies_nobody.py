"""A private play-test notifies nobody: its tester is alone at the table's page, so being
told "solved by" oneself, or that one's own table started, is only noise."""

from django.core import mail

from accounts.models import Notification
from authoring import services
from holmes_site.models import OutboxMessage
from play import services as play_services
from play.models import Table
from tests.authoring.test_playtests import _legal
from tests.play.test_services import advance_others

RIGHT_ANSWERS = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}


def test_it_tells_nobody_of_an_authors_solved_playtest(
    draft, alice, django_capture_on_commit_callbacks
):
    table = services.case_playtest_start(version=draft, user=alice).table
    with django_capture_on_commit_callbacks(execute=True):
        play_services.table_start(table_id=table.pk, user=alice)
        play_services.game_apply_action(
            table_id=table.pk, player=0, action={"type": "baker_street"}
        )
    table = advance_others(
        Table.objects.get(pk=table.pk),
        lambda state: any(a["type"] == "answer" for a in _legal(state)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        play_services.game_apply_action(
            table_id=table.pk, player=0, action={"type": "answer", "answers": RIGHT_ANSWERS}
        )

    table.refresh_from_db()
    assert table.state["phase"] == "over"
    assert not Notification.objects.exists()
    assert not mail.outbox
    assert not OutboxMessage.objects.filter(task="play.tasks.notify_table").exists()
