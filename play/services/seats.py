"""Seats in the lobby: joining by invite, computer players, colours, leaving before the
game starts. `seat_add`, `seats_renumber` and `lobby_bump` work on a table row their
caller has locked (pass and play's seats too, play/local_players.py)."""

from django.core.exceptions import PermissionDenied
from django.db import transaction

from games import get_game
from games.base import BOT_LEVELS, DEFAULT_BOT_LEVEL
from games.sites import get_site

from .. import selectors
from ..models import Seat, Table, TableStatus
from .errors import TableError
from .side_effects import after_commit_push

__all__ = [
    "table_join",
    "check_case_not_in_play",
    "seat_add",
    "BOT_NAME",
    "seat_add_bot",
    "check_bot_level",
    "seat_remove_bot",
    "table_leave",
    "seats_renumber",
    "seat_choose_colour",
    "lobby_bump",
]


@transaction.atomic
def table_join(*, invite_code: str, user) -> Seat:
    """Take the first free seat at the table this invite code opens."""
    table = Table.objects.select_for_update().filter(invite_code=invite_code).first()
    if table is None:
        raise TableError("This invite code opens no table.", "bad_invite")
    existing = Seat.objects.filter(table=table, user=user).first()
    if existing:
        return existing
    if table.is_private:
        raise TableError("This is a private play-test table: nobody can join it.", "private")
    # The pages, the log and the notices name players by their names: one name per table.
    same_name = selectors.name_taken_at_table(table_id=table.pk, user=user)
    if same_name:
        raise TableError(
            f"A player at this table is already called {same_name}: change your display "
            "name in your profile, then join.",
            "name_taken",
        )
    if table.status != TableStatus.LOBBY:
        raise TableError("This table has already started.", "table_started")
    check_case_not_in_play(user=user, case_version_id=table.case_version_id)
    seat = seat_add(table, user=user)
    lobby_bump(table)
    return seat


def check_case_not_in_play(*, user, case_version_id, besides: int | None = None) -> None:
    """One running table of a case per person: at a second one they could give up at once
    (answer anything, say) and read the solution the first is still played for.
    Refused with a sentence, naming whoever it is when it is not `user` themselves."""
    if not case_version_id:
        return
    running = selectors.case_in_play_for(
        user_id=user.pk, case_version_id=case_version_id, besides=besides
    )
    if running is None:
        return
    if besides is None:
        raise TableError(
            "You are playing this case at another table: finish that game first, then "
            "play it again here (one table of a case at a time, so that neither can show "
            "you the other's solution).",
            "case_in_play",
        )
    raise TableError(
        f"{user.public_name} is playing this case at another table: start once that game "
        "is over (one table of a case at a time, so that neither can show its solution "
        "to someone still playing the other).",
        "case_in_play",
    )


def seat_add(table: Table, *, user=None, bot_name: str = "", bot_level: str = "", **local) -> Seat:
    """The next free seat, with the first free colour of the game; refused when full.
    A computer player's seat (`bot_name`) plays at `bot_level`, normal unless given."""
    seats = list(Seat.objects.filter(table=table))
    _, capacity = get_site(table.engine).player_range(table.case_version)
    if len(seats) >= capacity:
        raise TableError(f"This table is full ({capacity} players).", "table_full")
    taken_numbers = {seat.number for seat in seats}
    taken_colours = {seat.colour for seat in seats}
    number = next(n for n in range(capacity) if n not in taken_numbers)
    colours = [colour.value for colour in get_game(table.engine).colours]
    colour = next(c for c in colours if c not in taken_colours)
    if bot_name and not bot_level:
        bot_level = DEFAULT_BOT_LEVEL
    return Seat.objects.create(
        table=table,
        user=user,
        bot_name=bot_name,
        bot_level=bot_level,
        number=number,
        colour=colour,
        **local,
    )


# Computer players are plainly named: a detective's name would read like a game's own
# character ("Lestrade went to Inspector Lestrade").
BOT_NAME = "Computer {number}"


