"""Forms of the account pages: Django's own auth forms, plus a profile and preferences."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from . import hooks
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

    def clean_email(self):
        return _unused_email(self.cleaned_data["email"], user=None)

    def validate_password_for_user(self, user, **kwargs):
        # Django checks the confirmation field, and shows "too common" beside it; the
        # player chose the password in the first field, so the sentence goes there.
        super().validate_password_for_user(user, password_field_name="password1")


def _unused_email(email: str, *, user: User | None) -> str:
    """`email`, if no other account has it (in any case): an address is one person's."""
    others = User.objects.filter(email__iexact=email)
    if user is not None:
        others = others.exclude(pk=user.pk)
    if email and others.exists():
        raise forms.ValidationError(
            "Another account already uses this e-mail address. If it is yours, log in, or "
            "reset its password."
        )
    return email


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")
        help_texts = {"display_name": "The name other players see at a table."}

    def clean_email(self):
        return _unused_email(self.cleaned_data["email"], user=self.instance)

    def clean_display_name(self):
        """Two players at one table never share a name: not while this user sits at a
        table that has not finished with someone of that name."""
        name = self.cleaned_data["display_name"]
        taken = hooks.name_taken_at_tables_of(
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
