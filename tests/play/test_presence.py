"""Presence: a player whose table page is open (its websocket) gets no "your turn"
notification; one who has left the table does, once while they stay away. Everyone else's
notifications are unchanged.

Through the real ASGI application, as tests/play/test_websocket.py; committed data
(transactional_db), because the consumer's database work runs in other threads."""

import pytest
import redis.exceptions
from asgiref.sync import sync_to_async
from django.core.cache import cache

from accounts.models import Notification
from play import presence
from play.models import Spectator, Table
from tests.play.test_websocket import move_on_turn, run, socket_for

pytestmark = pytest.mark.django_db(transaction=True)


def your_turns(user) -> int:
    return Notification.objects.filter(user=user, kind="your_turn").count()


def whose_turn(table_id: int) -> int:
    return Table.objects.get(pk=table_id).state["turn"]


def next_on_turn(table_id: int, users: list) -> tuple[int, object]:
    """The seat that will be on turn after the current player rests, and its user."""
    table = Table.objects.get(pk=table_id)
    seat = (table.state["turn"] + 1) % len(users)  # the first round: in order
    return seat, users[seat]


def test_it_does_not_notify_a_player_at_the_table_whose_turn_it_becomes(
    started, alice, bob, charlie
):
    users = [alice, bob, charlie]
    seat, user = next_on_turn(started.pk, users)
    before = your_turns(user)
    socket = socket_for(started.pk, user)
    move, turn = sync_to_async(move_on_turn), sync_to_async(whose_turn)

    async def scenario():
        await socket.connect()
        await socket.receive_json_from()  # the version now
        assert presence.is_at_table(table_id=started.pk, seat=seat)
        await move(started.pk)
        assert await turn(started.pk) == seat
        assert await sync_to_async(your_turns)(user) == before
        await socket.disconnect()
        assert not presence.is_at_table(table_id=started.pk, seat=seat)

    run(scenario)
    # Play on until it is their turn again: away now, the player hears of it.
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 1


def play_until_turn_of(table_id: int, seat: int) -> None:
    """Whoever is on turn rests, until it is `seat`'s turn again (after a move of theirs
    if it is theirs now), as a program playing through the API would, without a socket."""
    move_on_turn(table_id)
    for _ in range(12):
        if whose_turn(table_id) == seat:
            return
        move_on_turn(table_id)
    raise AssertionError(f"seat {seat} never came on turn")


def visit_the_table(table_id: int, user) -> None:
    socket = socket_for(table_id, user)

    async def scenario():
        await socket.connect()
        await socket.receive_json_from()  # the version now
        await socket.disconnect()

    run(scenario)


def test_it_tells_a_player_who_stays_away_once_not_at_every_turn(started, alice, bob, charlie):
    seat, user = next_on_turn(started.pk, [alice, bob, charlie])
    before = your_turns(user)
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 1
    play_until_turn_of(started.pk, seat)
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 1
    # Back at the table for a moment, then away again: their next turn is news.
    visit_the_table(started.pk, user)
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 2
    # Staying away past the quiet time: told again.
    cache.delete(presence.told_key(started.pk, seat))  # as YOUR_TURN_QUIET_SECONDS would
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 3


def test_it_claims_a_notice_once_and_never_for_a_player_at_the_table(started):
    def due(seat: int) -> bool:
        marks = presence.move_marks(table_id=started.pk, turn_seats=[seat])
        return presence.your_turn_notice_due(marks=marks, table_id=started.pk, seat=seat)

    assert due(1)
    assert not due(1)
    assert due(2)
    presence.presence_arrive(table_id=started.pk, seat=0)
    assert not due(0)
    presence.presence_leave(table_id=started.pk, seat=0)
    assert due(0)


def test_it_counts_a_player_present_while_any_of_their_sockets_is_open(started, bob):
    seat = 1  # bob joined second
    first, second = socket_for(started.pk, bob), socket_for(started.pk, bob)

    async def scenario():
        await first.connect()
        await second.connect()
        await first.disconnect()
        assert presence.is_at_table(table_id=started.pk, seat=seat)
        await second.disconnect()
        assert not presence.is_at_table(table_id=started.pk, seat=seat)

    run(scenario)


def test_it_keeps_a_pinging_player_present_after_their_mark_expired(started, bob):
    socket = socket_for(started.pk, bob)

    async def scenario():
        await socket.connect()
        await socket.receive_json_from()  # the version on connecting
        cache.delete(presence.presence_key(started.pk, 1))  # as PRESENCE_SECONDS passing would
        assert not presence.is_at_table(table_id=started.pk, seat=1)
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from() == {"type": "pong"}
        assert presence.is_at_table(table_id=started.pk, seat=1)
        await socket.disconnect()

    run(scenario)


def test_it_does_not_mark_a_spectator(started, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    socket = socket_for(started.pk, frank)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        assert not any(presence.is_at_table(table_id=started.pk, seat=n) for n in range(7))
        await socket.disconnect()

    run(scenario)


def test_it_counts_every_socket_watching_the_table_spectators_too(started, bob, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    player, spectator = socket_for(started.pk, bob), socket_for(started.pk, frank)
    watched = lambda: presence.anyone_watching(table_id=started.pk)  # noqa: E731

    async def scenario():
        assert not watched()
        await spectator.connect()
        assert watched()
        await player.connect()
        await spectator.disconnect()
        assert watched()
        cache.delete(presence.watchers_key(started.pk))  # as PRESENCE_SECONDS passing would
        await player.receive_json_from()  # the version on connecting
        await player.send_json_to({"type": "ping"})
        assert await player.receive_json_from() == {"type": "pong"}
        assert watched()
        await player.disconnect()
        assert not watched()

    run(scenario)


def test_it_notifies_everyone_when_the_cache_cannot_say_who_is_present(
    started, alice, bob, charlie, monkeypatch
):
    users = [alice, bob, charlie]
    seat, user = next_on_turn(started.pk, users)
    presence.presence_arrive(table_id=started.pk, seat=seat)

    def unreachable(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "get", unreachable)
    monkeypatch.setattr(cache, "get_many", unreachable)
    before = your_turns(user)
    move_on_turn(started.pk)
    assert your_turns(user) == before + 1


def test_it_answers_a_move_s_questions_in_one_round_trip(started, bob, monkeypatch):
    asked, inside = [], []  # the calls the move makes, not LocMem's get_many's own gets

    def counted(method, real):
        def call(*args, **kwargs):
            if not inside:
                asked.append(method)
            inside.append(method)
            try:
                return real(*args, **kwargs)
            finally:
                inside.pop()

        return call

    for method in ("get", "get_many", "add"):
        monkeypatch.setattr(cache, method, counted(method, getattr(cache, method)))
    next_seat = (whose_turn(started.pk) + 1) % 3

    move_on_turn(started.pk)  # the turn passes to a player who is away: told, once
    assert asked == ["get_many", "add"]
    marks = presence.move_marks(table_id=started.pk, turn_seats=[next_seat])
    assert marks == presence.MoveMarks(watched=False, away_untold=frozenset())

    presence.watching_start(table_id=started.pk)
    presence.presence_arrive(table_id=started.pk, seat=next_seat)
    presence.presence_leave(table_id=started.pk, seat=next_seat)  # back and gone: news again
    marks = presence.move_marks(table_id=started.pk, turn_seats=[next_seat])
    assert marks.watched and marks.away_untold == {next_seat}
