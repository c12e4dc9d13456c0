"""Review comment threads as the pages draw them: the editor (the author's side) and the
review page (the moderator's side).

Each thread comes with what the viewer may do to it (the forms to draw) and the page to
come back to after a form is sent. The forms post to `authoring/views.py`; the
workflow's checks in `authoring/services.py` decide again when they arrive.
"""

from collections import defaultdict
from dataclasses import dataclass, replace

from django.utils.html import format_html

from cases.models import CaseVersion

from . import selectors, services
from .models import ReviewComment


@dataclass(frozen=True)
class Thread:
    comment: ReviewComment
    # Where the card or question the comment is about stands on the page ("": nowhere).
    anchor: str
    may_reply: bool
    may_resolve: bool
    may_reopen: bool
    # The page the thread's forms come back to (a local URL, with the thread's anchor).
    next_url: str
    # The case's author, when the viewer may not read their name (a blind review): their
    # replies and resolutions are signed "The author".
    hidden_author_id: int | None = None
    # Drawn under its card or question (the editor), rather than in the comments panel.
    beside_row: bool = False

    @property
    def replies(self):
        return self.comment.replies.all()

    def _name(self, user_id, user, default: str, hidden: str = "The author") -> str:
        if user_id is not None and user_id == self.hidden_author_id:
            return hidden
        return user.public_name if user is not None else default

    @property
    def named_replies(self) -> list[tuple]:
        """(reply, who wrote it, as the viewer may read it)"""
        return [
            (reply, self._name(reply.author_id, reply.author, "Someone")) for reply in self.replies
        ]

    @property
    def resolved_by_name(self) -> str:
        comment = self.comment
        return self._name(comment.resolved_by_id, comment.resolved_by, "someone", "the author")


def threads(
    *, version: CaseVersion, user, comments: list[ReviewComment], page_url: str, anchors=None
) -> list[Thread]:
    """`comments` (from `selectors.comment_threads`) as threads for `user`; `anchors` maps
    ("location" | "question", row id) to the anchor of that row on the page."""
    try:
        services.check_review_thread(version=version, user=user)
        party = True
    except services.WorkflowRefused:
        party = False
    anchors = anchors or {}
    hidden_author_id = (
        version.case.author_id if selectors.author_hidden(user=user, version=version) else None
    )
    result = []
    for comment in comments:
        if comment.location_id:
            anchor = anchors.get(("location", comment.location_id), "")
        elif comment.question_id:
            anchor = anchors.get(("question", comment.question_id), "")
        else:
            anchor = ""
        result.append(
            Thread(
                comment=comment,
                anchor=anchor,
                may_reply=party and not comment.is_resolved,
                may_resolve=party and not comment.is_resolved,
                may_reopen=party and comment.is_resolved,
                next_url=f"{page_url}#comment-{comment.pk}",
                hidden_author_id=hidden_author_id,
            )
        )
    return result


# The editor's field that carries a row's "open comments" note (as lint problems do).
NOTE_FIELDS = {"location": "text", "question": "ask"}


def may_start_comment(*, version: CaseVersion, user) -> bool:
    try:
        services.check_case_comment_start(version=version, user=user)
    except services.WorkflowRefused:
        return False
    return True


def row_target(kind: str, row) -> tuple[str, str]:
    """A card's or question's ("location:<id>" | "question:<id>", words naming it), as the
    comment forms send and say it."""
    if kind == "location":
        return f"location:{row.pk}", f"card {row.number}"
    return f"question:{row.pk}", f'question "{row.key}"'


# The rows' template that draws each row's threads and comment box under it
# (it includes _row_threads.html); rows drawn otherwise keep their threads in the panel.
ROWS_WITH_THREADS = "admin/cases/caseversion/card_inline.html"


def _editor_rows(context) -> dict:
    """(kind, row id) → (the row's anchor on the page, its inline form, whether the row
    draws its threads under it)."""
    rows = {}
    for inline_formset in context.get("inline_admin_formsets", []):
        formset = inline_formset.formset
        kind = formset.model._meta.model_name
        if kind not in NOTE_FIELDS:
            continue
        draws_threads = inline_formset.opts.template == ROWS_WITH_THREADS
        for index, inline_form in enumerate(formset.forms):
            if inline_form.instance.pk:
                anchor = f"{formset.prefix}-{index}"
                rows[(kind, inline_form.instance.pk)] = (anchor, inline_form, draws_threads)
    return rows


