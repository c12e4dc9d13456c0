"""Forms of the account pages: Django's own auth forms, plus a profile and preferences."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import NotificationKind, NotificationPreferences, User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(help_text="Only for resetting your password and notifications.")
    display_name = forms.CharField(
        max_length=60, required=False, help_text="The name other players see. Optional."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")
        help_texts = {"display_name": "The name other players see at a table."}


class NotificationPreferencesForm(forms.ModelForm):
    email_kinds = forms.MultipleChoiceField(
        choices=NotificationKind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Also e-mail me when",
        help_text="Every notification appears here on the site; these also arrive by e-mail.",
    )

    class Meta:
        model = NotificationPreferences
        fields = ("email_kinds",)
