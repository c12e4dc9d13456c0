"""The table pages: my tables, joining, the lobby and the game.

Thin: services write, selectors read. Every piece of game data on these pages comes from
`selectors.table_view` for the requesting member (plus the case's public introduction and
questions, and the solution when the view allows it); `table_page` arranges that view
for the templates.

Live updates: the page's `#live` region is re-fetched from `table_live` when the websocket
says a new version exists, or by polling when the socket is down. `table_live` answers 204
when the client already has the current version, so polling costs one small query.
"""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from cases import selectors as case_selectors
from cases.forms import CatalogueForm
from games import GAMES, case_game
from games.base import DEFAULT_BOT_LEVEL
from games.sites import get_site
from holmes_site.safe_input import text_refusal
from holmes_site.throttling import budget_spent, limit_reached, too_many, web_throttle

from . import moves, selectors, services
from .device import PASS_FIRST, device_context, device_seat
from .forms import HOUSE_RULES_PREFIX, ActionForm, ColourForm, NotebookForm, TableCreateForm
from .models import TableStatus, invite_code_typed
from .page_writes import after_write, go_to, move_answer, page_write, table_page

# --- My tables, creating and joining ---------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """The case catalogue, with how each case has fared at tables."""
    form = CatalogueForm(request.GET or None)
    choice = form.cleaned_data if form.is_valid() else {}
    versions = case_selectors.catalogue(
        difficulty=choice.get("difficulty"),
        players=choice.get("players"),
        sort=choice.get("sort") or "easiest",
        figures=lambda case_ids: selectors.case_figures(case_ids=case_ids),
    )
    return render(request, "cases/home.html", {"versions": versions, "form": form})


@require_GET
def games(request: HttpRequest) -> HttpResponse:
    """Every game of the site, with the form to open a table of those played without a
    case (a case game's tables open from the case's page)."""
    listed = [
        {
            "game": game,
            "form": None if game.needs_case else TableCreateForm(game=game, prefix=game.name),
            "rules_url": reverse("play:game-rules", args=[game.name]),
            "summary": selectors.game_summary(name=game.name),
        }
        for game in GAMES.values()
    ]
    return render(request, "play/games.html", {"games": listed})


@require_GET
def game_rules(request: HttpRequest, name: str) -> HttpResponse:
    """A game's rules page (docs/rules/<name, with dashes>.md), as a page of the site."""
    if name not in GAMES:
        raise Http404("No such game.")
    return render(
        request,
        "play/game_rules.html",
        {"game": GAMES[name], "rules": selectors.rules_page_html(name=name)},
    )


@require_GET
def game_api_moves(request: HttpRequest, name: str) -> HttpResponse:
    """A game's moves as JSON, for programs that play through the API: kept apart from
    the rules page, which is for people."""
    if name not in GAMES:
        raise Http404("No such game.")
    return render(
        request,
        "play/game_api_moves.html",
        {"game": GAMES[name], "moves": selectors.api_moves_page_html(name=name)},
    )


@login_required
@require_POST
def game_table_create(request: HttpRequest, name: str) -> HttpResponse:
    if name not in GAMES or GAMES[name].needs_case:
        raise Http404("No such game.")
    form = TableCreateForm(request.POST, game=GAMES[name], prefix=name)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect("play:games")
    try:
        table = services.table_create(
            host=request.user,
            game=name,
            options=form.options(),
            turn_timer_seconds=form.cleaned_data.get("turn_timer_seconds"),
        )
    except services.TableError as error:
        messages.error(request, str(error))
        return redirect("play:games")
    return redirect("play:table", table.pk)


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else errors[0]
    return "This table could not be opened."


@require_GET
def case_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A published case as players see it before play, and the form to open a table."""
    version = case_selectors.published_version_for_slug(slug)
    form = TableCreateForm(game=case_game())
    return render(request, "play/case.html", {"version": version, "table_form": form})


@login_required
@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    return render(request, "play/tables.html", {"tables": selectors.my_tables(user=request.user)})


@login_required
@require_POST
def table_create(request: HttpRequest, slug: str) -> HttpResponse:
    version = case_selectors.published_version_for_slug(slug)
    form = TableCreateForm(request.POST, game=case_game())
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect("play:case", slug)
    try:
        table = services.table_create(
            host=request.user,
            game=case_game().name,
            case_version=version,
            options=form.options(),
            turn_timer_seconds=form.cleaned_data.get("turn_timer_seconds"),
        )
    except services.TableError as error:
        messages.error(request, str(error))
        return redirect("play:case", slug)
    return redirect("play:table", table.pk)


@require_GET
def join_by_code(request: HttpRequest) -> HttpResponse:
    """The header's "Join with a code" box: the code as typed, any case, dash or none."""
    code = invite_code_typed(request.GET.get("code", ""))
    if not code:
        messages.info(request, "Type the table's code, like HK7-4QM, to join it.")
        return redirect("play:home")
    if not TYPED_CODE.fullmatch(code):
        # No table's code, and no address holds it (a "/" ended the join page's address
        # and made a 500): said as a wrong code is, with a 400, and no guess counted.
        shown = code[:32] if text_refusal(code, max_length=None) is None else ""
        return render(request, "play/join.html", {"table": None, "code": shown}, status=400)
    return redirect("play:join", code[:32])


