"""A blank answer through the API: refused like any illegal move (400), the sentence naming
the question and ``details.question`` its id; nothing stored, nobody judged."""

from cases.models import AnswerAttempt
from play import services
from play.models import TableEvent
from tests.play.helpers import ApiPlayer

HIDING_PLACE = "Where is the stolen watch hidden now?"


def at_221b(table, users) -> ApiPlayer:
    """The player on turn goes to 221B (answers may be written from then on)."""
    seat = table.state["turn"]
    services.game_apply_action(table_id=table.pk, player=seat, action={"type": "baker_street"})
    table.refresh_from_db()
    return ApiPlayer(users[seat], seat)


def test_it_refuses_a_blank_answer_with_400_naming_the_question_and_stores_nothing(
    started, alice, bob, charlie
):
    player = at_221b(started, [alice, bob, charlie])
    version = started.version
    events = TableEvent.objects.filter(table=started).count()
    blank = {"thief": "Silas Crane", "hiding_place": "   ", "ticket": "212"}

    refused = player.act(started.pk, {"type": "answer", "answers": blank}, version, key="k-1")

    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "code": "blank_answer",
            "message": f"Write an answer to question 2, “{HIDING_PLACE}”, before you give "
            "your answers.",
            "details": {"question": "hiding_place"},
        }
    }
    started.refresh_from_db()
    assert started.version == version
    assert started.state["answers"][player.seat] is None
    assert TableEvent.objects.filter(table=started).count() == events
    assert not AnswerAttempt.objects.exists()
    # Sent again with the same key, the same refusal comes back, details and all.
    again = player.act(started.pk, {"type": "answer", "answers": blank}, version, key="k-1")
    assert again.status_code == 400 and again.json() == refused.json()


def test_it_refuses_an_empty_answer_then_takes_it_written(started, alice, bob, charlie):
    player = at_221b(started, [alice, bob, charlie])
    written = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}

    refused = player.act(
        started.pk, {"type": "answer", "answers": {**written, "thief": ""}}, started.version
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["details"] == {"question": "thief"}
    assert "question 1, “Who stole the Ashcombe repeater?”" in refused.json()["error"]["message"]

    given = player.act(started.pk, {"type": "answer", "answers": written}, started.version)
    assert given.status_code == 200
    assert given.json()["game"]["you"]["answers"] == written
