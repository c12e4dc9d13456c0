"""The case editor, in the admin: case versions with their zones, questions and cards.

The admin classes stay thin: what a user may see and do comes from
`authoring.selectors` and `authoring.services` (the workflow, with its refusals in plain
sentences); import and export go through `cases.services` and `cases.selectors`.
"""

import io
import re

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from authoring import selectors as workflow
from authoring import services as authoring
from authoring.forms import (
    CaseFromTemplateForm,
    CaseVersionAddForm,
    CaseVersionForm,
    LocationForm,
    PackageUploadForm,
    PositionedFormSetMixin,
    QuestionForm,
    QuestionKeysFormSetMixin,
    RenumberingFormSetMixin,
    SentencesFormSetMixin,
    ZoneForm,
)
from authoring.threads import editor_threads
from cases.markdown import render_markdown
from cases.models import CaseVersion, Location, NearMiss, Question, Zone
from cases.package.data import count_summary
from cases.package.writer import write_zip
from cases.selectors import case_export_package
from cases.services import PackageInvalid, card_references_renumber, case_start_from_template

# The editor's script marks its background saves with this header (authoring/editor.js).
AUTOSAVE_HEADER = "X-Holmes-Autosave"
MAX_PREVIEW_CHARACTERS = 100_000
# The id of an editor field ("id_solution", "id_locations-3-text"): where Save comes back to.
FIELD_ID = re.compile(r"id_[A-Za-z0-9_-]{1,80}")


def _is_autosave(request) -> bool:
    return request.headers.get(AUTOSAVE_HEADER) == "1"


def _may_edit(request, version: CaseVersion | None) -> bool:
    if version is None or version.pk is None:
        return True
    try:
        authoring.check_case_edit(version=version, user=request.user)
    except authoring.WorkflowRefused:
        return False
    return True


def _first_problem(context) -> str:
    """The first refusal of a form that did not validate, as a sentence, for autosave to
    say what waits (the Save button shows every one by its field)."""
    forms = [context["adminform"].form]
    for inline in context.get("inline_admin_formsets", []):
        if inline.formset.non_form_errors():
            return str(inline.formset.non_form_errors()[0])
        forms += inline.formset.forms
    for form in forms:
        for errors in form.errors.values():
            if errors:
                text = str(errors[0])
                return text if text.endswith(".") else f"{text}."
    return ""


def _preview(text: str):
    if not text:
        return "—"
    return format_html('<div class="holmes-preview prose">{}</div>', render_markdown(text))


# --- Inlines --------------------------------------------------------------------------------


