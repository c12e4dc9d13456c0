"""Presence: a player whose table page is open (its websocket) gets no "your turn"
notification; one who has left the table does, once while they stay away. Everyone else's
notifications are unchanged.

Through the real ASGI application, as tests/play/test_websocket.py; committed data
(transactional_db), because the consumer's database work runs in other threads."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.models import Notification
from play import move_sql, presence, services
from play.consumers import CLOSE_NOT_A_MEMBER
from play.models import Seat, Spectator, Table, TableSocket
from play.tasks import sockets_sweep
from tests.play.helpers import ApiPlayer
from tests.play.test_websocket import move_on_turn, run, socket_for

pytestmark = pytest.mark.django_db(transaction=True)


def _at_table(*, table_id: int, seat: int) -> bool:
    # As the write path reads it: the seats with a socket open (play/presence.py).
    return seat in presence.table_presence(table_id=table_id).present


at_table = sync_to_async(_at_table)
watched = sync_to_async(presence.anyone_watching)


@pytest.fixture
def pings_renew(monkeypatch):
    """Every ping renews its socket's row, as one does once half of PRESENCE_SECONDS
    has passed since the last (play/consumers.py)."""
    monkeypatch.setattr(presence, "RENEW_WITHIN_SECONDS", presence.PRESENCE_SECONDS + 1)


def your_turns(user) -> int:
    return Notification.objects.filter(user=user, kind="your_turn").count()


def whose_turn(table_id: int) -> int:
    return Table.objects.get(pk=table_id).state["turn"]


def next_on_turn(table_id: int, users: list) -> tuple[int, object]:
    """The seat that will be on turn after the current player rests, and its user."""
    table = Table.objects.get(pk=table_id)
    seat = (table.state["turn"] + 1) % len(users)  # the first round: in order
    return seat, users[seat]


def seat_id(table_id: int, number: int) -> int:
    return Seat.objects.get(table_id=table_id, number=number).pk


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
        assert await at_table(table_id=started.pk, seat=seat)
        await move(started.pk)
        assert await turn(started.pk) == seat
        assert await sync_to_async(your_turns)(user) == before
        await socket.disconnect()
        assert not await at_table(table_id=started.pk, seat=seat)

    run(scenario)
    # Play on until it is their turn again: away now, the player hears of it.
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 1


def test_it_reads_presence_with_the_lock_of_a_move_made_through_the_api(
    started, alice, bob, charlie
):
    users = [alice, bob, charlie]
    seat, user = next_on_turn(started.pk, users)
    on_turn = whose_turn(started.pk)
    mover = ApiPlayer(users[on_turn], on_turn)
    before = your_turns(user)
    socket = presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, seat))
    table = Table.objects.get(pk=started.pk)

    response = mover.act(started.pk, {"type": "carriage_stop"}, table.version)

    assert response.status_code == 200, response.content
    assert whose_turn(started.pk) == seat
    assert your_turns(user) == before  # at the table: the page says it
    presence.socket_close(socket_id=socket)
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
    quiet = timedelta(seconds=presence.YOUR_TURN_QUIET_SECONDS + 1)
    Seat.objects.filter(pk=seat_id(started.pk, seat)).update(
        your_turn_told_at=timezone.now() - quiet
    )
    play_until_turn_of(started.pk, seat)
    assert your_turns(user) == before + 3


def test_it_claims_a_notice_once_and_never_for_a_player_at_the_table(started):
    def due(seat: int) -> bool:
        return presence.table_presence(table_id=started.pk).your_turn_notice_due(seat)

    assert due(1)
    presence.your_turn_claim(table_id=started.pk, seats=[1])
    assert not due(1)
    assert due(2)
    socket = presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 0))
    assert not due(0)
    presence.socket_close(socket_id=socket)
    assert due(0)
    # Coming back to the table makes the next absence news again.
    socket = presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 1))
    presence.socket_close(socket_id=socket)
    assert due(1)


def test_it_reads_the_same_presence_in_the_move_s_lock_and_on_its_own(started, bob):
    presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 2))
    for _ in range(2):  # a program and its second copy, say
        presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 1), wants_views=True)
    presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 0), wants_views=True)
    presence.socket_open(table_id=started.pk, seat_id=None)  # a spectator's
    presence.your_turn_claim(table_id=started.pk, seats=[0])
    with transaction.atomic():
        _, locked, _, _ = move_sql.seat_locking_table(table_id=started.pk, user_id=bob.pk)

    expected = presence.TablePresence(
        watched=True,
        present=frozenset({0, 1, 2}),
        told=frozenset({0}),
        viewers=frozenset({0, 1}),
        hinted=True,
        viewers_twice=frozenset({1}),
    )
    assert locked == presence.table_presence(table_id=started.pk) == expected


def test_it_reads_that_only_sockets_with_their_views_are_open(started, bob):
    presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 0), wants_views=True)
    presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 2), wants_views=True)
    # A spectator's socket never gets views: it hears versions.
    spectators = presence.socket_open(table_id=started.pk, seat_id=None, wants_views=True)

    with_spectator = presence.table_presence(table_id=started.pk)
    presence.socket_close(socket_id=spectators)
    without = presence.table_presence(table_id=started.pk)

    assert with_spectator.viewers == without.viewers == {0, 2}
    assert with_spectator.hinted and not without.hinted


def test_it_counts_a_player_present_while_any_of_their_sockets_is_open(started, bob):
    seat = 1  # bob joined second
    first, second = socket_for(started.pk, bob), socket_for(started.pk, bob)

    async def scenario():
        await first.connect()
        await second.connect()
        await first.disconnect()
        assert await at_table(table_id=started.pk, seat=seat)
        await second.disconnect()
        assert not await at_table(table_id=started.pk, seat=seat)

    run(scenario)


def expire_sockets(table_id: int) -> None:
    """As PRESENCE_SECONDS passing without a ping would."""
    past = timezone.now() - timedelta(seconds=1)
    TableSocket.objects.filter(table_id=table_id).update(expires_at=past)


def test_a_ping_soon_after_the_last_renewal_writes_nothing(started, bob, monkeypatch):
    socket = socket_for(started.pk, bob)
    expiry = sync_to_async(lambda: TableSocket.objects.get(table_id=started.pk).expires_at)

    async def scenario():
        await socket.connect()
        await socket.receive_json_from()  # the version on connecting
        opened = await expiry()
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from() == {"type": "pong"}
        soon = await expiry()
        # Half of PRESENCE_SECONDS later, as far as the socket can tell:
        monkeypatch.setattr(presence, "RENEW_WITHIN_SECONDS", presence.PRESENCE_SECONDS + 1)
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from() == {"type": "pong"}
        later = await expiry()
        await socket.disconnect()
        return opened, soon, later

    opened, soon, later = run(scenario)
    assert soon == opened
    assert later > opened


@pytest.mark.usefixtures("pings_renew")
def test_it_keeps_a_pinging_player_present_after_their_socket_expired(started, bob):
    socket = socket_for(started.pk, bob)
    expire, sweep = sync_to_async(expire_sockets), sync_to_async(TableSocket.objects.all().delete)

    async def scenario():
        await socket.connect()
        await socket.receive_json_from()  # the version on connecting
        await expire(started.pk)
        assert not await at_table(table_id=started.pk, seat=1)
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from() == {"type": "pong"}
        assert await at_table(table_id=started.pk, seat=1)
        # Swept away meanwhile (another socket opened on the table): counted again.
        await sweep()
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from() == {"type": "pong"}
        assert await at_table(table_id=started.pk, seat=1)
        await socket.disconnect()
        assert not await at_table(table_id=started.pk, seat=1)

    run(scenario)


def test_it_does_not_mark_a_spectator(started, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    socket = socket_for(started.pk, frank)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        for seat in range(7):
            assert not await at_table(table_id=started.pk, seat=seat)
        await socket.disconnect()

    run(scenario)


@pytest.mark.usefixtures("pings_renew")
def test_it_counts_every_socket_watching_the_table_spectators_too(started, bob, frank):
    Spectator.objects.create(table_id=started.pk, user=frank)
    player, spectator = socket_for(started.pk, bob), socket_for(started.pk, frank)

    async def scenario():
        assert not await watched(table_id=started.pk)
        await spectator.connect()
        assert await watched(table_id=started.pk)
        await player.connect()
        await spectator.disconnect()
        assert await watched(table_id=started.pk)
        await sync_to_async(expire_sockets)(started.pk)
        assert not await watched(table_id=started.pk)
        await player.receive_json_from()  # the version on connecting
        await player.send_json_to({"type": "ping"})
        assert await player.receive_json_from() == {"type": "pong"}
        assert await watched(table_id=started.pk)
        await player.disconnect()
        assert not await watched(table_id=started.pk)

    run(scenario)


def test_it_forgets_a_socket_whose_process_died_and_sweeps_it_away(started, alice, bob, charlie):
    users = [alice, bob, charlie]
    seat, user = next_on_turn(started.pk, users)
    presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, seat))
    expire_sockets(started.pk)  # its process died: no close, no more pings
    before = your_turns(user)

    move_on_turn(started.pk)

    assert your_turns(user) == before + 1
    assert not presence.anyone_watching(table_id=started.pk)
    presence.socket_open(table_id=started.pk, seat_id=None)
    assert TableSocket.objects.filter(table_id=started.pk).count() == 1


def test_it_asks_nothing_of_the_cache_to_make_a_move(started, alice, bob, charlie, monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("a move asked the cache")

    for method in ("get", "get_many", "add", "set", "incr"):
        monkeypatch.setattr(cache, method, refused)
    seat, user = next_on_turn(started.pk, [alice, bob, charlie])
    before = your_turns(user)
    on_turn = whose_turn(started.pk)
    mover = ApiPlayer([alice, bob, charlie][on_turn], on_turn)

    response = mover.act(
        started.pk, {"type": "carriage_stop"}, Table.objects.get(pk=started.pk).version
    )

    assert response.status_code == 200, response.content
    assert your_turns(user) == before + 1  # away: told, once
    assert presence.table_presence(table_id=started.pk).told == {seat}


@pytest.mark.usefixtures("pings_renew")
def test_it_closes_the_socket_of_a_player_who_left_the_lobby(lobby, charlie):
    socket = socket_for(lobby.pk, charlie)
    leave = sync_to_async(services.table_leave)

    async def scenario():
        connected, _ = await socket.connect()
        assert connected
        await leave(table_id=lobby.pk, user=charlie)  # their seat goes, and its socket row
        await socket.send_json_to({"type": "ping"})
        while (output := await socket.receive_output())["type"] != "websocket.close":
            assert output["type"] == "websocket.send"  # the versions pushed meanwhile
        assert output["code"] == CLOSE_NOT_A_MEMBER

    run(scenario)
    assert not TableSocket.objects.filter(table=lobby).exists()


def test_it_sweeps_away_the_sockets_of_dead_processes_and_keeps_the_live_ones(started):
    live = presence.socket_open(table_id=started.pk, seat_id=None)
    dead = presence.socket_open(table_id=started.pk, seat_id=seat_id(started.pk, 0))
    past = timezone.now() - timedelta(seconds=1)
    TableSocket.objects.filter(pk=dead).update(expires_at=past)

    assert sockets_sweep.delay().get() == 1  # as a connecting worker queues it (eager in tests)
    assert list(TableSocket.objects.values_list("pk", flat=True)) == [live]


def test_a_socket_opening_on_a_seat_that_is_gone_counts_nothing(started, alice):
    gone_seat_id = Seat.objects.get(table_id=started.pk, number=0).pk
    Seat.objects.filter(pk=gone_seat_id).delete()

    opened = presence.socket_open(table_id=started.pk, seat_id=gone_seat_id, user_id=alice.pk)

    assert opened is None
    assert not TableSocket.objects.filter(table_id=started.pk).exists()


def test_a_socket_opening_marks_its_seat_seen_and_back(started, alice):
    seat = Seat.objects.get(table_id=started.pk, number=0)
    Seat.objects.filter(pk=seat.pk).update(your_turn_told_at=timezone.now(), seen_at=None)

    opened = presence.socket_open(table_id=started.pk, seat_id=seat.pk, user_id=alice.pk)

    seat.refresh_from_db()
    assert opened == TableSocket.objects.get(table_id=started.pk).pk
    assert seat.seen_at is not None and seat.your_turn_told_at is None


def test_a_socket_closing_forgets_its_row_and_marks_its_seat_seen(started, alice):
    seat = Seat.objects.get(table_id=started.pk, number=0)
    other = Seat.objects.get(table_id=started.pk, number=1)
    closing = presence.socket_open(table_id=started.pk, seat_id=seat.pk, user_id=alice.pk)
    staying = presence.socket_open(table_id=started.pk, seat_id=other.pk)
    long_ago = timezone.now() - timedelta(hours=1)
    Seat.objects.filter(table_id=started.pk).update(seen_at=long_ago)

    presence.socket_close(socket_id=closing)

    seat.refresh_from_db()
    other.refresh_from_db()
    assert seat.seen_at > long_ago  # the moment they went away
    assert other.seen_at == long_ago  # another seat's socket is none of this one's
    assert list(TableSocket.objects.values_list("pk", flat=True)) == [staying]


def test_a_socket_swept_away_already_closes_without_touching_any_seat(started, alice):
    seat = Seat.objects.get(table_id=started.pk, number=0)
    socket = presence.socket_open(table_id=started.pk, seat_id=seat.pk, user_id=alice.pk)
    TableSocket.objects.filter(pk=socket).delete()
    long_ago = timezone.now() - timedelta(hours=1)
    Seat.objects.filter(pk=seat.pk).update(seen_at=long_ago)

    presence.socket_close(socket_id=socket)

    seat.refresh_from_db()
    assert seat.seen_at == long_ago
