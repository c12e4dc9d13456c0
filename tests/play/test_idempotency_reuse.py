"""An idempotency key names one request: sent again with another body, it is refused with
422, neither replayed (the first request's result for another move) nor applied (a second
move under a key that was spent). Issue 22.

The write path keeps a fingerprint of the move with its key (play/services/moves.py,
`action_fingerprint`) and looks the key up at every version, not only a stale one.
"""

from play.models import TableEvent
from tests.play.test_api import on_turn, table_players  # noqa: F401


def test_a_key_reused_for_another_move_at_the_current_version_is_refused(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)
    refused = player.act(
        started.pk, {"type": "visit", "location": 1, "carriages": 99}, view["version"], key="spent"
    )
    assert refused.status_code == 400
    events = TableEvent.objects.filter(table=started).count()

    reused = player.act(started.pk, {"type": "carriage_stop"}, view["version"], key="spent")

    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    started.refresh_from_db()
    assert started.version == view["version"]
    assert TableEvent.objects.filter(table=started).count() == events


def test_a_key_reused_for_another_move_after_the_table_moved_on_is_refused(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)
    first = player.act(started.pk, {"type": "carriage_stop"}, view["version"], key="once")
    assert first.status_code == 200

    # Another move under the same key, the version it was sent at: not the first's replay.
    reused = player.act(started.pk, {"type": "take_watson"}, view["version"], key="once")

    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"


def test_the_same_body_under_the_same_key_is_still_replayed(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)
    body = {"type": "carriage_stop"}
    first = player.act(started.pk, body, view["version"], key="retry")
    again = player.act(started.pk, body, view["version"], key="retry")

    assert first.status_code == again.status_code == 200
    assert again.json()["replayed"] is True


def test_a_spent_key_sent_again_at_the_current_version_is_replayed_not_applied_twice(
    started,
    table_players,  # noqa: F811
):
    player, view = on_turn(table_players, started.pk)
    body = {"type": "carriage_stop"}
    first = player.act(started.pk, body, view["version"], key="spent-once")
    assert first.status_code == 200
    events = TableEvent.objects.filter(table=started).count()

    # The same request, claiming the version the table has now: still the first's replay.
    again = player.act(started.pk, body, first.json()["version"], key="spent-once")

    assert again.status_code == 200
    assert again.json()["replayed"] is True
    started.refresh_from_db()
    assert started.version == first.json()["version"]
    assert TableEvent.objects.filter(table=started).count() == events


def test_the_fingerprint_does_not_depend_on_the_order_of_a_moves_keys():
    from play.services import action_fingerprint

    one = action_fingerprint({"type": "visit", "location": 12, "carriages": 2})
    other = action_fingerprint({"carriages": 2, "location": 12, "type": "visit"})
    assert one == other
    assert one != action_fingerprint({"type": "visit", "location": 12, "carriages": 3})