def _note_open_comments(form, kind: str, first: ReviewComment, count: int) -> None:
    """The row's text (card) or question field says "N open comments", linked to the first
    thread, which stands under the row."""
    field = form.fields.get(NOTE_FIELDS[kind])
    if field is None:  # a read-only page: the threads under the row are enough
        return
    field.help_text = format_html(
        '<a class="holmes-comment-note" href="#comment-{}">{} open comment{}</a><br>{}',
        first.pk,
        count,
        "" if count == 1 else "s",
        field.help_text,
    )


def editor_threads(*, request, context, version: CaseVersion) -> list[Thread]:
    """The open threads the author reads in the editor. Each thread on a card or question
    is drawn under that row (`form.holmes_threads`), whose text (card) or question field
    says "N open comments", linked to the first of them; the moderator deciding on the
    case gets a comment box on every row (`form.holmes_comment_target`). Nothing on a
    published or archived version."""
    rows = _editor_rows(context)
    if may_start_comment(version=version, user=request.user):
        for (kind, _), (_, form, draws_threads) in rows.items():
            if draws_threads:
                form.holmes_comment_target = row_target(kind, form.instance)
    comments = selectors.comment_threads(version=version, open_only=True)
    if not comments:
        return []
    drawn = threads(
        version=version,
        user=request.user,
        comments=comments,
        page_url=request.get_full_path(),
        anchors={key: row[0] for key, row in rows.items()},
    )
    on_row = defaultdict(list)
    for index, thread in enumerate(drawn):
        comment = thread.comment
        key = ("location", comment.location_id) if comment.location_id else None
        key = ("question", comment.question_id) if comment.question_id else key
        if key not in rows:
            continue
        if rows[key][2]:
            drawn[index] = thread = replace(thread, beside_row=True)
        on_row[key].append(thread)
    for key, row_threads in on_row.items():
        _, form, draws_threads = rows[key]
        if draws_threads:
            form.holmes_threads = row_threads
        # The folded line shows the count, and the row opens by itself.
        form.holmes_comments = len(row_threads)
        _note_open_comments(form, key[0], row_threads[0].comment, len(row_threads))
    return drawn


@dataclass(frozen=True)
class ReviewPageThreads:
    """The review page's threads, each beside what it is about."""

    case: list[Thread]  # on the case as a whole
    questions: list[tuple]  # (question, its threads), in the case's order
    cards: list[tuple]  # (card, its threads), by number

    @property
    def beside_count(self) -> int:
        """Threads drawn beside a card or a question."""
        return sum(len(row_threads) for _, row_threads in (*self.questions, *self.cards))

    @property
    def cards_have_threads(self) -> bool:
        return any(row_threads for _, row_threads in self.cards)


def review_threads(*, request, version: CaseVersion) -> ReviewPageThreads:
    """Every thread of the version, resolved ones too (marked so, with a reopen form), for
    the moderator's review page: the case's threads apart, the others beside their card
    (anchor `card-<number>`) or question (anchor `question-<id>`)."""
    questions = list(version.questions.order_by("position"))
    cards = list(version.locations.order_by("number"))
    anchors = {("question", q.pk): f"question-{q.key}" for q in questions}
    anchors |= {("location", card.pk): f"card-{card.number}" for card in cards}
    drawn = threads(
        version=version,
        user=request.user,
        comments=selectors.comment_threads(version=version),
        page_url=request.get_full_path(),
        anchors=anchors,
    )
    on_question, on_card, on_case = defaultdict(list), defaultdict(list), []
    for thread in drawn:
        if thread.comment.question_id:
            on_question[thread.comment.question_id].append(thread)
        elif thread.comment.location_id:
            on_card[thread.comment.location_id].append(thread)
        else:
            on_case.append(thread)
    return ReviewPageThreads(
        case=on_case,
        questions=[(q, on_question.get(q.pk, [])) for q in questions],
        cards=[(card, on_card.get(card.pk, [])) for card in cards],
    )
