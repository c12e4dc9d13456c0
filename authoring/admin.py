"""The moderator queue and the review page, in the admin.

The queue lists submitted versions, oldest submission first, and the ones this moderator
sent back with changes requested. The review page is blind at first: a moderator claims
the case and can play-test it before choosing to see the solution, the answers, the lint
report and the diff with the published version (after a resubmission: with what they read
when they requested changes). Every card and question is shown with the comment threads
about it; their forms post to `authoring/views.py`.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse

from . import selectors, services, threads
from .editor_admin import CaseVersionAdmin  # noqa: F401 (registers the case editor)
from .forms import ReviewCommentForm
from .models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    """The moderator queue."""

    list_display = ("version", "author", "submitted_at", "status", "moderator", "claimed_at")
    list_display_links = ("version",)
    ordering = ("submitted_at", "pk")

    def get_queryset(self, request):
        return selectors.reviews_for(user=request.user)

    def has_view_permission(self, request, obj=None):
        return selectors.is_moderator(request.user) and super().has_view_permission(request, obj)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Author")
    def author(self, review):
        return review.version.case.author

    @admin.display(description="Status")
    def status(self, review):
        return review.version.get_status_display()

    def get_urls(self):
        wrap = self.admin_site.admin_view
        actions = [
            ("claim", self.claim_view),
            ("approve", self.approve_view),
            ("request-changes", self.request_changes_view),
            ("comment", self.comment_view),
            ("playtest", self.playtest_view),
            ("reveal", self.reveal_view),
        ]
        return [
            *(
                path(
                    f"<int:pk>/{name}/",
                    wrap(view),
                    name=f"authoring_review_{name.replace('-', '_')}",
                )
                for name, view in actions
            ),
            *super().get_urls(),
        ]

    def _review(self, request, pk: int) -> Review:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return get_object_or_404(self.get_queryset(request), pk=pk)

    def _back(self, review: Review) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:authoring_review_change", args=[review.pk]))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        review = self._review(request, int(object_id))
        version = review.version
        revealed = review.revealed_at is not None
        page_threads = threads.review_threads(request=request, version=version)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Review: {version.title} (v{version.number})",
            "opts": self.model._meta,
            "original": review,
            "review": review,
            "version": version,
            "revealed": revealed,
            "steps": _steps(request, review),
            "threads": page_threads,
            "comment_form": ReviewCommentForm(version=version),
            "playtests": list(version.playtests.filter(tester=request.user)),
        }
        if revealed:
            context["lint_report"] = selectors.version_lint(version=version)
            # After a resubmission, the changes since this moderator's last review; the
            # page links to the whole diff with the published version too.
            context["whole_diff"] = request.GET.get("diff") == "published"
            context["diff"] = (
                selectors.version_diff(version=version)
                if context["whole_diff"]
                else selectors.review_diff(review=review, user=request.user)
            )
            context["reviewed_before"] = (
                review.reviewed_content is not None and review.reviewed_by_id == request.user.pk
            )
        return TemplateResponse(request, "admin/authoring/review/review.html", context)

    def _act(self, request, pk: int, do, success: str):
        if request.method != "POST":
            raise PermissionDenied("Use the buttons on the review page.")
        review = self._review(request, pk)
        try:
            result = do(review.version, request)
        except services.WorkflowRefused as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return self._back(review)
        self.message_user(request, success, messages.SUCCESS)
        return result or self._back(review)

    def claim_view(self, request, pk: int):
        return self._act(
            request,
            pk,
            lambda version, r: services.case_claim(version=version, user=r.user) and None,
            "You claimed this case: it is in review, assigned to you.",
        )

    def approve_view(self, request, pk: int):
        def approve(version, r):
            services.case_approve(version=version, user=r.user)
            return HttpResponseRedirect(reverse("admin:authoring_review_changelist"))

        return self._act(request, pk, approve, "Approved and published.")

    def _comments(self, request, version) -> list[services.CommentInput]:
        form = ReviewCommentForm(request.POST, version=version)
        if not form.is_valid():
            return []
        question_id, location_id = form.target_ids()
        return [services.CommentInput(form.cleaned_data["text"], question_id, location_id)]

    def request_changes_view(self, request, pk: int):
        def request_changes(version, r):
            services.case_request_changes(
                version=version, user=r.user, comments=self._comments(r, version)
            )
            return HttpResponseRedirect(reverse("admin:authoring_review_changelist"))

        return self._act(request, pk, request_changes, "Changes requested: the author is told.")

    def comment_view(self, request, pk: int):
        def comment(version, r):
            comments = self._comments(r, version) or [services.CommentInput("")]
            services.case_comment_add(version=version, user=r.user, comment=comments[0])

        return self._act(request, pk, comment, "Comment added: the author is told.")

    def playtest_view(self, request, pk: int):
        def playtest(version, r):
            test = services.case_playtest_start(version=version, user=r.user)
            self.message_user(
                r,
                f"Play-test table {test.table_id} is ready: "
                f"{reverse('play:table', args=[test.table_id])}",
                messages.INFO,
            )

        return self._act(request, pk, playtest, "A solo play-test table was created for you.")

    def reveal_view(self, request, pk: int):
        return self._act(
            request,
            pk,
            lambda version, r: services.case_reveal(version=version, user=r.user) and None,
            "The solution, answers, lint report and changes are now shown.",
        )


def _steps(request, review: Review) -> list[dict]:
    """The review steps open to this moderator now, each with its URL."""
    checks = [
        ("claim", "Claim", lambda v, u: services.check_case_claim(version=v, user=u)),
        ("playtest", "Play-test (solo table)",
         lambda v, u: services.check_case_playtest(version=v, user=u)),
        ("reveal", "Show the solution and the report",
         lambda v, u: services.check_case_reveal(version=v, user=u)),
        ("approve", "Approve and publish",
         lambda v, u: services.check_case_approve(version=v, user=u)),
    ]  # fmt: skip
    steps = []
    for name, label, check in checks:
        if name == "reveal" and review.revealed_at:
            continue
        try:
            check(review.version, request.user)
        except services.WorkflowRefused:
            continue
        steps.append(
            {"label": label, "url": reverse(f"admin:authoring_review_{name}", args=[review.pk])}
        )
    return steps
