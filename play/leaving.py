"""Leaving a started game, and the host removing a player who is away.

Either way the seat goes to a computer player, in a game that has one: it keeps its
number (the engine's player index), its colour and its place in the turn order, and the
computer chooses from that seat's view alone, as every computer player does. The person
no longer holds the seat, so nothing of it reaches them any more (their notes go with
it). Everyone reads what happened in a sentence, in the table's history and on its page.

A game without computer players may pass the seat by instead (``Game.withdraw``; the
case game does): the rules take the seat out of play, settle what it owed, and never
wait for it again. The seat stays, held by nobody (``Seat.left_at``), so nothing of it
reaches the person who left, and no computer player is ever given it. A game with
neither keeps the seat; leaving it is refused with a sentence.

A person who holds players on their device (pass and play) takes them along: nobody
else could play those seats, so they go the same way as the person's own.
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from accounts.services import notifications_send
from games import get_game, get_rules
from games.base import DEFAULT_BOT_LEVEL, Event, Refusal

from .models import Notebook, Seat, Table, TableSocket, TableStatus
from .services import BOT_NAME, NotSeated, TableError, check_host_powers
from .services.moves import append_events, store_move
from .services.side_effects import after_commit_push, after_commit_wake, plan_wake

# The event in the table's history; its sentence is for everyone.
SEAT_REPLACED = "seat_replaced"


@transaction.atomic
def seat_leave(*, table_id: int, user) -> Seat:
    """`user` gives up their seat at a started game; a computer player takes it, or play
    passes it by. The players on their device (pass and play) leave with them: nobody
    else could play those seats, so they go the same way, each with its own sentence."""
    table = _playing_table(table_id)
    seat = Seat.objects.filter(table=table, user=user).select_related("user").first()
    if seat is None:
        raise NotSeated()
    game = _check_replaceable(table)
    held = list(Seat.objects.filter(table=table, held_by=user).order_by("number"))
    name = seat.user.public_name
    _give_up(table, game, seat, by=user, what=f"{name} left the game")
    for local in held:
        if table.status != TableStatus.PLAYING:
            break  # the last seat in play has gone: the game is over
        what = f"{local.local_name}, on {name}'s device, left the game too"
        _give_up(table, game, local, by=user, what=what)
    return seat


def _give_up(table: Table, game, seat: Seat, *, by, what: str) -> Seat:
    """The seat goes to a computer player, or play passes it by; `what` (what happened)
    starts the sentence everyone reads, which ends by saying which."""
    if game.bot is None:
        return _seat_passed_by(table, seat, by=by, sentence=f"{what}; play passes them by.")
    return _seat_to_computer(table, seat, by=by, what=what)


@transaction.atomic
def seat_remove(*, table_id: int, host, number: int) -> Seat:
    """The host removes the player at seat `number`, who has been away from the table for
    at least HOLMES_AWAY_SECONDS; a computer player takes the seat."""
    table = _playing_table(table_id)
    check_host_powers(table, host, refusal="Only the host removes players.")
    seat = Seat.objects.filter(table=table, number=number).select_related("user").first()
    if seat is None or seat.user_id is None:
        raise TableError("No player sits in that seat.", "no_such_player")
    if seat.user_id == host.pk:
        raise TableError("You cannot remove yourself: leave the game instead.", "own_seat")
    game = _check_replaceable(table)
    left = away_seconds_left(table=table, seat=seat)
    if left:
        raise TableError(
            f"{seat.user.public_name} is not away long enough to be removed: "
            f"try again in {left} seconds.",
            "not_away",
        )
    removed, title = seat.user, (table.summary or {}).get("title", "a game")
    then = "a computer player took your seat" if game.bot else "play passes your seat by"
    notifications_send(
        users=[removed],
        kind="table_news",
        message=f"{host.public_name} removed you from {title}, as you were away; {then}.",
        url=reverse("play:tables"),
        dedupe_key=f"table{table.pk}:seat{number}:removed",
    )
    what = f"{host.public_name} removed {removed.public_name}, who was away"
    return _give_up(table, game, seat, by=host, what=what)


def away_seconds_left(*, table: Table, seat: Seat, now=None, present: bool | None = None) -> int:
    """How many seconds more the player at `seat` must be away before the host may remove
    them: 0 when they may be removed now. A page open on the table counts as present
    (`present`: whether one is, if the caller knows)."""
    now = now or timezone.now()
    if present is None:
        present = TableSocket.objects.filter(seat=seat, expires_at__gt=now).exists()
    if present:
        return settings.HOLMES_AWAY_SECONDS
    # Never seen since the start: away since the start.
    since = max(filter(None, [seat.seen_at, table.started_at]), default=now)
    due = since + timedelta(seconds=settings.HOLMES_AWAY_SECONDS)
    return max(0, int((due - now).total_seconds() + 0.999))


def seats_away(*, table: Table) -> set[int]:
    """The seats whose players the host may remove now (for the page's Remove buttons):
    people other than the host, away for HOLMES_AWAY_SECONDS at least. One query."""
    now = timezone.now()
    live = TableSocket.objects.filter(seat=OuterRef("pk"), expires_at__gt=now)
    seats = (
        Seat.objects.filter(table=table, user__isnull=False)
        .exclude(user_id=table.host_id)
        .annotate(present=Exists(live))
        .filter(present=False)
    )
    return {
        seat.number
        for seat in seats
        if not away_seconds_left(table=table, seat=seat, now=now, present=False)
    }


def _playing_table(table_id: int) -> Table:
    table = Table.objects.select_for_update(of=("self",)).filter(pk=table_id).first()
    if table is None:
        raise NotSeated()
    if table.status != TableStatus.PLAYING:
        raise TableError("Seats are given up only while the game is played.", "not_playing")
    return table


def _check_replaceable(table: Table):
    """The table's game, if a seat there can be given up: to a computer player, or passed
    by (``Game.withdraw``)."""
    game = get_game(table.engine)
    if game.bot is None and game.withdraw is None:
        raise TableError(
            f"{game.title} has no computer player to take a seat: stay in it (a table "
            "with a turn timer passes an absent player's turn by).",
            "no_bot",
        )
    return game


def _seat_passed_by(table: Table, seat: Seat, *, by, sentence: str) -> Seat:
    """A game without computer players: the rules take the seat out of play (its turn and
    whatever it owed are settled, the game ends if nobody is left), and nobody holds it
    any more. `by` is told nothing; the other players are told in the sentence."""
    rules = get_rules(table.engine)
    withdrawn = get_game(table.engine).withdraw(table.state, seat.number)
    if isinstance(withdrawn, Refusal):
        raise TableError(withdrawn.message, withdrawn.code)
    state, events = withdrawn
    # The notes were the person's own, and the seat's private view is no longer theirs.
    Notebook.objects.filter(seat=seat).delete()
    TableSocket.objects.filter(seat=seat).delete()
    seat.user, seat.left_at, seat.your_turn_told_at = None, timezone.now(), None
    _let_go_of_local(seat)
    seat.save(update_fields=["user", "left_at", "your_turn_told_at", *LOCAL_FIELDS])
    _mark_left_in_summary(table, seat.number, sentence)
    table.save(update_fields=["summary"])
    # The same write path as a move: the version, the events, the end of the game if
    # nobody is left, the next wake-up, and the push and your-turn notices that follow.
    said = Event(SEAT_REPLACED, data={"seat": seat.number, "sentence": sentence})
    store_move(table, rules, state, [*events, said], None, "", None)
    _tell_the_others(table, seat, by=by, sentence=sentence)
    return seat


def _seat_to_computer(table: Table, seat: Seat, *, by, what: str) -> Seat:
    """The seat goes to a computer player; `by` (who left, or the host) is told nothing,
    the other players are told in the sentence."""
    taken = set(Seat.objects.filter(table=table).values_list("bot_name", flat=True))
    bot_name = next(
        BOT_NAME.format(number=n)
        for n in range(1, len(taken) + 2)
        if BOT_NAME.format(number=n) not in taken
    )
    # The notes were the person's own: they go with them, not to the computer.
    Notebook.objects.filter(seat=seat).delete()
    TableSocket.objects.filter(seat=seat).delete()
    # The normal strength takes a person's place: neither a gift nor a trap for the others.
    seat.user, seat.bot_name, seat.bot_level = None, bot_name, DEFAULT_BOT_LEVEL
    seat.your_turn_told_at = None
    _let_go_of_local(seat)
    seat.save(update_fields=["user", "bot_name", "bot_level", "your_turn_told_at", *LOCAL_FIELDS])
    # Names are the players' own text: never a format string.
    said = f"{what}; a computer player ({bot_name}) takes the seat."
    _rename_in_summary(table, seat.number, bot_name, said)
    table.version += 1
    append_events(table, [Event(SEAT_REPLACED, data={"seat": seat.number, "sentence": said})])
    wake_fields = plan_wake(table, get_rules(table.engine))
    table.save(update_fields=["summary", "version", "event_count", *wake_fields])
    after_commit_push(table)
    after_commit_wake(table)
    _tell_the_others(table, seat, by=by, sentence=said)
    return seat


LOCAL_FIELDS = ["held_by", "local_name"]


def _let_go_of_local(seat: Seat) -> None:
    """A local player's seat is no longer held by the host's device (the summary keeps
    their name for the page)."""
    seat.held_by, seat.local_name = None, ""


def _tell_the_others(table: Table, seat: Seat, *, by, sentence: str) -> None:
    others = Seat.objects.filter(table=table, user__isnull=False).exclude(user=by)
    title = (table.summary or {}).get("title", "a game")
    notifications_send(
        users=[other.user for other in others.select_related("user__notification_preferences")],
        kind="table_news",
        message=f"At {title}: {sentence}",
        url=reverse("play:table", args=[table.pk]),
        dedupe_key=f"table{table.pk}:seat{seat.number}:v{table.version}:replaced",
    )


def _mark_left_in_summary(table: Table, number: int, sentence: str) -> None:
    """The seat stays on the summary under the person's name, marked as left (never a
    computer player's: nobody moves it)."""
    summary = dict(table.summary or {})
    summary["seats"] = [
        {**entry, "name": f"{entry['name']} (left)", "bot": False, "left": True}
        if entry["number"] == number
        else entry
        for entry in summary.get("seats", [])
    ]
    summary["departures"] = [*summary.get("departures", []), sentence]
    table.summary = summary


def _rename_in_summary(table: Table, number: int, bot_name: str, sentence: str) -> None:
    """The seats every view lists come from the summary once the game plays; the
    sentences of who left stay on it for the page."""
    summary = dict(table.summary or {})
    summary["seats"] = [
        {**entry, "name": bot_name, "bot": True, "level": DEFAULT_BOT_LEVEL}
        if entry["number"] == number
        else entry
        for entry in summary.get("seats", [])
    ]
    summary["departures"] = [*summary.get("departures", []), sentence]
    table.summary = summary
