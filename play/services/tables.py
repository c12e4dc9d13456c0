"""A table's life outside its moves: created (in public or as a private play-test),
started, cancelled, watched, and played again."""

import secrets

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.services import notifications_send
from cases.models import CaseVersion, VersionStatus
from games import GAMES, case_game, get_game, get_rules
from games.base import Event, OptionsInvalid
from games.sites import get_site

from .. import selectors
from ..models import Notebook, Seat, Spectator, Table, TableStatus, fixed_digest_for
from .errors import TableError
from .moves import append_events
from .seats import check_case_not_in_play, seat_add, table_join
from .side_effects import after_commit_notify, after_commit_push, after_commit_wake, plan_wake

__all__ = [
    "table_create",
    "TIMER_RANGE",
    "table_create_private",
    "table_set_house_rules",
    "table_start",
    "table_cancel",
    "spectator_join",
    "check_host_powers",
    "HOST_WHO_LEFT",
    "table_set_watching",
    "table_rematch",
]


@transaction.atomic
def table_create(
    *,
    host,
    game: str | None = None,
    case_version: CaseVersion | None = None,
    options: dict | None = None,
    turn_timer_seconds: int | None = None,
) -> Table:
    """A new table of `game` in its lobby, the host in the first seat. A game that needs a
    case takes a published `case_version` (and a case alone means the case game);
    `options` are the game's table options."""
    if game is None and case_version is not None:
        game = case_game().name
    if game not in GAMES:
        raise TableError(f"There is no game called {game!r}.", "unknown_game")
    definition = get_game(game)
    if definition.needs_case:
        if case_version is None:
            raise TableError(
                f"{definition.title} is played with a case: choose one.", "case_needed"
            )
        if case_version.status != VersionStatus.PUBLISHED:
            raise TableError("Only a published case can be played.", "case_not_published")
    elif case_version is not None:
        raise TableError(f"{definition.title} is played without a case.", "no_case_needed")
    check_case_not_in_play(user=host, case_version_id=case_version and case_version.pk)
    return _table_new(
        host=host,
        game=game,
        case_version=case_version,
        options=_clean_options(definition, options),
        turn_timer_seconds=_clean_timer(turn_timer_seconds),
    )


def _table_new(*, host, game: str, case_version, options: dict, **fields) -> Table:
    site = get_site(game)
    table = Table.objects.create(
        engine=game,
        case_version=case_version,
        options=options,
        host=host,
        seed=secrets.randbits(62),
        summary=site.summary(case_version),
        **fields,
    )
    Seat.objects.create(table=table, user=host, number=0, colour=get_game(game).colours[0].value)
    return table


def _clean_options(game, options: dict | None) -> dict:
    try:
        return game.clean_options(options or {})
    except OptionsInvalid as error:
        raise TableError(str(error), "bad_option") from None


# A turn timer shorter than this leaves no time to read a card; longer than a day is
# no timer at all.
TIMER_RANGE = (10, 24 * 60 * 60)


def _clean_timer(seconds) -> int | None:
    if seconds in (None, "", 0):
        return None
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise TableError("The turn timer is a whole number of seconds.", "bad_timer")
    low, high = TIMER_RANGE
    if not low <= seconds <= high:
        raise TableError(
            f"The turn timer is between {low} seconds and {high // 3600} hours.", "bad_timer"
        )
    return seconds


@transaction.atomic
def table_create_private(*, host, case_version: CaseVersion) -> Table:
    """A private solo table for `host`, on any version (`table_create` only takes published
    ones): no invite, nobody else joins it or reads the version through it, and it counts
    in no figure. Who may have one is not decided here: the caller (a play-test in
    authoring.services.case_playtest_start) has already checked."""
    return _table_new(
        host=host,
        game=case_game().name,
        case_version=case_version,
        options=case_game().clean_options({}),
        is_private=True,
    )


