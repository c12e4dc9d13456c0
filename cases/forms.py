"""The catalogue's choices: filters and order, from the query string."""

from django import forms

from .models import MAX_DIFFICULTY, MAX_PLAYERS
from .selectors import CATALOGUE_SORTS

DIFFICULTY_NAMES = ["Introductory", "Easy", "Moderate", "Challenging", "Hard", "Fiendish"]


class CatalogueForm(forms.Form):
    difficulty = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "Any")]
        + [(str(level), DIFFICULTY_NAMES[level]) for level in range(MAX_DIFFICULTY + 1)],
    )
    players = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label="Players",
        choices=[("", "Any number")] + [(str(n), str(n)) for n in range(1, MAX_PLAYERS + 1)],
    )
    sort = forms.ChoiceField(required=False, label="Order", choices=list(CATALOGUE_SORTS.items()))
