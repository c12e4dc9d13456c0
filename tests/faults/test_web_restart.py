"""A web server process is killed mid-round and started again: nothing is lost. Versions
and views carry on from the database, and retrying the last POST (the client never saw
its answer) returns the first result instead of acting twice."""

from play.models import TableEvent
from tests.faults.conftest import play, turn_of


def test_it_loses_nothing_when_the_server_is_killed_and_restarted(
    shared_database_url, start_server, table_for_two
):
    table, tokens = table_for_two
    server = start_server(DATABASE_URL=shared_database_url)
    seat = turn_of(server, table.pk, tokens)
    status, first = play(server, table.pk, tokens, seat, {"type": "carriage_stop"}, key="move-1")
    assert status == 200, first
    seat = turn_of(server, table.pk, tokens)
    status, last = play(server, table.pk, tokens, seat, {"type": "carriage_stop"}, key="move-2")
    assert status == 200, last
    events = TableEvent.objects.filter(table=table).count()

    server.kill()
    restarted = start_server(
        port=int(server.url.rsplit(":", 1)[1]), DATABASE_URL=shared_database_url
    )

    # Both players see the table as it was, at the same version.
    views = [restarted.request("GET", f"/api/tables/{table.pk}/", token=tokens[s]) for s in (0, 1)]
    assert [status for status, _, _ in views] == [200, 200]
    assert {view["version"] for _, _, view in views} == {last["version"]}
    assert views[seat][2]["game"] == last["game"]

    # The retried POST, with the version it was first sent with: the first result again.
    retry = {
        "action": {"type": "carriage_stop"},
        "expected_version": first["version"],
        "idempotency_key": "move-2",
    }
    status, _, again = restarted.request(
        "POST", f"/api/tables/{table.pk}/actions/", retry, token=tokens[seat]
    )
    assert status == 200, again
    assert again["replayed"] is True
    assert again["version"] == last["version"]
    assert TableEvent.objects.filter(table=table).count() == events

    # And the game goes on.
    status, _, view = restarted.request("GET", f"/api/tables/{table.pk}/", token=tokens[0])
    assert status == 200
    assert view["version"] == last["version"]
    legal = view["game"]["legal_actions"]
    if legal:
        status, body = play(restarted, table.pk, tokens, 0, legal[0], key="move-3")
        assert status in (200, 400), body
        if status == 200:
            assert body["version"] == last["version"] + 1