@transaction.atomic
def seat_add_bot(*, table_id: int, user, level: str = DEFAULT_BOT_LEVEL) -> Seat:
    """The host seats a computer player of one of the strengths the game offers (easy,
    normal, expert), in the lobby (games with a bot only)."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host seats computer players.")
    game = get_game(table.engine)
    if game.bot is None:
        raise TableError(f"{game.title} has no computer players.", "no_bot")
    check_bot_level(game, level)
    if table.is_private:
        raise TableError("A private play-test is played alone.", "private")
    if table.status != TableStatus.LOBBY:
        raise TableError("Computer players are seated in the lobby.", "table_started")
    taken = set(Seat.objects.filter(table=table).values_list("bot_name", flat=True))
    name = next(
        BOT_NAME.format(number=number)
        for number in range(1, len(taken) + 2)
        if BOT_NAME.format(number=number) not in taken
    )
    seat = seat_add(table, bot_name=name, bot_level=level)
    lobby_bump(table)
    return seat


def check_bot_level(game, level) -> None:
    """Refuse, with a sentence, a strength that does not exist or that `game` lacks."""
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise TableError(
            f"A computer player is {_either(BOT_LEVELS)}; {str(level)[:20]!r} is none of these.",
            "bad_bot_level",
        )
    if level not in game.bots:
        raise TableError(
            f"{game.title} has no {level} computer player yet: choose {_either(game.bots)}.",
            "bot_level_not_offered",
        )


def _either(levels) -> str:
    """'easy, normal or expert'."""
    levels = list(levels)
    return levels[0] if len(levels) == 1 else f"{', '.join(levels[:-1])} or {levels[-1]}"


@transaction.atomic
def seat_remove_bot(*, table_id: int, user, number: int) -> None:
    """The host takes a computer player's seat away again, in the lobby."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.host_id != user.pk:
        raise PermissionDenied("Only the host removes computer players.")
    if table.status != TableStatus.LOBBY:
        raise TableError("The game has started: every seat stays.", "table_started")
    deleted, _ = Seat.objects.filter(
        table=table, number=number, user__isnull=True, held_by__isnull=True
    ).delete()
    if not deleted:
        raise TableError("No computer player sits in that seat.", "no_such_bot")
    seats_renumber(table)
    lobby_bump(table)


@transaction.atomic
def table_leave(*, table_id: int, user) -> None:
    table = Table.objects.select_for_update().get(pk=table_id)
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        return
    if table.status != TableStatus.LOBBY:
        raise TableError("You cannot leave a table once the game has started.", "table_started")
    if table.host_id == user.pk:
        raise TableError("The host cannot leave their own table.", "host_cannot_leave")
    seat.delete()
    seats_renumber(table)
    lobby_bump(table)


def seats_renumber(table: Table) -> None:
    """Seats stay 0..N-1 without gaps: the engine's player indices."""
    for number, seat in enumerate(Seat.objects.filter(table=table).order_by("number")):
        if seat.number != number:
            seat.number = number
            seat.save(update_fields=["number"])


@transaction.atomic
def seat_choose_colour(*, table_id: int, user, colour: str) -> Seat:
    table = Table.objects.select_for_update().get(pk=table_id)
    if colour not in [c.value for c in get_game(table.engine).colours]:
        raise TableError(f"{colour!r} is not a colour of this game.", "bad_colour")
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise PermissionDenied("You have no seat at this table.")
    if table.status != TableStatus.LOBBY:
        raise TableError("Colours are chosen in the lobby.", "table_started")
    holder = Seat.objects.filter(table=table, colour=colour).exclude(pk=seat.pk).first()
    if holder:
        raise TableError(f"{holder.public_name} already plays {colour}.", "colour_taken")
    seat.colour = colour
    seat.save(update_fields=["colour"])
    lobby_bump(table)
    return seat


def lobby_bump(table: Table) -> None:
    table.version += 1
    table.save(update_fields=["version"])
    after_commit_push(table)
