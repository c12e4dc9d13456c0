"""Forms of the table pages. They check shapes only: the rules judge every move."""

from django import forms

from games.base import Game
from holmes_site.safe_input import Refused, json_loads, number_refusal, text_refusal

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


# The lobby's form of the same fields, changed by the host before the game starts.
HOUSE_RULES_PREFIX = "house"


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

    @classmethod
    def for_lobby(cls, *, game: Game, options: dict, timer: int | None) -> "TableCreateForm":
        """The form as the table stands: its options and its timer, offered even when the
        API set a length the list does not name."""
        initial = {**options, "turn_timer_seconds": timer}
        form = cls(game=game, prefix=HOUSE_RULES_PREFIX, initial=initial)
        field = form.fields["turn_timer_seconds"]
        if timer and str(timer) not in dict(field.choices):
            field.choices = [*field.choices, (str(timer), f"{timer} seconds")]
        return form

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
    # Read by the site's guard (holmes_site/safe_input.py), not by forms.JSONField: its
    # reader raised RecursionError on marks nested a thousand deep, and took NaN, 1e999
    # and lone surrogates, which the database then refused (a 500 each).
    marks = forms.CharField(required=False, strip=False)

    def clean_marks(self):
        if "marks" not in self.data:
            return None
        try:
            marks = json_loads(self.cleaned_data["marks"], what="The note sheet")
        except Refused as refused:
            raise forms.ValidationError(str(refused)) from None
        if not isinstance(marks, dict):
            raise forms.ValidationError("The marks could not be read.")
        return marks


class ActionForm(forms.Form):
    """One move: the legal action the page offered (as JSON), plus what the player filled
    in, which the game's site reads (`GameSite.action_from_form`).

    Anything a client sends is only a proposal: `game_apply_action` runs the rules' checks.
    """

    action = forms.CharField(
        max_length=2_000,
        error_messages={
            "required": "This move could not be read: it names no action.",
            "max_length": "The move is too long to be one (at most 2,000 characters).",
        },
    )
    expected_version = forms.IntegerField(
        min_value=0,
        required=False,
        error_messages={
            "invalid": "The move's version is not a whole number.",
            "min_value": "The move's version is not a whole number.",
        },
    )
    # No length check here: the write path refuses too long a key with its own sentence
    # (services.IdempotencyKeyTooLong), where this form could only say it was unreadable.
    key = forms.CharField(required=False)

    def clean_action(self) -> dict:
        try:
            action = json_loads(self.cleaned_data["action"], what="The move")
        except Refused as refused:
            raise forms.ValidationError(str(refused)) from None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise forms.ValidationError("This move could not be read.")
        return action

    def clean(self):
        """The fields the game's site reads into the move (`param-<name>`, say) pass the
        site's guard: text without NUL or half characters, of a bounded length; and a
        `param-` field that is written as a number is one int() reads within 64 bits
        (Python's int() refused ², ① and --5, which str.isdigit() let through, and text
        of over 4,300 digits: a 500 each)."""
        cleaned = super().clean()
        for name, value in _posted(self.data):
            # The form's own fields are bounded above; the site's, here.
            limit = None if name in self.fields else MAX_FIELD_CHARACTERS
            refusal = text_refusal(name, what="A field's name in this move", max_length=100)
            refusal = refusal or text_refusal(value, what="A field of this move", max_length=limit)
            if refusal is None and name.startswith(PARAM_PREFIX):
                refusal = number_refusal(value, what=f"The field {name}")
            if refusal:
                raise forms.ValidationError(refusal)
        return cleaned


# What a move form's fields may hold besides the action: a player's answer is at most a
# few hundred characters.
MAX_FIELD_CHARACTERS = 2_000
PARAM_PREFIX = "param-"  # GameSite.action_from_form: a field that sets one of the move's


def _posted(data) -> list[tuple[str, str]]:
    """Every field posted, each value of a repeated one (the cards ticked for a discard)."""
    if hasattr(data, "lists"):
        return [(name, value) for name, values in data.lists() for value in values]
    return [(name, value) for name, value in data.items() if isinstance(value, str)]