@transaction.atomic
def table_set_house_rules(
    *, table_id: int, user, options: dict, turn_timer_seconds: int | None
) -> Table:
    """The host changes the game's options and the turn timer in the lobby: what was
    chosen when the table was opened is not final until the game starts."""
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host changes the house rules.")
    if table.status != TableStatus.LOBBY:
        raise TableError(
            "The house rules are changed in the lobby, before the game starts.",
            "table_started",
        )
    table.options = _clean_options(get_game(table.engine), options)
    table.turn_timer_seconds = _clean_timer(turn_timer_seconds)
    table.version += 1
    table.save(update_fields=["options", "turn_timer_seconds", "version"])
    after_commit_push(table)  # the others' lobbies show the new rules
    return table


@transaction.atomic
def table_start(*, table_id: int, user) -> Table:
    # Only the table's row is locked: PostgreSQL cannot lock the optional case's side of
    # the outer join (a card game has none).
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("case_version__case")
        .get(pk=table_id)
    )
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host can start the game.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has already started.", "table_started")
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
    site = get_site(table.engine)
    low, high = site.player_range(table.case_version)
    if not low <= len(seats) <= high:
        raise TableError(
            f"This table is for {low}–{high} players; it has {len(seats)}.", "player_count"
        )
    for seat in seats:
        if seat.user is not None:
            check_case_not_in_play(
                user=seat.user, case_version_id=table.case_version_id, besides=table.pk
            )
    rules = get_rules(table.engine)
    host_seat = next((s.number for s in seats if s.user_id == table.host_id), 0)
    config = site.config(
        case_version=table.case_version, options=table.options, host_seat=host_seat
    )
    try:
        state = rules.setup(config, [seat.public_name for seat in seats], table.seed)
    except ValueError as error:
        # Options that this number of players cannot start with (the first player's
        # seat, say): the rules say why in a sentence.
        raise TableError(str(error), "cannot_start") from None
    # Stored once; each move then writes only the rest of the state (play/models.py).
    fixed_keys = getattr(rules, "FIXED_KEYS", ())
    table.fixed_state = {key: state[key] for key in fixed_keys} or None
    table.fixed_digest = fixed_digest_for(table.fixed_state)
    table.state = state
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    table.version += 1
    # The seats no longer change: every view lists them from here, without a query.
    table.summary = {
        **site.summary(table.case_version),
        "seats": selectors.seats_summary(table=table, seats=seats),
        **site.progress(state),
    }
    append_events(table, [Event("table_started")])
    wake_fields = plan_wake(table, rules)
    table.save(
        update_fields=[
            *("fixed_state", "fixed_digest", "state", "status", "started_at"),
            *("version", "summary", "event_count", *wake_fields),
        ]
    )
    Notebook.objects.bulk_create(
        [Notebook(seat=seat) for seat in seats if not seat.is_bot], ignore_conflicts=True
    )
    after_commit_push(table)
    hosts = [seat.number for seat in seats if seat.user_id == table.host_id]
    after_commit_notify(table, "table_started", {"actor_seat": hosts[0]} if hosts else {})
    after_commit_wake(table)
    return table


@transaction.atomic
def table_cancel(*, table_id: int, user) -> Table:
    """The host calls the game off while still in the lobby: the table stays, cancelled,
    so that everyone who opens it reads what happened; the players are told."""
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host can cancel the table.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has started: it can no longer be cancelled.", "table_started")
    table.status = TableStatus.CANCELLED
    table.version += 1
    table.save(update_fields=["status", "version"])
    after_commit_push(table)
    seats = Seat.objects.filter(table=table, user__isnull=False).exclude(user=user)
    others = [seat.user for seat in seats.select_related("user__notification_preferences")]
    title = (table.summary or {}).get("title", "a game")
    notifications_send(
        users=others,
        kind="table_news",
        message=f"{user.public_name} cancelled the table for {title}.",
        url=reverse("play:table", args=[table.pk]),
        dedupe_key=f"table{table.pk}:cancelled",
    )
    return table


