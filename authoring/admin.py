"""The moderator queue and the review page, in the admin.

The queue lists submitted versions, oldest submission first, and the ones this moderator
sent back with changes requested. The review page is blind at first: a moderator claims
the case and can play-test it before choosing to see the solution, the answers, the lint
report and the diff with the published version (after a resubmission: with what they read
when they requested changes). Until the case is published, the author is "the author".
Every card and question is shown with the comment threads about it; their forms post to
`authoring/views.py`. Once the case is published, the review page shows the case's review
history and leads to the published case.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse

from cases.models import VersionStatus
from cases.printing import case_print_html, write_pdf

from . import selectors, services, threads
from .editor_admin import CaseVersionAdmin  # noqa: F401 (registers the case editor)
from .forms import ReviewCommentForm, review_page_typed
from .models import Review
from .views import IN_PLACE_HEADER

LEFT_OUT_UNTIL_REVEALED = (
    "The solution and the answer key are left out of this copy: your review is blind. "
    "Show them on the review page, then print the case again."
)


def review_print_html(*, review: Review, user) -> str:
    """The moderator's print of the version under review: without the solution and the
    answer key until they revealed them; never with the author's name."""
    version = review.version
    if selectors.solution_hidden(user=user, version=version):
        return case_print_html(
            version=version, with_solution=False, closing_note=LEFT_OUT_UNTIL_REVEALED
        )
    return case_print_html(version=version)


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    """The moderator queue."""

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

    def get_list_display(self, request):
        @admin.display(description="Author")
        def author(review):
            # "the author": the moderator does not know whose case it is until they decide.
            return selectors.author_name(user=request.user, version=review.version)

        return ("version", author, "submitted_at", "status", "moderator", "claimed_at")

    def lookup_allowed(self, lookup, value, request=None):
        # The queue has no filter: a lookup (`?reviewed_content__icontains=`, on the text
        # the moderator read; `?submitted_by=`) would be an oracle on what the review hides.
        return False

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
            ("print", self.print_view),
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
        """A review this moderator may open: in the queue, sent back by them, or decided."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        review = selectors.review_for_page(user=request.user, pk=pk)
        if review is None:
            raise Http404("No review you may open has this address.")
        return review

    def _back(self, review: Review) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:authoring_review_change", args=[review.pk]))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        pk = int(object_id) if str(object_id).isdigit() else 0
        review = selectors.review_for_page(user=request.user, pk=pk)
        if review is None:
            holder = selectors.review_holder(pk=pk)
            if holder is None:
                raise Http404("No review has this address.")
            # A link from an older notification: another moderator has the case now.
            self.message_user(
                request,
                f"{holder} is reviewing this case now: it comes back to the queue only if "
                "they can no longer review it.",
                messages.INFO,
            )
            return HttpResponseRedirect(reverse("admin:authoring_review_changelist"))
        version = review.version
        revealed = not selectors.solution_hidden(user=request.user, version=version)
        page_threads = threads.review_threads(request=request, version=version)
        decided = version.status in selectors.DECIDED
        context = {
            **self.admin_site.each_context(request),
            "title": f"Review: {version.title} (v{version.number})",
            "opts": self.model._meta,
            "original": review,
            "review": review,
            "version": version,
            "author_name": selectors.author_name(user=request.user, version=version),
            "revealed": revealed,
            "decided": decided,
            "published_url": (
                reverse("play:case", args=[version.case.slug])
                if selectors.published_version_of(case=version.case) is not None
                else ""
            ),
            "history": selectors.review_history(case=version.case),
            "steps": [] if decided else _steps(request, review),
            "may_print": review.moderator_id == request.user.pk and not decided,
            "threads": page_threads,
            "comment_form": ReviewCommentForm(version=version),
            # While the review goes on, the page is one form: see _comment_thread.html.
            "review_form": "review-form" if version.status == VersionStatus.IN_REVIEW else "",
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
        if success:
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
        """Publishing is asked twice: the review page's button (or any request without
        `confirm=yes`) draws a page that says what approving does, whose own form
        publishes. No script is needed."""
        review = self._review(request, pk)
        version = review.version
        try:
            services.check_case_approve(version=version, user=request.user)
        except services.WorkflowRefused as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return self._back(review)
        if request.method == "POST" and request.POST.get("confirm") == "yes":
            return self._act(
                request,
                pk,
                lambda v, r: services.case_approve(version=v, user=r.user) and None,
                "Approved and published: players can play it now.",
            )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Approve and publish {version.title} (v{version.number})?",
            "opts": self.model._meta,
            "review": review,
            "version": version,
            "replaces": selectors.published_version_of(case=version.case),
        }
        return TemplateResponse(request, "admin/authoring/review/approve.html", context)

    def request_changes_view(self, request, pk: int):
        def request_changes(version, r):
            comments, replies = review_page_typed(r.POST, version)
            services.case_request_changes(
                version=version, user=r.user, comments=comments, replies=replies
            )
            return HttpResponseRedirect(reverse("admin:authoring_review_changelist"))

        return self._act(request, pk, request_changes, "Changes requested: the author is told.")

    def comment_view(self, request, pk: int):
        def send(version, r):
            self.message_user(r, _send_typed(version, r), messages.SUCCESS)

        if request.method == "POST" and request.headers.get(IN_PLACE_HEADER) == "1":
            # The review page's script: an answer to read out, and the page stays.
            review = self._review(request, pk)
            try:
                told = _send_typed(review.version, request)
            except services.WorkflowRefused as refused:
                return JsonResponse({"done": False, "message": str(refused)}, status=400)
            return JsonResponse({"done": True, "message": told})
        return self._act(request, pk, send, "")

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

    def print_view(self, request, pk: int):
        """The claiming moderator's print-and-play PDF of the version they review."""
        review = self._review(request, pk)
        if review.moderator_id != request.user.pk or review.version.status in selectors.DECIDED:
            raise PermissionDenied("Only the moderator reviewing this case prints it here.")
        version = review.version
        response = HttpResponse(
            write_pdf(review_print_html(review=review, user=request.user)),
            content_type="application/pdf",
        )
        response["Content-Disposition"] = (
            f'inline; filename="{version.case.slug}-v{version.number}-review.pdf"'
        )
        response["Cache-Control"] = "private, no-store"
        return response


def _send_typed(version, request) -> str:
    """Every comment and reply typed on the review page, sent; what to tell the moderator."""
    comments, replies = review_page_typed(request.POST, version)
    created, sent_replies = services.review_page_send(
        version=version, user=request.user, comments=comments, replies=replies
    )
    sent = []
    if created:
        sent.append("Comment" if len(created) == 1 else f"{len(created)} comments")
    if sent_replies:
        count = len(sent_replies)
        sent.append(f"{count} repl{'y' if count == 1 else 'ies'}")
    return f"{' and '.join(sent).capitalize()} added: the author is told."


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
        if name == "reveal" and review.revealed_at and review.moderator_id == request.user.pk:
            continue
        try:
            check(review.version, request.user)
        except services.WorkflowRefused:
            continue
        steps.append(
            {"label": label, "url": reverse(f"admin:authoring_review_{name}", args=[review.pk])}
        )
    return steps
