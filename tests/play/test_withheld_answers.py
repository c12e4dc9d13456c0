"""A finished table keeps every answer of its case to itself while its viewer plays that
case at another table: not only the solution, but the answers given at 221B, their
verdicts and the checker's reasons ("Correct: ..."), the Holmes card's results, the
rulings and the private events that quote any of them. Through the API, the page, the
history and the views pushed to sockets alike.

At the finished table T1, alice went to 221B first and was turned away (one answer right),
ruled as Sherlock's voice on Bob's Holmes check, then bob solved the case; dave watched.
Then alice, bob and dave sit down at T2 to play the case again."""

import json

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from games.base import SYSTEM
from holmes_site.asgi import application
from play import services
from play.models import Seat, Table, TableAttempt, TableEvent, TableStatus
from play.pushed_views import present_players_views
from tests.play.sockets import PatientSocket

SOLUTION_TEXT = "he was the thief's excuse"
# Bob's right answers, in words found nowhere else in the case (its cards name the church
# and Silas Crane's lodging, so their plain names prove nothing).
BOB = {
    "thief": "silas crane",
    "hiding_place": "St James's clock tower",
    "ticket": "two hundred and twelve",
}
# Alice's: the ticket right, the rest wrong.
ALICE = {"thief": "Colonel Moran", "hiding_place": "Waterloo Bridge", "ticket": "No. 212"}
CHECKED = "Crane-the-journeyman"  # what bob asks Sherlock to check, alice rules on
SECRETS = [*BOB.values(), "Colonel Moran", "Waterloo Bridge", "No. 212", CHECKED, "Correct:"]
# Private events that quote answers or verdicts.
QUOTING = {"your_answers", "your_restatement", "consultation", "check_result", "ruling_request"}


def move(table: Table, seat, action: dict) -> None:
    services.game_apply_action(table_id=table.pk, player=seat, action=action)


def deliver_verdicts(table: Table) -> None:
    """What the judging task does once the move that queued it commits (a test in one
    transaction never commits)."""
    for attempt in TableAttempt.objects.filter(table=table, attempt__judged_at__isnull=True):
        services.table_attempt_deliver_verdicts(table_attempt_id=attempt.pk)


def visiting(table: Table, moves: dict[int, dict]) -> None:
    """Each seat places its pawn, in the game's turn order."""
    table.refresh_from_db()
    while table.state["phase"] == "visiting":
        move(table, table.state["turn"], moves[table.state["turn"]])
        table.refresh_from_db()


def everyone_done(table: Table) -> None:
    table.refresh_from_db()
    for seat in range(len(table.state["players"])):
        if table.state["pawns"][seat] != "221B" and not table.state["done"][seat]:
            move(table, seat, {"type": "done_reading"})


def visit(location: int) -> dict:
    return {"type": "visit", "location": location, "carriages": 0}


BAKER_STREET = {"type": "baker_street"}


def finished_t1(started: Table, *, ruling: bool) -> Table:
    """alice turned away at 221B, bob's Holmes check ruled on by alice (`ruling`), and
    bob's answers solving the case."""
    if ruling:
        visiting(started, {0: BAKER_STREET, 1: visit(2), 2: visit(3)})
        move(started, 0, {"type": "answer", "answers": ALICE})
        everyone_done(started)
        deliver_verdicts(started)
        started.refresh_from_db()
        assert started.state["players"][0]["status"] == "eliminated"
        move(started, 1, {"type": "holmes_check", "question": "thief", "answer": CHECKED})
        started.refresh_from_db()
        check = started.state["requests"][-1]["id"]
        move(started, SYSTEM, {"type": "judged", "request": check, "verdicts": {"thief": "unsure"}})
        move(started, 0, {"type": "rule", "request": check, "verdict": "correct"})
        visiting(started, {1: BAKER_STREET, 2: visit(9)})
        move(started, 1, {"type": "answer", "answers": BOB})
    else:
        visiting(started, {0: BAKER_STREET, 1: BAKER_STREET, 2: visit(3)})
        move(started, 0, {"type": "answer", "answers": ALICE})
        move(started, 1, {"type": "answer", "answers": BOB})
    everyone_done(started)
    deliver_verdicts(started)
    started.refresh_from_db()
    assert started.status == TableStatus.FINISHED
    assert started.state["result"]["winners"] == [1]
    return started