@transaction.atomic
def spectator_join(*, invite_code: str, user) -> Spectator:
    """Watch a started table by its invite: the spectator's view only, never a seat's."""
    table = Table.objects.select_for_update().filter(invite_code=invite_code).first()
    if table is None or table.is_private:
        raise TableError("This invite code opens no table.", "bad_invite")
    if Seat.objects.filter(table=table, user=user).exists():
        raise TableError("You play at this table: your seat shows you more.", "seated")
    if table.status == TableStatus.LOBBY:
        raise TableError("This table has not started yet: take a seat instead.", "not_started")
    if table.status == TableStatus.CANCELLED:
        raise TableError("The host cancelled this table.", "table_cancelled")
    if not table.watching_allowed:
        raise TableError("The host has turned watching off at this table.", "watching_off")
    spectator, _ = Spectator.objects.get_or_create(table=table, user=user)
    return spectator


def check_host_powers(table: Table, user, *, refusal: str) -> None:
    """The host's say over a started table (who may watch, removing players who are away)
    is theirs while they keep their seat: a host who left the game (play/leaving.py) keeps
    none of it, and nobody takes it over. `refusal` answers anyone else."""
    if table.host_id != user.pk:
        raise PermissionDenied(refusal)
    if not Seat.objects.filter(table=table, user=user).exists():
        raise PermissionDenied(HOST_WHO_LEFT)


HOST_WHO_LEFT = "You left this game: the host's say over it went with your seat."


@transaction.atomic
def table_set_watching(*, table_id: int, user, allowed: bool) -> Table:
    """The host lets people with the invite watch, or not; turning it off sends the
    watchers away too (their next look at the table finds nothing)."""
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    check_host_powers(table, user, refusal="Only the host decides who may watch.")
    table.watching_allowed = allowed
    table.save(update_fields=["watching_allowed"])
    if not allowed:
        Spectator.objects.filter(table=table).delete()
    return table


@transaction.atomic
def table_rematch(*, table_id: int, user) -> Table:
    """Play again: a new lobby for the same game, case, options and timer, for the group of
    a finished table. The first player to ask hosts it; the computer players sit down
    again; the people are told, with a link to the new lobby, and join it if they want to:
    nobody is seated unasked (a seat would also hold them to a case they might be playing
    elsewhere). Whoever asks later joins that same lobby, so a group gets one table."""
    finished = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    seats = list(
        Seat.objects.filter(table=finished)
        .select_related("user__notification_preferences")
        .order_by("number")
    )
    if not any(seat.user_id == user.pk for seat in seats):
        raise PermissionDenied("You have no seat at this table.")
    if finished.status != TableStatus.FINISHED:
        raise TableError("Only a finished game can be played again.", "not_finished")
    if finished.is_private:
        raise TableError("A private play-test is not played again here: open a new one.", "private")
    rematch_id = (finished.summary or {}).get("rematch_id")
    if rematch_id:
        rematch = Table.objects.get(pk=rematch_id)
        table_join(invite_code=rematch.invite_code, user=user)
        return rematch
    rematch = table_create(
        host=user,
        game=finished.engine,
        case_version=finished.case_version,
        options=finished.options,
        turn_timer_seconds=finished.turn_timer_seconds,
    )
    for seat in seats:
        if seat.is_bot:
            seat_add(rematch, bot_name=seat.bot_name, bot_level=seat.bot_level)
        elif seat.held_by_id == user.pk:  # the players on this device sit down again
            seat_add(rematch, local_name=seat.local_name, held_by=user)
    finished.summary = {**(finished.summary or {}), "rematch_id": rematch.pk}
    finished.version += 1  # open pages show the new table's link
    finished.save(update_fields=["summary", "version"])
    after_commit_push(finished)
    _invite_to_rematch(finished, rematch, [seat.user for seat in seats if seat.user], user)
    return rematch


def _invite_to_rematch(finished: Table, rematch: Table, people: list, host) -> None:
    title = (finished.summary or {}).get("title", "a game")
    notifications_send(
        users=[person for person in people if person.pk != host.pk],
        kind="table_news",
        message=f"{host.public_name} opened a new table for {title}: join to play again.",
        url=reverse("play:join", args=[rematch.invite_code]),
        dedupe_key=f"table{finished.pk}:rematch",
    )
