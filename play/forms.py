"""Forms of the table pages. They check shapes only: the rules judge every move."""

import json

from django import forms

from games.base import Game

from .models import Colour

TIMER_CHOICES = [
    ("", "No timer"),
    ("30", "30 seconds"),
    ("60", "1 minute"),
    ("120", "2 minutes"),
    ("300", "5 minutes"),
    ("900", "15 minutes"),
    ("3600", "1 hour"),
    ("86400", "1 day"),
]


class TableCreateForm(forms.Form):
    """A new table's house rules: one field per option of the game, and the turn timer."""

    turn_timer_seconds = forms.TypedChoiceField(
        choices=TIMER_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        label="Turn timer",
        help_text="When a player's time runs out, the game moves on without them.",
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        for option in game.options:
            self.fields[option.name] = _option_field(option)
        # The timer after the game's own options.
        self.order_fields([option.name for option in game.options])

    def options(self) -> dict:
        return {option.name: self.cleaned_data.get(option.name) for option in self.game.options}


def _option_field(option) -> forms.Field:
    common = {"label": option.label, "help_text": option.help, "required": False}
    if option.kind == "bool":
        return forms.BooleanField(initial=option.default, **common)
    if option.kind == "choice":
        return forms.ChoiceField(choices=option.choices, initial=option.default, **common)
    return forms.IntegerField(
        min_value=option.minimum,
        max_value=option.maximum,
        initial=option.default,
        **common,
    )


class ColourForm(forms.Form):
    colour = forms.ChoiceField(choices=Colour.choices)


class NotebookForm(forms.Form):
    """The notebook's text, and the marks of a game's note sheet (JSON), either or both."""

    text = forms.CharField(required=False, max_length=50_000, strip=False, widget=forms.Textarea)
    marks = forms.JSONField(required=False)

    def clean_marks(self):
        marks = self.cleaned_data.get("marks")
        if "marks" not in self.data:
            return None
        if not isinstance(marks, dict):
            raise forms.ValidationError("The marks could not be read.")
        return marks


class ActionForm(forms.Form):
    """One move: the legal action the page offered (as JSON), plus what the player filled
    in, which the game's site reads (`GameSite.action_from_form`).

    Anything a client sends is only a proposal: `game_apply_action` runs the rules' checks.
    """

    action = forms.CharField(max_length=2_000)
    expected_version = forms.IntegerField(min_value=0, required=False)
    # No length check here: the write path refuses too long a key with its own sentence
    # (services.IdempotencyKeyTooLong), where this form could only say it was unreadable.
    key = forms.CharField(required=False)

    def clean_action(self) -> dict:
        try:
            action = json.loads(self.cleaned_data["action"])
        except ValueError as error:
            raise forms.ValidationError("This move could not be read.") from error
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise forms.ValidationError("This move could not be read.")
        return action
