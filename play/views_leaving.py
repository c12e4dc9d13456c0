"""The table page's Leave the game and the host's Remove (play/leaving.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from . import leaving
from .page_writes import go_to, page_write


@login_required
@require_POST
def table_seat_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    def left(seat) -> HttpResponse:
        then = "play passes your seat by" if seat.has_left else "a computer player took your seat"
        messages.info(request, f"You left the game: {then}.")
        return go_to(request, reverse("play:tables"))

    return page_write(
        request,
        table_id,
        lambda _: leaving.seat_leave(table_id=table_id, user=request.user),
        then=left,
    )


@login_required
@require_POST
def table_seat_remove(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    return page_write(
        request,
        table_id,
        lambda _: leaving.seat_remove(table_id=table_id, host=request.user, number=number),
    )
