"""Pass and play's own views: the holder says which seat the device shows ("I am
<name>", "Hide my cards"), and the host seats players on the device in the lobby. Which
seat a device shows, and the pass screen, are play/device.py's.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from . import local_players, selectors
from .device import held_seats, session_key
from .page_writes import page_write


@login_required
@require_POST
def device_confirm(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "I am <name>": the device shows that seat, if it holds it and may show it now."""
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    held = held_seats(request, membership)
    try:
        number = int(request.POST.get("seat", ""))
    except ValueError:
        number = None
    numbers = [seat.number for seat in held]
    allowed = local_players.passes_to(table=membership.table, held=numbers, shown=None)
    if number not in allowed:
        messages.error(request, "This device cannot show that seat now.")
    else:
        request.session[session_key(table_id)] = number
    return redirect("play:table", table_id)


@login_required
@require_POST
def device_hide(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Hide my cards": back to the pass screen."""
    selectors.membership_for(table_id=table_id, user=request.user)
    request.session.pop(session_key(table_id), None)
    return redirect("play:table", table_id)


@login_required
@require_POST
def local_seat_add(request: HttpRequest, table_id: int) -> HttpResponse:
    name = request.POST.get("name", "")
    return page_write(
        request,
        table_id,
        lambda _: local_players.local_seat_add(table_id=table_id, user=request.user, name=name),
    )


@login_required
@require_POST
def local_seat_remove(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    return page_write(
        request,
        table_id,
        lambda _: local_players.local_seat_remove(
            table_id=table_id, user=request.user, number=number
        ),
    )