# A code as typed (`invite_code_typed`): a new code's letters and digits, or an older one's,
# which may hold an underscore too.
TYPED_CODE = re.compile(r"[0-9A-Z_]+")


@login_required
@require_http_methods(["GET", "POST"])
@web_throttle("join")  # the invite code is a table's only key: it must not be guessed
def join(request: HttpRequest, code: str) -> HttpResponse:
    """GET shows which table the invite opens (joining is a write: it needs the button)."""
    # A GET is checked before the look-up: once the budget is spent, a real code is
    # refused like a wrong one (a 200 would tell them apart).
    if request.method == "GET" and budget_spent(request, "join"):
        return too_many(request, "join")
    table = selectors.table_for_invite(invite_code=code)
    if table is None:
        # A miss counts against the joining budget too: codes are short, and must not be
        # tried one after another.
        if request.method == "GET" and limit_reached(request, "join"):
            return too_many(request, "join")
        return render(request, "play/join.html", {"table": None, "code": code}, status=404)
    if request.method == "POST":
        try:
            seat = services.table_join(invite_code=table.invite_code, user=request.user)
        except services.TableError as error:
            messages.error(request, str(error))
        else:
            return redirect("play:table", seat.table_id)
    if table.seats.filter(user=request.user).exists():
        return redirect("play:table", table.pk)
    return render(request, "play/join.html", {"table": table, "code": code})


@login_required
@require_POST
@web_throttle("join")  # a real code and a wrong one answer differently: one budget
def watch(request: HttpRequest, code: str) -> HttpResponse:
    """Watch a started table from its invite: the spectator's view, live."""
    table = selectors.table_for_invite(invite_code=code)
    if table is None:
        raise Http404("No such table.")
    try:
        services.spectator_join(invite_code=table.invite_code, user=request.user)
    except services.TableError as refusal:
        messages.error(request, str(refusal))
        return redirect("play:join", code)
    return redirect("play:table", table.pk)


