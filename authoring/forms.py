"""Friendly form fields for the editor's JSON lists, and the editor's forms."""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify

from authoring.services import CommentInput, ReplyInput
from cases import services as case_services
from cases.models import MAX_DIFFICULTY, MAX_PLAYERS, CaseVersion, Icon, Location, Question, Zone

SLUG = re.compile(r"[a-z0-9-]+")


class ListFieldMixin:
    """A list kept in a JSON field: unchanged when the text says the same list."""

    def has_changed(self, initial, data):
        try:
            return list(self.to_python(data)) != list(initial or [])
        except ValidationError:
            return True


class LinesField(ListFieldMixin, forms.CharField):
    """One item per line (accepted and rejected answer forms)."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 60})

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "One form per line.")
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return "\n".join(str(item) for item in value)
        return value

    def to_python(self, value):
        if isinstance(value, list | tuple):
            return [str(item) for item in value]
        text = super().to_python(value) or ""
        return [line.strip() for line in text.splitlines() if line.strip()]


class NumberListField(ListFieldMixin, forms.CharField):
    """Card numbers separated by commas: "4, 12"."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "Card numbers separated by commas, like 4, 12.")
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(str(item) for item in value)
        return value

    def to_python(self, value):
        if isinstance(value, list | tuple):
            return [int(item) for item in value]
        text = super().to_python(value) or ""
        numbers = []
        for part in re.split(r"[,\s]+", text.strip()):
            if not part:
                continue
            if not part.isdigit() or int(part) < 1:
                raise ValidationError(f'"{part}" is not a card number; write numbers like 4, 12.')
            numbers.append(int(part))
        return numbers


class IconsField(ListFieldMixin, forms.MultipleChoiceField):
    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(choices=Icon.choices, **kwargs)

    def to_python(self, value):
        chosen = set(super().to_python(value))
        # In the order of the format's vocabulary, so a save without changes changes nothing.
        return [icon for icon in Icon.values if icon in chosen]


def markdown_area(rows: int = 10) -> forms.Textarea:
    """A text written in Markdown: the editor's script previews it beside the field."""
    return forms.Textarea(attrs={"rows": rows, "cols": 60, "data-markdown": "1"})


class UnixLinesMixin:
    """Texts as written, with the line ends of a package file: browsers send a textarea's
    lines ended by CRLF, which would make every saved text differ from its package (and
    from the version before it) without a visible change."""

    def clean(self):
        cleaned = super().clean()
        for name, value in cleaned.items():
            if isinstance(value, str) and "\r" in value:
                cleaned[name] = value.replace("\r\n", "\n").replace("\r", "\n")
        return cleaned


class DraftFormMixin:
    """A draft keeps whatever the writer typed: the texts listed in `may_stay_empty` save
    empty, and the linter (which Submit consults) says what is still missing."""

    may_stay_empty: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.may_stay_empty:
            if name in self.fields:
                self.fields[name].required = False


def bounded(low: int, high: int, what: str) -> dict:
    """A number field's bounds, refused in a sentence (rather than by the database's
    constraint, whose message names the constraint)."""
    message = f"{what} goes from {low} to {high}."
    return {
        "min_value": low,
        "max_value": high,
        "error_messages": {"min_value": message, "max_value": message},
    }


class CaseVersionForm(DraftFormMixin, UnixLinesMixin, forms.ModelForm):
    may_stay_empty = ("introduction", "solution")

    difficulty = forms.IntegerField(
        initial=1,
        help_text="From 0 (a tutorial) to 5.",
        **bounded(0, MAX_DIFFICULTY, "The difficulty"),
    )
    min_players = forms.IntegerField(initial=1, **bounded(1, MAX_PLAYERS, "Min players"))
    max_players = forms.IntegerField(initial=MAX_PLAYERS, **bounded(1, MAX_PLAYERS, "Max players"))

    def clean(self):
        cleaned = super().clean()
        fewest, most = cleaned.get("min_players"), cleaned.get("max_players")
        if fewest is not None and most is not None and fewest > most:
            self.add_error("max_players", f"Max players must be at least min players ({fewest}).")
        return cleaned

    class Meta:
        model = CaseVersion
        fields = [
            "title", "difficulty", "language", "min_players", "max_players",
            "start_carriages", "start_police", "start_call_off", "start_lockpick",
            "start_zone", "travel_cost", "introduction", "special_rules", "solution",
        ]  # fmt: skip
        widgets = {
            "introduction": markdown_area(),
            "special_rules": markdown_area(),
            "solution": markdown_area(),
        }


