"""What the table page answers a write: a move (`move_answer`) or any other table write
(`page_write`): with htmx, the fresh live region, with the sentence of a refused write;
without, back to the page.

Every table write of the page has one shape: the member's place at the table (404 for
anyone else), the write, and the answer after it. A move's answer is built from the table
as the move left it (play/moves.py), without reading the member again; another write
reads the table once more after it, since the write changed it.
"""

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import HttpResponseClientRedirect

from holmes_site.throttling import too_many

from . import selectors, services
from .device import device_context
from .moves import MoveOutcome, Outcome
from .selectors import Membership

__all__ = ["STALE_MOVE", "after_write", "go_to", "move_answer", "page_write", "table_page"]

# The page's word for a stale move: its form is shown again at once, with the table now.
STALE_MOVE = "The table moved on while you were deciding. Here it is now: choose again."


def page_write(
    request: HttpRequest,
    table_id: int,
    write: Callable[[Membership], object],
    *,
    then: Callable[[object], HttpResponse] | None = None,
) -> HttpResponse:
    """The member's place at the table (404 for anyone else), `write(membership)`, and the
    live region after it, with the sentence of a refused write (TableError). `then(the
    write's result)`: the answer instead, when the write was made."""
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    try:
        made = write(membership)
    except services.TableError as refusal:
        return after_write(request, table_id, error=str(refusal))
    return then(made) if then else after_write(request, table_id)


def move_answer(
    request: HttpRequest, outcome: MoveOutcome, action: dict, held: list
) -> HttpResponse:
    """The page's answer to a move (play/moves.py): the live region as the move left the
    table, with the sentence of a refused one. `held`: the seats this device holds
    (play/device.py), read before the move."""
    error = refused = None
    if outcome.kind == Outcome.NOT_SEATED:
        # The view sends spectators away first: here, a seat lost since the page read it.
        raise PermissionDenied(outcome.sentence)
    if outcome.kind == Outcome.THROTTLED:
        # htmx swaps only 2xx answers into the page: there the sentence shows as a refusal.
        if not request.htmx:
            return too_many(request, "answers")
        error = outcome.sentence
    elif outcome.kind == Outcome.STALE:
        error = STALE_MOVE
    elif outcome.kind == Outcome.REFUSED:
        error = outcome.sentence
        if outcome.refusal is not None:
            refused = (action, outcome.refusal)
    table_id = outcome.membership.table.pk
    return after_write(
        request, table_id, error=error, refused=refused, membership=outcome.membership, held=held
    )


def after_write(
    request: HttpRequest,
    table_id: int,
    *,
    error: str | None = None,
    refused: tuple | None = None,
    membership: Membership | None = None,
    held: list | None = None,
) -> HttpResponse:
    """htmx: the fresh live region (with the refusal, if any). Otherwise: back to the page.

    `refused`: (the move, the rules' Refusal) for a move of the player's the rules turned
    down; the game's page fills its form in again as the player did. Without htmx, a
    refusal about a field the player filled (its details name it: an answer left blank)
    brings the page itself back, as a form with an error does: going back to the page
    would lose what they typed.

    `membership` (and `held`, play/device.py): the member as the write left the table,
    when the write says (a move); else the member is read now, after the write."""
    if not request.htmx:
        if refused is not None and refused[1].details:
            membership = membership or selectors.membership_for(
                table_id=table_id, user=request.user
            )
            return table_page(request, membership, held=held, error=error, refused=refused)
        if error:
            messages.error(request, error)
        return redirect("play:table", table_id)
    if membership is None:
        membership = selectors.membership_for(table_id=table_id, user=request.user)
    context, _ = device_context(request, membership, error=error, refused=refused, held=held)
    return render(request, "play/_live.html", context)


def table_page(
    request: HttpRequest, membership: Membership, *, held: list | None = None, **answer
) -> HttpResponse:
    """The whole table page; `answer`: a refused move's `error` and `refused` (see
    `table_page.table_context`)."""
    # The seat this device shows (pass and play: play/device.py), or the pass screen.
    context, shown = device_context(request, membership, held=held, **answer)
    if shown is not None:
        context["notebook"] = selectors.notebook_text(membership=shown)
    return render(request, "play/table.html", context)


def go_to(request: HttpRequest, url: str) -> HttpResponse:
    """Send the browser to another page, whether the form went by htmx or not."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