@login_required
@require_POST
def table_watching(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host turns watching on or off."""
    selectors.membership_for(table_id=table_id, user=request.user)
    allowed = request.POST.get("allowed") == "on"
    services.table_set_watching(table_id=table_id, user=request.user, allowed=allowed)
    messages.success(
        request,
        "People with the invite or this table's address may now watch this game."
        if allowed
        else "Watching is off: nobody else sees this game.",
    )
    return redirect("play:table", table_id)


# --- The table page and its live region -----------------------------------------------


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        membership = selectors.membership_for(table_id=table_id, user=request.user, notebook=True)
    except Http404:
        return outsider_page(request, table_id)
    return table_page(request, membership)


def outsider_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's address opened by someone not at it (friends copy the address bar, not
    the invite): what the invite page would offer, watching or why not, never the game
    itself. Joining still needs the invite: the address alone seats nobody."""
    table = selectors.table_for_outsider(table_id=table_id)
    if table is None or table.is_private:
        # A private play-test is no table to anyone else, as its invite code opens none:
        # its case may be an unpublished draft, under review.
        raise Http404("No such table.")
    return render(request, "play/outsider.html", {"table": table})


@login_required
@require_POST
def table_watch(request: HttpRequest, table_id: int) -> HttpResponse:
    """Watch a started table from its address, as from its invite."""
    table = selectors.table_for_outsider(table_id=table_id)
    if table is None or table.is_private:
        raise Http404("No such table.")
    try:
        services.spectator_join(invite_code=table.invite_code, user=request.user)
    except services.TableError as refusal:
        messages.error(request, str(refusal))
    return redirect("play:table", table.pk)


@login_required
@require_GET
def table_live(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live region. `since` is the version the client shows: 204 while it is current.
    `status` is the status it shows: a lobby that became a game needs the whole page."""
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    current = membership.table
    if request.GET.get("since") == str(current.version):
        return HttpResponse(status=204)
    shown_status = request.GET.get("status")
    if shown_status and shown_status != current.status and shown_status == TableStatus.LOBBY:
        return HttpResponseClientRefresh() if request.htmx else redirect("play:table", table_id)
    context, _ = device_context(request, membership)
    response = render(request, "play/_live.html", context)
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_POST
def table_colour(request: HttpRequest, table_id: int) -> HttpResponse:
    form = ColourForm(request.POST)

    def choose(membership) -> None:
        if not form.is_valid():
            raise services.TableError("Choose one of the pawn colours.", "bad_colour")
        colour = form.cleaned_data["colour"]
        services.seat_choose_colour(table_id=table_id, user=request.user, colour=colour)

    return page_write(request, table_id, choose)


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    def left(_) -> HttpResponse:
        messages.info(request, "You have left the table.")
        return go_to(request, reverse("play:tables"))

    return page_write(
        request,
        table_id,
        lambda _: services.table_leave(table_id=table_id, user=request.user),
        then=left,
    )


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    def start(membership) -> None:
        if membership.table.host_id != request.user.pk:
            raise PermissionDenied("Only the host can start the game.")
        services.table_start(table_id=table_id, user=request.user)

    # The page changes from lobby to game: reload it whole.
    return page_write(request, table_id, start, then=lambda _: _reload(request, table_id))


@login_required
@require_POST
def table_cancel(request: HttpRequest, table_id: int) -> HttpResponse:
    return page_write(
        request,
        table_id,
        lambda _: services.table_cancel(table_id=table_id, user=request.user),
        then=lambda _: _reload(request, table_id),
    )


def _reload(request: HttpRequest, table_id: int) -> HttpResponse:
    return HttpResponseClientRefresh() if request.htmx else redirect("play:table", table_id)


@login_required
@require_POST
def table_play_again(request: HttpRequest, table_id: int) -> HttpResponse:
    """A finished table's Play again: to the new lobby (opened now, or by another player)."""
    return page_write(
        request,
        table_id,
        lambda _: services.table_rematch(table_id=table_id, user=request.user),
        then=lambda rematch: go_to(request, reverse("play:table", args=[rematch.pk])),
    )


@login_required
@require_POST
def table_bot_add(request: HttpRequest, table_id: int) -> HttpResponse:
    # The lobby's buttons send the strength; the service refuses one the game lacks.
    level = request.POST.get("level") or DEFAULT_BOT_LEVEL
    return page_write(
        request,
        table_id,
        lambda _: services.seat_add_bot(table_id=table_id, user=request.user, level=level),
    )


@login_required
@require_POST
def table_house_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host's house rules changed in the lobby (the same fields as when opening)."""
    engine = selectors.membership_for(table_id=table_id, user=request.user).table.engine
    form = TableCreateForm(request.POST, game=GAMES[engine], prefix=HOUSE_RULES_PREFIX)
    if not form.is_valid():
        return after_write(request, table_id, error=_first_error(form))
    return page_write(
        request,
        table_id,
        lambda _: services.table_set_house_rules(
            table_id=table_id,
            user=request.user,
            options=form.options(),
            turn_timer_seconds=form.cleaned_data.get("turn_timer_seconds"),
        ),
    )


@login_required
@require_POST
def table_bot_remove(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    return page_write(
        request,
        table_id,
        lambda _: services.seat_remove_bot(table_id=table_id, user=request.user, number=number),
    )


@login_required
@require_POST
def table_act(request: HttpRequest, table_id: int) -> HttpResponse:
    """A move from the page's forms, through the one front door (play/moves.py). The member
    is read once: the answer shows the table as the move's lock read it."""
    membership = selectors.membership_for(table_id=table_id, user=request.user, notebook=True)
    if membership.seat is None:
        raise PermissionDenied(moves.SPECTATORS_CANNOT_MOVE)
    shown, held = device_seat(request, membership)
    if shown is None:  # the device shows nobody's seat: no move is anyone's
        return after_write(request, table_id, error=PASS_FIRST, membership=membership, held=held)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _unreadable_move(request, form)
    site = get_site(shown.table.engine)
    action = site.action_from_form(form.cleaned_data["action"], request.POST)
    outcome = moves.move_make(
        user=request.user,
        table_id=table_id,
        action=action,
        expected_version=form.cleaned_data.get("expected_version"),
        idempotency_key=form.cleaned_data.get("key") or None,
        membership=shown,
    )
    return move_answer(request, outcome, action, held)


def _unreadable_move(request: HttpRequest, form: ActionForm) -> HttpResponse:
    """A move form the page never sends (written by hand, or by a program): 400, with the
    form's sentence (holmes_site/safe_input.py says why). htmx swaps only 2xx answers: for
    a move sent through it, the page's script says the move was not made and shows the
    table as it stands."""
    sentence = next(iter(form.errors.values()))[0]
    return render(request, "bad_request.html", {"message": sentence}, status=400)


@login_required
@require_POST
def table_notebook(request: HttpRequest, table_id: int) -> HttpResponse:
    """Save the notebook: JSON for the page's script (saved as you type), or a redirect."""
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    if membership.seat is None:
        raise PermissionDenied("Only players keep a notebook.")
    membership, _ = device_seat(request, membership)
    form = NotebookForm(request.POST)
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    error = None
    if membership is None:
        error = PASS_FIRST
    elif not form.is_valid():
        error = form.errors.get("marks", ["A notebook holds at most 50,000 characters."])[0]
    else:
        try:
            services.notebook_write(
                table_id=table_id,
                user=request.user,
                number=membership.seat.number,
                text=form.cleaned_data["text"] if "text" in request.POST else None,
                marks=form.cleaned_data.get("marks"),
            )
        except (services.TableError, ValidationError) as refusal:
            error = refusal.messages[0] if isinstance(refusal, ValidationError) else str(refusal)
    if wants_json:
        if error:
            return JsonResponse({"saved": False, "error": error}, status=409)
        return JsonResponse({"saved": True})
    if error:
        messages.error(request, error)
    else:
        messages.success(request, "Notebook saved.")
    return redirect("play:table", table_id)