class VersionChildInline(admin.StackedInline):
    """A row of a version: editable exactly when the version is (see check_case_edit)."""

    extra = 0

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        mixins = (SentencesFormSetMixin,)
        if "position" in formset.form.base_fields:
            mixins = (SentencesFormSetMixin, PositionedFormSetMixin)
        return type(f"Friendly{formset.__name__}", (*mixins, formset), {})

    def has_add_permission(self, request, obj=None):
        return super().has_add_permission(request, obj) and _may_edit(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and _may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and _may_edit(request, obj)


def _is_zoned(obj: CaseVersion | None) -> bool:
    """A case with zones, or one whose cards still name zones (a problem to show)."""
    return obj is not None and (
        obj.is_zoned or (obj.pk is not None and obj.locations.filter(zone__isnull=False).exists())
    )


class ZoneInline(VersionChildInline, admin.TabularInline):
    model = Zone
    form = ZoneForm
    fields = ("key", "name", "position")

    def get_formset(self, request, obj=None, **kwargs):
        # Folded in a one-zone case: there is nothing to see until the writer wants zones.
        # (Inline instances are made for each request, so this changes no other page.)
        self.classes = [] if _is_zoned(obj) else ["collapse"]
        return super().get_formset(request, obj, **kwargs)


# Cards and questions share one folded list (each row one line until opened).
FOLDED_ROWS = "admin/cases/caseversion/card_inline.html"


class QuestionInline(VersionChildInline):
    model = Question
    form = QuestionForm
    template = FOLDED_ROWS
    fold_line_template = "admin/cases/caseversion/_question_line.html"
    fold_noun = "questions"
    fields = ("position", "key", "ask", "kind", "answer", "accept", "reject", "evidence")
    # What answers a question, or points to its answer: hidden in a blind review.
    secret_fields = ("answer", "accept", "reject", "evidence")

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if obj is not None and workflow.solution_hidden(user=request.user, version=obj):
            return [name for name in fields if name not in self.secret_fields]
        return fields

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        return type(f"Keyed{formset.__name__}", (QuestionKeysFormSetMixin, formset), {})


class LocationInline(VersionChildInline):
    model = Location
    form = LocationForm
    fields = ("number", "name", "icons", "carriages", "zone", "text", "preview")
    readonly_fields = ("preview",)
    template = FOLDED_ROWS
    fold_line_template = "admin/cases/caseversion/_card_line.html"
    fold_noun = "cards"

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        # A card's zone means nothing in a one-zone case: no field for it.
        return fields if _is_zoned(obj) else [name for name in fields if name != "zone"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        return type(f"Renumbering{formset.__name__}", (RenumberingFormSetMixin, formset), {})

    @admin.display(description="Preview (as players see it)")
    def preview(self, obj):
        return _preview(obj.text) if obj and obj.pk else "—"

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "zone":
            version_id = request.resolver_match.kwargs.get("object_id")
            kwargs["queryset"] = Zone.objects.filter(version_id=version_id or 0)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


# --- The editor -----------------------------------------------------------------------------

SET_UP = {
    "fields": (
        ("start_carriages", "start_police", "start_call_off", "start_lockpick"),
        ("start_zone", "travel_cost"),
    ),
    "description": "Leave empty for the rules' defaults and a one-zone case.",
}
TEXT_HEADINGS = {
    "introduction": "Introduction",
    "special_rules": "Special rules",
    "solution": "Solution",
}


@admin.register(CaseVersion)
class CaseVersionAdmin(admin.ModelAdmin):
    form = CaseVersionForm
    add_form = CaseVersionAddForm
    inlines = [ZoneInline, QuestionInline, LocationInline]
    list_filter = ("status",)
    # The only lookups the list answers: its own filter's. Any other (`?solution__icontains=`,
    # `?questions__answer=`, `?case__author=`) would be a yes/no oracle on what a blind
    # review hides.
    allowed_lookups = frozenset({"status", "status__exact"})
    search_fields = ("title", "case__slug")
    ordering = ("case__slug", "-number")
    readonly_fields = (
        "case", "number", "status", "published_at",
        "introduction_preview", "special_rules_preview", "solution_preview",
    )  # fmt: skip
    change_form_template = "admin/cases/caseversion/change_form.html"
    change_list_template = "admin/cases/caseversion/change_list.html"

    def get_fieldsets(self, request, obj=None):
        texts = ("introduction", "special_rules", "solution")
        if obj is not None and workflow.solution_hidden(user=request.user, version=obj):
            texts = ("introduction", "special_rules")  # blind review: no solution yet
        if obj is None:
            return self._new_case_fieldsets(texts)
        # One line each until opened, as the cards and questions below: a 12-card case
        # fits in two screens. The editor's script opens a fold a link or an error is in.
        version_line = ("case", "number", "status") + (
            ("published_at",) if obj.published_at else ()
        )
        head = (version_line, "title", ("difficulty", "language", "min_players", "max_players"))
        folded = ["collapse"]
        return [
            (None, {"fields": head}),
            ("Set-up", {**SET_UP, "classes": folded}),
            *(
                (TEXT_HEADINGS[name], {"fields": (name, f"{name}_preview"), "classes": folded})
                for name in texts
            ),
        ]

    @staticmethod
    def _new_case_fieldsets(texts):
        head = ("slug", "title", "difficulty", "language", ("min_players", "max_players"))
        return [(None, {"fields": head}), ("Set-up", SET_UP), ("Texts", {"fields": texts})]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = self.add_form
        return super().get_form(request, obj, change=change, **kwargs)

    def get_list_display(self, request):
        @admin.display(description="Author")
        def author(obj):
            # "the author" for a moderator, until the review is decided.
            return workflow.author_name(user=request.user, version=obj)

        return ("title", "case", "number", "status", author, "created_at")

    def lookup_allowed(self, lookup, value, request=None):
        return lookup in self.allowed_lookups and super().lookup_allowed(lookup, value, request)

    @admin.display(description="Introduction as players see it")
    def introduction_preview(self, obj):
        return _preview(obj.introduction)

    @admin.display(description="Special rules as players see them")
    def special_rules_preview(self, obj):
        return _preview(obj.special_rules)

    @admin.display(description="Solution as players see it")
    def solution_preview(self, obj):
        return _preview(obj.solution)

    # Who sees and does what ---------------------------------------------------------------

    def get_queryset(self, request):
        return workflow.versions_for_user(user=request.user)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and _may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.pk is not None:
            try:
                authoring.check_case_delete(version=obj, user=request.user)
            except authoring.WorkflowRefused:
                return False
        return super().has_delete_permission(request, obj) and _may_edit(request, obj)

    def history_view(self, request, object_id, extra_context=None):
        # The admin's history names who saved each change: the author, whom a blind review
        # keeps unnamed until the moderator decides.
        version = self._version(request, int(object_id)) if object_id.isdigit() else None
        if version is not None and workflow.author_hidden(user=request.user, version=version):
            self.message_user(
                request,
                "The history of this version names its author: it opens once the review "
                "is decided.",
                messages.INFO,
            )
            return self._back(version)
        return super().history_view(request, object_id, extra_context)

    def save_model(self, request, obj, form, change):
        if change:
            try:
                authoring.check_case_edit(version=obj, user=request.user)
            except authoring.WorkflowRefused as refused:
                raise PermissionDenied(str(refused)) from refused
            obj.save()
        else:
            authoring.case_start(user=request.user, slug=form.cleaned_data["slug"], version=obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        renumbered = {}
        for formset in formsets:
            renumbered.update(getattr(formset, "renumbered", {}))
        if renumbered:
            card_references_renumber(version=form.instance, mapping=renumbered)
            # The references were rewritten in the database: the summary below must lint
            # those texts (as the report on the next page will), not the ones in memory.
            form.instance.refresh_from_db()
            self.message_user(
                request,
                "Renumbered "
                + ", ".join(f"card {old} → {new}" for old, new in sorted(renumbered.items()))
                + ": the [[n]] references and evidence lists follow.",
                messages.INFO,
            )
        # A summary only: the report on the page lists each problem once, by its field.
        report = workflow.version_lint(version=form.instance)
        if report.items:
            level = messages.WARNING if report.errors or report.warnings else messages.INFO
            summary = count_summary([item.problem for item in report.items])
            self.message_user(request, f"The linter found {summary}: see its report.", level)
        else:
            self.message_user(request, "The linter found no problem.", messages.SUCCESS)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if _is_autosave(request) and request.method == "POST":
            # The form did not validate: nothing was saved, and the writer's page is as it
            # was; the Save button shows the errors by their fields.
            problem = _first_problem(context) or "a field needs a fix."
            return JsonResponse(
                {"saved": False, "message": f"Not saved automatically: {problem} "
                 "Press Save to see it by its field."},
                status=400,
            )  # fmt: skip
        if obj is not None and obj.pk:
            context.update(self._editor_context(request, context, obj))
        context["markdown_preview_url"] = reverse("admin:cases_caseversion_markdown_preview")
        context["autosave_seconds"] = settings.EDITOR_AUTOSAVE_SECONDS
        return super().render_change_form(request, context, add, change, form_url, obj)

    # Autosave: the editor's script posts the form in the background, with a header. It is
    # the same save as the button's, without the messages, the history entry or the redirect.

    def response_change(self, request, obj):
        if _is_autosave(request):
            return JsonResponse({"saved": True, "at": timezone.localtime().strftime("%H:%M:%S")})
        response = super().response_change(request, obj)
        # "Save and continue editing" brings the writer back to the field they were in
        # (the editor's script notes it), not to the top of a long page.
        field = request.POST.get("_return_to", "")
        if (
            "_continue" in request.POST
            and FIELD_ID.fullmatch(field)
            and response.has_header("Location")
        ):
            response["Location"] = response["Location"].split("#")[0] + "#" + field
        return response

    def message_user(self, request, *args, **kwargs):
        if not _is_autosave(request):
            super().message_user(request, *args, **kwargs)

    def log_change(self, request, obj, message):
        if not _is_autosave(request):
            return super().log_change(request, obj, message)
        return None

    def markdown_preview_view(self, request):
        """Author Markdown rendered as players will read it, for the editor's live preview:
        the same renderer and sanitiser as every page of the site."""
        if request.method != "POST":
            return JsonResponse({"error": "Send the text with POST."}, status=405)
        if not (workflow.is_author(request.user) or workflow.is_moderator(request.user)):
            raise PermissionDenied
        text = request.POST.get("text", "")
        if len(text) > MAX_PREVIEW_CHARACTERS:
            return JsonResponse(
                {"error": f"Too long to preview (over {MAX_PREVIEW_CHARACTERS:,} characters)."},
                status=400,
            )
        return JsonResponse({"html": str(render_markdown(text)) if text.strip() else ""})

    def _editor_context(self, request, context, obj: CaseVersion) -> dict:
        """The lint report, each problem linked to (and shown under) its field; and the
        workflow buttons with the reason when one is refused."""
        if workflow.solution_hidden(user=request.user, version=obj):
            # The lint report speaks of answers and of the solution: after the reveal.
            return {
                "blind_review": True,
                "lint_panel": [],
                "workflow": _workflow_buttons(request, obj),
                "may_preview": False,
                "comments": editor_threads(request=request, context=context, version=obj),
            }
        report = workflow.version_lint(version=obj)
        rows = {}
        for inline_formset in context.get("inline_admin_formsets", []):
            formset = inline_formset.formset
            for index, inline_form in enumerate(formset.forms):
                if inline_form.instance.pk:
                    kind = formset.model._meta.model_name
                    rows[(kind, inline_form.instance.pk)] = (formset.prefix, index, inline_form)
        main_form = context["adminform"].form
        panel = []
        for item in report.items:
            anchor, form = "", None
            if item.target == "case":
                anchor = f"id_{item.field}" if item.field else ""
                form = main_form
            elif (item.target, item.target_id) in rows:
                prefix, index, form = rows[(item.target, item.target_id)]
                anchor = f"id_{prefix}-{index}-{item.field}" if item.field else f"{prefix}-{index}"
                # The card list shows the count on the folded card, and opens it.
                form.holmes_problems = getattr(form, "holmes_problems", 0) + 1
            if form is not None and item.field in form.fields:
                field = form.fields[item.field]
                field.help_text = format_html(
                    '<span class="holmes-lint holmes-lint-{}">{}: {}</span><br>{}',
                    item.severity,
                    item.severity_word,
                    item.message,
                    field.help_text,
                )
            panel.append({"item": item, "anchor": anchor})
        return {
            "lint_report": report,
            "lint_panel": panel,
            "lint_summary": count_summary([item.problem for item in report.items]),
            "workflow": _workflow_buttons(request, obj),
            "may_preview": workflow.owns(request.user, obj),
            # Open review threads, each linked to its card or question, whose field
            # says "N open comments" (as the lint marks above); none once published.
            "comments": editor_threads(request=request, context=context, version=obj),
        }

    # Extra pages: import, export, submit, new draft, statistics ----------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="cases_caseversion_import"),
            path("template/", wrap(self.template_view), name="cases_caseversion_template"),
            path(
                "markdown-preview/",
                wrap(self.markdown_preview_view),
                name="cases_caseversion_markdown_preview",
            ),
            path("<int:pk>/export/", wrap(self.export_view), name="cases_caseversion_export"),
            path("<int:pk>/submit/", wrap(self.submit_view), name="cases_caseversion_submit"),
            path(
                "<int:pk>/new-draft/",
                wrap(self.new_draft_view),
                name="cases_caseversion_new_draft",
            ),
            path("<int:pk>/preview/", wrap(self.preview_view), name="cases_caseversion_preview"),
            path(
                "<int:pk>/statistics/",
                wrap(self.statistics_view),
                name="cases_caseversion_statistics",
            ),
            path(
                "near-miss/<int:pk>/accept/",
                wrap(self.near_miss_accept_view),
                name="cases_nearmiss_accept",
            ),
            *super().get_urls(),
        ]

    def _version(self, request, pk: int) -> CaseVersion:
        """A version the user may see, or 404 (as for a version that does not exist)."""
        return get_object_or_404(self.get_queryset(request), pk=pk)

    def _back(self, version: CaseVersion) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:cases_caseversion_change", args=[version.pk]))

    def import_view(self, request):
        if not workflow.is_author(request.user):
            raise PermissionDenied
        form = PackageUploadForm(request.POST or None, request.FILES or None)
        problems = []
        if request.method == "POST" and form.is_valid():
            try:
                result = authoring.case_import_zip(
                    user=request.user, content=form.cleaned_data["package"].read()
                )
            except PackageInvalid as invalid:
                problems = invalid.problems
            except authoring.WorkflowRefused as refused:
                form.add_error(None, str(refused))
            else:
                self.message_user(
                    request,
                    f"Imported as version {result.version.number} of "
                    f"{result.version.case.slug}, a draft.",
                    messages.SUCCESS,
                )
                return self._back(result.version)
        context = {
            **self.admin_site.each_context(request),
            "title": "Import a case package",
            "opts": self.model._meta,
            "form": form,
            "problems": problems,
        }
        return TemplateResponse(request, "admin/cases/caseversion/import.html", context)

    def template_view(self, request):
        """Start a case from the template: every part in place, placeholders to replace."""
        if not workflow.is_author(request.user):
            raise PermissionDenied
        form = CaseFromTemplateForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            slug, title = form.cleaned_data["slug"], form.cleaned_data["title"]
            try:
                authoring.check_case_start(user=request.user, slug=slug)
                version = case_start_from_template(author=request.user, slug=slug, title=title)
            except authoring.WorkflowRefused as refused:
                form.add_error("slug", str(refused))
            except PackageInvalid as invalid:
                form.add_error(None, "; ".join(p.message for p in invalid.problems))
            else:
                self.message_user(
                    request,
                    f"{title}: a new draft from the template. Replace each placeholder; "
                    "the linter follows you.",
                    messages.SUCCESS,
                )
                return self._back(version)
        context = {
            **self.admin_site.each_context(request),
            "title": "Start a case from the template",
            "opts": self.model._meta,
            "form": form,
        }
        return TemplateResponse(request, "admin/cases/caseversion/template.html", context)

    def export_view(self, request, pk: int):
        version = self._version(request, pk)
        if workflow.solution_hidden(user=request.user, version=version):
            self.message_user(
                request,
                "The package holds the solution and the answers: reveal them on the review "
                "page first (the review is blind until then).",
                messages.ERROR,
            )
            return self._back(version)
        slug = version.case.slug
        buffer = io.BytesIO()
        write_zip(case_export_package(version=version), buffer, folder=slug)
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        filename = f"{slug}-v{version.number}.zip"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def _act(self, request, version, action, success: str):
        try:
            action()
        except authoring.WorkflowRefused as refused:
            self.message_user(request, str(refused), messages.ERROR)
        else:
            self.message_user(request, success, messages.SUCCESS)
        return self._back(version)

    @staticmethod
    def _post_only(request):
        if request.method != "POST":
            raise PermissionDenied("Use the button on the case's page.")

    def submit_view(self, request, pk: int):
        self._post_only(request)
        version = self._version(request, pk)
        return self._act(
            request,
            version,
            lambda: authoring.case_submit(version=version, user=request.user),
            "Submitted for review: a moderator will read it soon.",
        )

    def new_draft_view(self, request, pk: int):
        self._post_only(request)
        version = self._version(request, pk)
        try:
            draft = authoring.case_version_new_draft(version=version, user=request.user)
        except authoring.WorkflowRefused as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return self._back(version)
        self.message_user(
            request,
            f"Version {draft.number} is a new draft copied from version {version.number}.",
            messages.SUCCESS,
        )
        return self._back(draft)

    def preview_view(self, request, pk: int):
        """The whole version as players will see it: booklet, questions, every card with
        its icons, and the solution behind a click. For its author."""
        version = self._version(request, pk)
        if not workflow.owns(request.user, version):
            raise PermissionDenied
        if workflow.solution_hidden(user=request.user, version=version):
            # A superuser owns every case, but reads one under review as a moderator does.
            raise PermissionDenied("The preview shows the solution: the review is blind.")
        context = {
            "version": version,
            "questions": list(version.questions.order_by("position")),
            "locations": list(version.locations.select_related("zone").order_by("number")),
        }
        return TemplateResponse(request, "authoring/case_preview.html", context)

    def statistics_view(self, request, pk: int):
        version = self._version(request, pk)
        if not workflow.owns(request.user, version):
            raise PermissionDenied
        stats = workflow.case_statistics(case=version.case)
        context = {
            **self.admin_site.each_context(request),
            "title": f"How players fared: {version.title}",
            "opts": self.model._meta,
            "original": version,
            "stats": stats,
        }
        return TemplateResponse(request, "admin/cases/caseversion/statistics.html", context)

    def near_miss_accept_view(self, request, pk: int):
        self._post_only(request)
        near_miss = get_object_or_404(NearMiss.objects.select_related("question__version"), pk=pk)
        version = near_miss.question.version
        if not workflow.owns(request.user, version):
            raise Http404
        try:
            draft = authoring.near_miss_accept(near_miss=near_miss, user=request.user)
        except authoring.WorkflowRefused as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return HttpResponseRedirect(
                reverse("admin:cases_caseversion_statistics", args=[version.pk])
            )
        self.message_user(
            request,
            f'"{near_miss.example}" is now an accepted answer in version {draft.number} '
            "(a draft: submit it for review to publish it).",
            messages.SUCCESS,
        )
        return self._back(draft)


def _workflow_buttons(request, version: CaseVersion) -> list[dict]:
    """The author's workflow steps for this version: allowed, or refused with the reason."""
    buttons = []
    user = request.user
    if not workflow.owns(user, version):
        return buttons
    steps = [
        ("Submit for review", "admin:cases_caseversion_submit", authoring.check_case_submit),
        ("Edit as a new draft", "admin:cases_caseversion_new_draft",
         authoring.check_case_version_new_draft),
        # A private solo table on the draft, as players will see it (authoring/views.py).
        ("Play-test it myself", "authoring:playtest", authoring.check_case_playtest),
    ]  # fmt: skip
    for label, url_name, check in steps:
        try:
            check(version=version, user=user)
            refusal = ""
        except authoring.WorkflowRefused as refused:
            if refused.code in ("bad_status", "not_published", "not_author"):
                continue  # not a step of this status: no button at all
            refusal = str(refused)
        buttons.append(
            {
                "label": label,
                "url": reverse(url_name, args=[version.pk]),
                "refusal": refusal,
            }  # fmt: skip
        )
    return buttons
