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
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from cases import selectors as case_selectors
from cases.forms import CatalogueForm
from games import GAMES, case_game
from games.sites import get_site
from holmes_site.safe_input import text_refusal
from holmes_site.throttling import (
    SENTENCES,
    budget_spent,
    limit_reached,
    too_many,
    web_limit_reached,
    web_throttle,
)

from . import selectors, services, views_local
from .forms import ActionForm, ColourForm, NotebookForm, TableCreateForm
from .models import TableStatus, invite_code_typed

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
        "People with the invite may now watch this game."
        if allowed
        else "Watching is off: nobody else sees this game.",
    )
    return redirect("play:table", table_id)


# --- The table page and its live region -----------------------------------------------


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    return _table_page(request, membership)


def _table_page(request: HttpRequest, membership, **answer) -> HttpResponse:
    """The whole table page; `answer`: a refused move's `error` and `refused` (see
    `table_page.table_context`)."""
    # The seat this device shows (pass and play: play/views_local.py), or the pass screen.
    context, shown = views_local.device_context(request, membership, **answer)
    if shown is not None:
        context["notebook"] = selectors.notebook_text(membership=shown)
    return render(request, "play/table.html", context)


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
    context, _ = views_local.device_context(request, membership)
    response = render(request, "play/_live.html", context)
    response["Cache-Control"] = "private, no-cache"
    return response


def _after_write(
    request: HttpRequest, table_id: int, *, error: str | None = None, refused: tuple | None = None
):
    """htmx: the fresh live region (with the refusal, if any). Otherwise: back to the page.

    `refused`: (the move, the rules' Refusal) for a move of the player's the rules turned
    down; the game's page fills its form in again as the player did. Without htmx, a
    refusal about a field the player filled (its details name it: an answer left blank)
    brings the page itself back, as a form with an error does: going back to the page
    would lose what they typed."""
    if not request.htmx:
        if refused is not None and refused[1].details:
            membership = selectors.membership_for(table_id=table_id, user=request.user)
            return _table_page(request, membership, error=error, refused=refused)
        if error:
            messages.error(request, error)
        return redirect("play:table", table_id)
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    context, _ = views_local.device_context(request, membership, error=error, refused=refused)
    return render(request, "play/_live.html", context)


@login_required
@require_POST
def table_colour(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    form = ColourForm(request.POST)
    error = None
    if not form.is_valid():
        error = "Choose one of the pawn colours."
    else:
        try:
            services.seat_choose_colour(
                table_id=table_id, user=request.user, colour=form.cleaned_data["colour"]
            )
        except services.TableError as refusal:
            error = str(refusal)
    return _after_write(request, table_id, error=error)


def go_to(request: HttpRequest, url: str) -> HttpResponse:
    """Send the browser to another page, whether the form went by htmx or not."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    try:
        services.table_leave(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    messages.info(request, "You have left the table.")
    target = reverse("play:tables")
    return go_to(request, target)


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    if membership.table.host_id != request.user.pk:
        raise PermissionDenied("Only the host can start the game.")
    try:
        services.table_start(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    # The page changes from lobby to game: reload it whole.
    return HttpResponseClientRefresh() if request.htmx else redirect("play:table", table_id)


@login_required
@require_POST
def table_cancel(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    try:
        services.table_cancel(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    return HttpResponseClientRefresh() if request.htmx else redirect("play:table", table_id)


@login_required
@require_POST
def table_play_again(request: HttpRequest, table_id: int) -> HttpResponse:
    """A finished table's Play again: to the new lobby (opened now, or by another player)."""
    selectors.membership_for(table_id=table_id, user=request.user)
    try:
        rematch = services.table_rematch(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    url = reverse("play:table", args=[rematch.pk])
    return go_to(request, url)


@login_required
@require_POST
def table_bot_add(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    error = None
    try:
        services.seat_add_bot(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        error = str(refusal)
    return _after_write(request, table_id, error=error)


@login_required
@require_POST
def table_bot_remove(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    error = None
    try:
        services.seat_remove_bot(table_id=table_id, user=request.user, number=number)
    except services.TableError as refusal:
        error = str(refusal)
    return _after_write(request, table_id, error=error)


@login_required
@require_POST
def table_act(request: HttpRequest, table_id: int) -> HttpResponse:
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    if membership.seat is None:
        raise PermissionDenied("Spectators cannot make moves.")
    membership, _ = views_local.device_seat(request, membership)
    if membership is None:  # the device shows nobody's seat: no move is anyone's
        return _after_write(request, table_id, error=views_local.PASS_FIRST)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _unreadable_move(request, form)
    site = get_site(membership.table.engine)
    action = site.action_from_form(form.cleaned_data["action"], request.POST)
    if action.get("type") in site.throttled_actions and web_limit_reached(request, "answers"):
        # htmx swaps only 2xx answers into the page: there the sentence shows as a refusal.
        if request.htmx:
            return _after_write(request, table_id, error=SENTENCES["answers"])
        return too_many(request, "answers")
    error = refused = None
    try:
        result = services.game_apply_action(
            table_id=table_id,
            player=membership.seat.number,
            action=action,
            expected_version=form.cleaned_data.get("expected_version"),
            idempotency_key=form.cleaned_data.get("key") or None,
        )
    except services.StaleVersion:
        error = "The table moved on while you were deciding. Here it is now: choose again."
    except services.TableError as refusal:
        error = str(refusal)
    else:
        if not result.applied:
            error = result.refusal.message
            refused = (action, result.refusal)
    return _after_write(request, table_id, error=error, refused=refused)


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
    membership, _ = views_local.device_seat(request, membership)
    form = NotebookForm(request.POST)
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    error = None
    if membership is None:
        error = views_local.PASS_FIRST
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