class CaseVersionAddForm(CaseVersionForm):
    """A new case: its slug (its address on the site) and its first version."""

    slug = forms.CharField(
        max_length=80,
        help_text="The case's address on the site: lowercase letters, digits and -.",
    )

    class Meta(CaseVersionForm.Meta):
        fields = ["slug", *CaseVersionForm.Meta.fields]

    def clean_slug(self):
        from cases.models import Case

        slug = self.cleaned_data["slug"].strip()
        if not SLUG.fullmatch(slug):
            raise ValidationError("Use only lowercase letters, digits and -.")
        if Case.objects.filter(slug=slug).exists():
            raise ValidationError(f'The slug "{slug}" is taken; choose another.')
        return slug


class QuestionForm(DraftFormMixin, UnixLinesMixin, forms.ModelForm):
    # An id left empty is made from the question (QuestionKeysFormSetMixin).
    may_stay_empty = ("ask", "answer", "key")
    accept = LinesField(label="Accepted forms", help_text="More correct forms, one per line.")
    reject = LinesField(label="Rejected forms", help_text="Close but wrong forms, one per line.")
    evidence = NumberListField(label="Evidence cards")
    position = forms.IntegerField(
        required=False, min_value=0, help_text="Order of the question; empty: at the end."
    )

    class Meta:
        model = Question
        fields = ["position", "key", "ask", "kind", "answer", "accept", "reject", "evidence"]
        widgets = {"ask": forms.Textarea(attrs={"rows": 2, "cols": 60})}
        labels = {"key": "Id"}
        help_texts = {
            "key": "Lowercase letters, digits and _. Leave it empty: Save makes one from "
            "the question."
        }


class LocationForm(DraftFormMixin, UnixLinesMixin, forms.ModelForm):
    may_stay_empty = ("name",)
    icons = IconsField()

    class Meta:
        model = Location
        fields = ["number", "name", "icons", "carriages", "zone", "text"]
        widgets = {"text": markdown_area(8)}


class ZoneForm(forms.ModelForm):
    position = forms.IntegerField(required=False, min_value=0)

    class Meta:
        model = Zone
        fields = ["key", "name", "position"]


# What a row's unique field is called in the writer's words, by model.
ROW_NAMES = {"question": "question", "location": "card", "zone": "zone"}
FIELD_NAMES = {"key": "id", "number": "number", "position": "position"}


class SentencesFormSetMixin:
    """Two rows that may not share a value are told so in a sentence (Django's own
    message speaks of "duplicate data")."""

    def get_unique_error_message(self, unique_check):
        row = ROW_NAMES.get(self.model._meta.model_name, "row")
        names = [FIELD_NAMES.get(name, name) for name in unique_check if name != "version"]
        return f"Two {row}s have the same {' and '.join(names)}: give each {row} its own."

    def get_form_error(self):
        return "This row shares a value with another: change one of them."


class PositionedFormSetMixin:
    """Rows left without a position go at the end, in the order they were written."""

    def clean(self):
        super().clean()
        forms_ = [f for f in self.forms if f.has_changed() or f.instance.pk]
        forms_ = [f for f in forms_ if not self._should_delete_form(f) and f.is_valid()]
        taken = [f.cleaned_data.get("position") for f in forms_]
        following = max((p for p in taken if p is not None), default=-1) + 1
        for form in forms_:
            if form.cleaned_data.get("position") is None:
                form.cleaned_data["position"] = following
                form.instance.position = following
                following += 1


# How many words of a question its made-up id keeps ("Who stole the repeater?": who_stole_the).
KEY_WORDS = 3
KEY_LENGTH = 40


def question_key_from(ask: str, taken: set[str]) -> str:
    """An id for a question the writer left without one: its first words, in the id's
    alphabet ([a-z0-9_]), and a number after it when another question has it already."""
    words = slugify(ask).split("-")[:KEY_WORDS]
    base = "_".join(word for word in words if word)[:KEY_LENGTH] or "question"
    key, count = base, 1
    while key in taken:
        count += 1
        key = f"{base}_{count}"
    return key


