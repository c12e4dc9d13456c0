"""The table page's Leave the game and the host's Remove (play/leaving.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from . import leaving, selectors, services
from .views import _after_write, go_to


@login_required
@require_POST
def table_seat_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    try:
        seat = leaving.seat_leave(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    then = "play passes your seat by" if seat.has_left else "a computer player took your seat"
    messages.info(request, f"You left the game: {then}.")
    target = reverse("play:tables")
    return go_to(request, target)


@login_required
@require_POST
def table_seat_remove(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    error = None
    try:
        leaving.seat_remove(table_id=table_id, host=request.user, number=number)
    except services.TableError as refusal:
        error = str(refusal)
    return _after_write(request, table_id, error=error)