def play_again_elsewhere(tutorial, alice, bob, dave) -> Table:
    """T2: the case again, running, with alice, bob and dave."""
    again = services.table_create(host=alice, case_version=tutorial)
    for user in (bob, dave):
        services.table_join(invite_code=again.invite_code, user=user)
    return services.table_start(table_id=again.pk, user=alice)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def leaked(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def strings(value) -> list[str]:
    """Every text in a JSON body, keys left out."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return [value] if isinstance(value, str) else []


def assert_withheld_view(view: dict) -> None:
    assert view["solution"] is None and view["solution_withheld"] is True
    game = view["game"]
    assert game["attempts"] is None
    you = game["you"]
    if you is not None:
        assert you["answers"] is None and you["attempt"] is None
        assert you["holmes"] == {"consult": None, "check": None}
        assert you["rulings"] == []
    texts = strings(view)
    assert not [t for t in texts if t in ("correct", "wrong", "unsure")], "a verdict"
    assert not leaked(json.dumps(view))


@pytest.fixture
def t1_over_and_t2_running(started, tutorial, alice, bob, dave):
    services.spectator_join(invite_code=started.invite_code, user=dave)
    t1 = finished_t1(started, ruling=True)
    # Before T2, the finished table shows its players everything: the test's premise.
    for user in (alice, bob, dave):
        body = client_for(user).get(f"/api/tables/{t1.pk}/").json()
        assert body["solution"] is not None and body["game"]["attempts"]
    assert "Correct:" in client_for(alice).get(f"/api/tables/{t1.pk}/").content.decode()
    play_again_elsewhere(tutorial, alice, bob, dave)
    return t1


def test_it_keeps_every_answer_and_verdict_of_a_finished_table_from_its_api_view(
    t1_over_and_t2_running, alice, bob, dave
):
    t1 = t1_over_and_t2_running
    for user in (alice, bob, dave):
        response = client_for(user).get(f"/api/tables/{t1.pk}/")
        assert response.status_code == 200
        assert_withheld_view(response.json())


def test_it_keeps_them_from_the_table_page_and_its_live_region(
    t1_over_and_t2_running, alice, bob, dave
):
    t1 = t1_over_and_t2_running
    for user in (alice, bob, dave):
        client = client_for(user)
        for name in ("play:table", "play:table-live"):
            html = client.get(reverse(name, args=[t1.pk])).text
            assert "stays closed here until that game ends" in html
            assert SOLUTION_TEXT not in html
            assert not leaked(html), (user.username, name)
            assert 'id="attempts"' not in html and 'id="debrief"' not in html
            assert 'id="your-verdicts"' not in html


def test_it_keeps_the_events_that_quote_answers_from_the_history(
    t1_over_and_t2_running, alice, bob, dave
):
    t1 = t1_over_and_t2_running
    quoted = set(TableEvent.objects.filter(table=t1).values_list("type", flat=True)) & QUOTING
    assert quoted >= {"your_answers", "check_result", "ruling_request"}  # the premise
    for user in (alice, bob, dave):
        response = client_for(user).get(f"/api/tables/{t1.pk}/events/")
        assert response.status_code == 200
        assert not {event["type"] for event in response.json()} & QUOTING
        assert not leaked(response.content.decode())


def test_it_keeps_them_from_the_views_pushed_to_sockets(t1_over_and_t2_running):
    t1 = Table.objects.get(pk=t1_over_and_t2_running.pk)
    views = present_players_views(t1, frozenset({0, 1, 2}))
    by_user = {seat.number: seat.user_id for seat in Seat.objects.filter(table=t1)}
    for seat in (0, 1):  # alice and bob play the case again; charlie does not
        assert_withheld_view(views[by_user[seat]])
    assert views[by_user[2]]["solution"] is not None


@pytest.mark.django_db(transaction=True)
def test_a_socket_opened_on_the_finished_table_gets_a_view_without_them(
    started, tutorial, alice, bob, dave
):
    t1 = finished_t1(started, ruling=False)
    play_again_elsewhere(tutorial, alice, bob, dave)
    for user in (alice, bob):
        client = client_for(user)
        headers = [
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
        ]
        socket = PatientSocket(application, f"/ws/tables/{t1.pk}/", headers=headers)
        socket.scope["path"] = f"/ws/tables/{t1.pk}/"
        socket.scope["query_string"] = b"views=1"

        async def hello(socket=socket):
            connected, _ = await socket.connect()
            assert connected
            first = await socket.receive_json_from()
            await socket.disconnect()
            return first

        first = async_to_sync(hello)()
        assert first["type"] == "view"
        assert_withheld_view(first["view"])