class QuestionKeysFormSetMixin:
    """A question saved without an id gets one (question_key_from): a new question need
    not wait for the writer to invent a name."""

    def clean(self):
        rows = [
            form
            for form in self.forms
            if (form.has_changed() or form.instance.pk)
            and not self._should_delete_form(form)
            and hasattr(form, "cleaned_data")
        ]
        taken = {form.cleaned_data.get("key") for form in rows} - {None, ""}
        for form in rows:
            if "key" in form.cleaned_data and not form.cleaned_data["key"]:
                key = question_key_from(form.cleaned_data.get("ask") or "", taken)
                form.cleaned_data["key"] = form.instance.key = key
                taken.add(key)
        super().clean()


class RenumberingFormSetMixin:
    """Card rows whose numbers a save changes, swaps included.

    `save()` parks the changed rows' old numbers first (numbers are unique in a version),
    and leaves `renumbered` (old number → new) for the references to follow.
    """

    def save(self, commit=True):
        moving, self.renumbered = [], {}
        for form in self.initial_forms:
            if not form.instance.pk:
                continue
            if self._should_delete_form(form):
                moving.append(form.instance.pk)
            elif "number" in form.changed_data:
                moving.append(form.instance.pk)
                self.renumbered[form.initial["number"]] = form.cleaned_data["number"]
        if commit:
            case_services.location_numbers_release(location_ids=moving)
        return super().save(commit=commit)


class ReviewCommentForm(forms.Form):
    """One comment of a moderator: on the case, a card or a question."""

    target = forms.ChoiceField(required=False)
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 70}), required=False)

    def __init__(self, *args, version: CaseVersion, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "The case as a whole")]
        choices += [(f"question:{q.pk}", f'Question "{q.key}"') for q in version.questions.all()]
        choices += [(f"location:{loc.pk}", f"Card {loc}") for loc in version.locations.all()]
        self.fields["target"].choices = choices

    def target_ids(self) -> tuple[int | None, int | None]:
        kind, _, pk = (self.cleaned_data.get("target") or "").partition(":")
        return (int(pk) if kind == "question" else None, int(pk) if kind == "location" else None)


# A thread's reply box in the review page's one form: "reply-<comment id>".
REPLY_PREFIX = "reply-"
# The comment box under a card or a question on the review page:
# "comment-location-<card id>" or "comment-question-<question id>".
ROW_COMMENT = re.compile(r"comment-(location|question)-(\d+)")


def _row_comments(post) -> list[CommentInput]:
    comments = []
    for name, text in post.items():
        row = ROW_COMMENT.fullmatch(name)
        if row and text.strip():
            kind, pk = row[1], int(row[2])
            comments.append(
                CommentInput(
                    text,
                    question_id=pk if kind == "question" else None,
                    location_id=pk if kind == "location" else None,
                )
            )
    return comments


def review_page_typed(post, version: CaseVersion) -> tuple[list[CommentInput], list[ReplyInput]]:
    """What the review page's one form holds: the new comments (the page's own box, then
    the box under each card or question) and every thread's reply box (whichever button
    sent it, all of it is to be sent)."""
    form = ReviewCommentForm(post, version=version)
    comment = CommentInput("")
    if form.is_valid():
        question_id, location_id = form.target_ids()
        comment = CommentInput(form.cleaned_data["text"], question_id, location_id)
    replies = [
        ReplyInput(int(name.removeprefix(REPLY_PREFIX)), text)
        for name, text in post.items()
        if name.startswith(REPLY_PREFIX) and name.removeprefix(REPLY_PREFIX).isdigit()
    ]
    return [comment, *_row_comments(post)], replies


class CaseFromTemplateForm(forms.Form):
    slug = forms.CharField(
        max_length=80,
        help_text="The case's address on the site: lowercase letters, digits and -.",
    )
    title = forms.CharField(max_length=200)

    def clean_slug(self):
        slug = self.cleaned_data["slug"].strip()
        if not SLUG.fullmatch(slug):
            raise ValidationError("Use only lowercase letters, digits and -.")
        return slug


class PackageUploadForm(forms.Form):
    package = forms.FileField(help_text="A case package as a .zip (case.md and locations/).")
