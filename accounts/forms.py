"""Forms of the account pages: Django's own auth forms, plus a profile and preferences."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from . import selectors
from .models import NotificationKind, NotificationPreferences, User, validate_display_name


class SignUpForm(UserCreationForm):
    email = forms.EmailField(help_text="Only for resetting your password and notifications.")
    display_name = forms.CharField(
        max_length=60,
        required=False,
        validators=[validate_display_name],
        help_text="The name other players see. Optional.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")
        help_texts = {"display_name": "The name other players see at a table."}

    def clean_display_name(self):
        """Two players at one table never share a name: not while this user sits at a
        table that has not finished with someone of that name."""
        name = self.cleaned_data["display_name"]
        taken = selectors.name_taken_at_tables_of(
            user=self.instance, name=name or self.instance.username
        )
        if taken:
            raise forms.ValidationError(
                f"Someone at one of your tables is already called {taken}: choose another "
                "name, so that the others can tell you apart."
            )
        return name


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
