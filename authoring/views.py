"""The forms of comment threads (reply, resolve, reopen) and the author's play-test button.

The editor's pages are the admin's; these endpoints sit beside it so that the editor's
own code stays as it is. Each is POST-only, finds its row among those the user may see
(404 otherwise), lets the workflow service decide (a refusal is shown as its sentence),
and goes back to `next` when it is a URL of this site.
"""

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from . import selectors, services
from .forms import ReviewCommentForm, review_page_typed
from .models import ReviewComment


def _next(request, fallback: str) -> HttpResponseRedirect:
    """Back to the page the form was on: `next` when it is local, else `fallback`."""
    url = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        url = fallback
    return HttpResponseRedirect(url)


def _comment(request, pk: int) -> ReviewComment:
    """A comment on a version the user may see in the editor, or 404."""
    visible = selectors.versions_for_user(user=request.user)
    return get_object_or_404(
        ReviewComment.objects.select_related("version__case").filter(version__in=visible), pk=pk
    )


# The editor's script sends a thread's form in the background with this header, so that
# the writer never leaves a page holding unsaved text (authoring/static/authoring/editor.js).
IN_PLACE_HEADER = "X-Holmes-In-Place"


def _on_comment(request, pk: int, do, success: str):
    comment = _comment(request, pk)
    in_place = request.headers.get(IN_PLACE_HEADER) == "1"
    try:
        # On the review page, Resolve and Reopen belong to the page's one form (the only
        # one with a "target"): what was typed in its boxes is sent first, never dropped.
        typed, replies = review_page_typed(request.POST, comment.version)
        if "target" in request.POST and any(box.text.strip() for box in (*typed, *replies)):
            services.review_page_send(
                version=comment.version, user=request.user, comments=typed, replies=replies
            )
        do(comment)
    except services.WorkflowRefused as refused:
        if in_place:
            return JsonResponse({"done": False, "message": str(refused)}, status=400)
        messages.error(request, str(refused))
    else:
        if in_place:
            return JsonResponse({"done": True, "message": success})
        messages.success(request, success)
    return _next(request, reverse("admin:cases_caseversion_change", args=[comment.version_id]))


@staff_member_required
@require_POST
def comment_reply(request, pk: int):
    return _on_comment(
        request,
        pk,
        lambda comment: services.review_comment_reply(
            comment=comment, user=request.user, text=request.POST.get("text", "")
        ),
        "Your reply is added to the thread.",
    )


@staff_member_required
@require_POST
def comment_resolve(request, pk: int):
    return _on_comment(
        request,
        pk,
        lambda comment: services.review_comment_resolve(comment=comment, user=request.user),
        "The comment is marked resolved.",
    )


@staff_member_required
@require_POST
def comment_reopen(request, pk: int):
    return _on_comment(
        request,
        pk,
        lambda comment: services.review_comment_reopen(comment=comment, user=request.user),
        "The comment is open again.",
    )


@staff_member_required
@require_POST
def comment_add(request, pk: int):
    """The deciding moderator's comment on one card or question, from the box under it in
    the editor (`target` names the row as the review page's form does)."""
    version = get_object_or_404(selectors.versions_for_user(user=request.user), pk=pk)
    in_place = request.headers.get(IN_PLACE_HEADER) == "1"
    form = ReviewCommentForm(request.POST, version=version)
    try:
        if not form.is_valid() or not request.POST.get("target"):
            raise services.WorkflowRefused(
                "That card or question is no longer in this version; reload the page.",
                "bad_target",
            )
        question_id, location_id = form.target_ids()
        comment = services.CommentInput(form.cleaned_data["text"], question_id, location_id)
        services.case_comment_add(version=version, user=request.user, comment=comment)
    except services.WorkflowRefused as refused:
        if in_place:
            return JsonResponse({"done": False, "message": str(refused)}, status=400)
        messages.error(request, str(refused))
    else:
        success = "Your comment is added: the author is told."
        if in_place:
            return JsonResponse({"done": True, "message": success})
        messages.success(request, success)
    return _next(request, reverse("admin:cases_caseversion_change", args=[version.pk]))


@staff_member_required
@require_POST
def playtest(request, pk: int):
    """The author's "Play-test it myself": a private solo table on their draft."""
    version = get_object_or_404(selectors.versions_for_user(user=request.user), pk=pk)
    try:
        test = services.case_playtest_start(version=version, user=request.user)
    except services.WorkflowRefused as refused:
        messages.error(request, str(refused))
        return _next(request, reverse("admin:cases_caseversion_change", args=[version.pk]))
    messages.success(request, "Your private play-test table: nobody else can join it or see it.")
    return HttpResponseRedirect(reverse("play:table", args=[test.table_id]))
