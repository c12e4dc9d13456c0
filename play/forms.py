"""Forms of the table pages. They check shapes only: the rules engine judges every move."""

import json

from django import forms

from .models import Colour

ANSWER_PREFIX = "answers-"
MAX_TEXT = 500


class TableCreateForm(forms.Form):
    casebook = forms.BooleanField(
        required=False,
        label="Casebook",
        help_text="House rule: players keep the texts of the cards they have read.",
    )
    random_start = forms.BooleanField(
        required=False,
        label="Random start player",
        help_text="Otherwise the host holds the Diary and plays first.",
    )
    play_on = forms.BooleanField(
        required=False,
        label="Play on",
        help_text="After a win, the others go on for second place.",
    )


class ColourForm(forms.Form):
    colour = forms.ChoiceField(choices=Colour.choices)


class NotebookForm(forms.Form):
    text = forms.CharField(required=False, max_length=50_000, strip=False, widget=forms.Textarea)


class ActionForm(forms.Form):
    """One move: the legal action the page offered (as JSON), plus what the player typed.

    The page renders each action of `legal_actions` as a form carrying that action; the
    player may change its free parts (carriages, answers, a Holmes check). Anything else
    a client sends is still only a proposal: `game_apply_action` runs the engine's checks.
    """

    action = forms.CharField(max_length=2_000)
    expected_version = forms.IntegerField(min_value=0, required=False)
    key = forms.CharField(max_length=80, required=False)
    carriages = forms.IntegerField(min_value=0, max_value=99, required=False)
    question = forms.CharField(max_length=60, required=False)
    answer = forms.CharField(max_length=MAX_TEXT, required=False, strip=True)

    def clean_action(self) -> dict:
        try:
            action = json.loads(self.cleaned_data["action"])
        except ValueError as error:
            raise forms.ValidationError("This move could not be read.") from error
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise forms.ValidationError("This move could not be read.")
        return action

    def to_action(self) -> dict:
        action = dict(self.cleaned_data["action"])
        if self.cleaned_data.get("carriages") is not None:
            action["carriages"] = self.cleaned_data["carriages"]
        if self.cleaned_data.get("question"):
            action["question"] = self.cleaned_data["question"]
        if "answer" in self.data:
            action["answer"] = self.cleaned_data.get("answer") or ""
        answers = {
            name[len(ANSWER_PREFIX) :]: value.strip()[:MAX_TEXT]
            for name, value in self.data.items()
            if name.startswith(ANSWER_PREFIX)
        }
        if answers:
            action["answers"] = answers
        return action
