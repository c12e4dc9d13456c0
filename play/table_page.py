"""The table page's view-model: the shell every game shares (seats, lobby, timer, live
region), with the game's own part arranged by its site (``games.sites``).

Everything here reads `selectors.table_view` (the rules' view for this member) and the
table's public facts only, so nothing it builds can hold what the member may not see.
"""

from django.http import HttpRequest
from django.urls import reverse

from games import get_game
from games.base import DEFAULT_BOT_LEVEL
from games.pages import PageContext
from games.sites import get_site

from . import leaving, selectors
from .forms import TableCreateForm
from .models import TableStatus


def table_context(
    request: HttpRequest, membership, *, error: str | None = None, refused: tuple | None = None
) -> dict:
    """`refused`: (the move, the rules' Refusal) when this page answers the member's own
    move the rules refused; the game's page then keeps what they filled in."""
    view = selectors.table_view(membership=membership)
    table = membership.table
    game = get_game(table.engine)
    site = get_site(table.engine)
    seats = {seat["number"]: seat_display(game, seat) for seat in view["seats"]}
    context = {
        "table": table,
        "view": view,
        "error": error,
        # A host who left the game keeps no say over it (services.check_host_powers).
        "is_host": table.host_id == request.user.pk and membership.seat is not None,
        "seat_list": list(seats.values()),
        "you": view["you"],
        "game_title": game.title,
        "rules_url": reverse("play:game-rules", args=[game.name]),
        "title": view["title"],
        "case_version": table.case_version,
        "live_url": reverse("play:table-live", args=[table.pk]),
        "act_url": reverse("play:table-act", args=[table.pk]),
        "game_template": site.template,
        "brief_template": site.brief_template,
        "game_stylesheet": site.stylesheet,
        "notes_refusal": site.notes_refusal(),
        # Leave the game and Remove (play/leaving.py): a computer player takes the seat,
        # or (a game without one) play passes it by.
        "seats_replaceable": (game.bot is not None or game.withdraw is not None)
        and view["status"] == TableStatus.PLAYING,
        "seats_passed_by": game.bot is None,
        "notes_locked": membership.seat is not None
        and table.state is not None
        and not selectors.may_write_notes(table=table, player=membership.seat.number),
    }
    context["editor_url"] = _editor_url(request, table)
    if context["seats_replaceable"] and context["is_host"]:
        context["seats_away"] = leaving.seats_away(table=table)
    context["notebook_marks"] = selectors.notebook_marks(membership=membership)
    context["notebook_url"] = reverse("play:table-notebook", args=[table.pk])
    if view["status"] == TableStatus.LOBBY:
        context["lobby"] = _lobby(request, table, game, site, seats)
    elif view["game"] is not None:
        events = selectors.event_reader(membership=membership)
        page = PageContext(view=view, seats=seats, events=events, control=site.control)
        context["game"] = site.page(page)
        if refused is not None:
            context["game"] = site.page_after_refusal(context["game"], *refused)
        context["timer_label"] = site.timer_label(view)
    return context


def _editor_url(request: HttpRequest, table) -> str:
    """A private play-test's way back to the case editor, for the case's author alone: the
    play-test is a step of writing, and the editor is where the writer goes next."""
    version = table.case_version
    if not table.is_private or version is None or version.case.author_id != request.user.pk:
        return ""
    return reverse("admin:cases_caseversion_change", args=[version.pk])


def seat_display(game, seat: dict) -> dict:
    """A seat as pages show it: its colour's name and letter beside its own facts."""
    colours = {colour.value: colour for colour in game.colours}
    colour = colours.get(seat["colour"])
    return {
        **seat,
        "colour_name": colour.label if colour else seat["colour"],
        "letter": colour.letter if colour else "?",
    }


def _lobby(request, table, game, site, seats: dict) -> dict:
    taken = {seat["colour"]: seat for seat in seats.values()}
    low, high = site.player_range(table.case_version)
    options = game.stored_options(table.options)  # old names, as today's
    # Pass and play (play/local_players.py): the players seated on the host's device.
    for number in table.seats.filter(held_by__isnull=False).values_list("number", flat=True):
        if number in seats:
            seats[number]["local"] = True
    return {
        "colours": [
            {
                "value": colour.value,
                "label": colour.label,
                "letter": colour.letter,
                "holder": taken.get(colour.value),
            }
            for colour in game.colours[: game.max_players]
        ],
        "invite_url": (
            None
            if table.is_private
            else request.build_absolute_uri(reverse("play:join", args=[table.invite_code]))
        ),
        "options": [
            {"label": option.label, "value": _option_value(option, options[option.name])}
            for option in game.options
        ],
        "min_players": low,
        "max_players": high,
        "can_start": low <= len(seats) <= high,
        "can_add_bot": game.bot is not None and len(seats) < high and not table.is_private,
        # One button per strength the game offers (the lobby's "Easy / Normal / Expert").
        "bot_levels": [
            {"value": level, "label": level.capitalize(), "default": level == DEFAULT_BOT_LEVEL}
            for level in game.bots
        ],
        "can_add_local": len(seats) < high and not table.is_private,
        "timer": table.turn_timer_seconds,
        "summary": selectors.game_summary(name=game.name),
        # Only the host changes them, and only here, before the game starts.
        "house_rules_form": (
            TableCreateForm.for_lobby(game=game, options=options, timer=table.turn_timer_seconds)
            if table.host_id == request.user.pk
            else None
        ),
    }


def _option_value(option, value) -> str:
    if option.kind == "bool":
        return "on" if value else "off"
    if value is None:
        return "as the game suggests"
    if value == 0 and option.zero:
        return option.zero
    return dict(option.choices).get(value, str(value))
