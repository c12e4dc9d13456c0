"""A player's notebook: their notes and their game's note sheet, theirs alone."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from games.sites import get_site
from holmes_site.safe_input import json_refusal

from .. import selectors
from ..models import MAX_MARKS_BYTES, Notebook, Seat, Table
from .errors import TableError

__all__ = [
    "notebook_write",
]


@transaction.atomic
def notebook_write(
    *, table_id: int, user, text: str | None = None, marks=None, number: int | None = None
) -> Notebook:
    """Save the player's notes: the text, the marks (a game's note sheet), or both.
    `number`: the seat, when it is a local player's that `user` holds (pass and play)."""
    table = Table.objects.select_for_update().get(pk=table_id)
    seats = Seat.objects.filter(table=table)
    if number is None:
        seat = seats.filter(user=user).first()
    else:
        seat = seats.filter(Q(user=user) | Q(held_by=user), number=number).first()
    if seat is None:
        raise PermissionDenied("You have no seat at this table.")
    if text is not None and len(text) > Notebook._meta.get_field("text").max_length:
        raise ValidationError("A notebook holds at most 50,000 characters.")
    if marks is not None:
        _check_marks(marks)
    if table.state is not None and not selectors.may_write_notes(table=table, player=seat.number):
        raise TableError(get_site(table.engine).notes_refusal(), "notes_forbidden")
    notebook, _ = Notebook.objects.get_or_create(seat=seat)
    fields = ["updated_at"]
    if text is not None:
        notebook.text = text
        fields.append("text")
    if marks is not None:
        notebook.marks = marks
        fields.append("marks")
    notebook.save(update_fields=fields)
    return notebook


def _check_marks(marks) -> None:
    import json

    if not isinstance(marks, dict):
        raise ValidationError("Marks are an object of names and values.")
    # The site's guard first: the database's JSON refuses NUL (keys included), NaN,
    # Infinity and lone surrogates, and json.dumps recursed into marks nested deep.
    refusal = json_refusal(marks, what="The note sheet")
    if refusal:
        raise ValidationError(refusal)
    dumped = json.dumps(marks)
    if len(dumped) > MAX_MARKS_BYTES:
        raise ValidationError("The marks are too many to keep.")
