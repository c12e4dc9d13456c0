"""Print-and-play: a case version as a PDF for a group around a real table.

The PDF is made from HTML and CSS by WeasyPrint (templates in `cases/templates/cases/print/`):
the booklet, the location cards nine to a page with their texts on the following page for
printing on both sides, an answer sheet, and the solution last, behind a cover that asks
the reader to stop. Who may have which version is `version_may_print`'s decision; whether
the solution is included is the caller's (a blind review must not get it, nor someone who
plays the case at a table: play's print view asks).
"""

import hashlib
import re
from dataclasses import dataclass

from django.core.cache import cache
from django.template.loader import render_to_string

from .models import CaseVersion, Icon, Location, VersionStatus
from .selectors import latest_version_for_slug, published_versions

# Cards on a sheet: three rows of three poker-sized cards (63 x 88 mm) fit A4 and Letter.
CARDS_PER_SHEET = 9
CARDS_PER_ROW = 3
# Card backs longer than these get a smaller type so that they stay on their card (the
# sample cases' longest texts are about 1,000 characters; a test prints 1,500).
LONG_CARD_TEXT = 700
VERY_LONG_CARD_TEXT = 1300
# A heading such as "## The answers" in the author's solution: it gives the answers itself,
# so the printout does not add the answer key after it (they would print twice).
ANSWERS_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(?:the\s+)?answers\s*#*\s*$", re.I | re.M)


@dataclass(frozen=True)
class Sheet:
    """One printed sheet of cards: the fronts in reading order, then the backs laid out
    so that each lands behind its front when the sheet is turned over its long edge."""

    fronts: list
    backs: list


# A version a moderator reviews: until it is published its solution and its author's name
# are for its author alone (the review page prints the moderator's copy).
UNDER_REVIEW = (VersionStatus.SUBMITTED, VersionStatus.IN_REVIEW, VersionStatus.CHANGES_REQUESTED)


def version_may_print(version: CaseVersion, user) -> bool:
    """A published version is anyone's to print (the site asks them to log in first);
    any other only its author's (or a superuser's, but for a version under review).
    Moderators read versions under review on the review page, not here: a blind review
    must not reach the solution through a PDF."""
    if version.status == VersionStatus.PUBLISHED:
        return True
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if version.case.author_id == user.pk:
        return True
    return user.is_superuser and version.status not in UNDER_REVIEW


def printable_version(slug: str, *, user, number: int | None) -> CaseVersion | None:
    """The version to print: version `number`, or else the published one, or else (for
    its author) the newest; None when this user may not print it."""
    if number is None:
        version = published_versions().filter(case__slug=slug).first()
        version = version or latest_version_for_slug(slug)
    else:
        version = latest_version_for_slug(slug, number=number)
    if version is None or not version_may_print(version, user):
        return None
    return version


# Published versions never change: their PDF is made once a day at most per process or cache.
PRINTED_PDF_SECONDS = 24 * 3600


def printed_pdf(
    version: CaseVersion, *, with_solution: bool = True, closing_note: str = ""
) -> bytes:
    """`case_pdf`, kept in the cache for a published version (a copy for each way of
    printing it)."""
    if version.status != VersionStatus.PUBLISHED:
        return case_pdf(version=version, with_solution=with_solution, closing_note=closing_note)
    way = hashlib.sha256(f"{with_solution}:{closing_note}".encode()).hexdigest()[:16]
    key = f"cases:print:{version.pk}:{way}"
    pdf = cache.get(key)
    if pdf is None:
        pdf = case_pdf(version=version, with_solution=with_solution, closing_note=closing_note)
        cache.set(key, pdf, PRINTED_PDF_SECONDS)
    return pdf


def case_pdf(*, version: CaseVersion, with_solution: bool = True, closing_note: str = "") -> bytes:
    """The whole print-and-play PDF of a version. `closing_note`: a sentence its last page
    ends with (why the solution is left out, say)."""
    html = case_print_html(version=version, with_solution=with_solution, closing_note=closing_note)
    return write_pdf(html)


def case_print_html(
    *, version: CaseVersion, with_solution: bool = True, closing_note: str = ""
) -> str:
    locations = list(version.locations.select_related("zone").order_by("number"))
    author = version.case.author
    context = {
        "version": version,
        # The PDF's metadata names the author of a published case only: a version under
        # review may reach a moderator, whose review is blind.
        "author_name": (
            (author.public_name if author else "")
            if version.status in (VersionStatus.PUBLISHED, VersionStatus.ARCHIVED)
            else "the author"
        ),
        "questions": list(version.questions.order_by("position")),
        "sheets": card_sheets(locations),
        "card_count": len(locations),
        "with_solution": with_solution,
        "answer_key": not solution_gives_answers(version.solution),
        "closing_note": closing_note,
    }
    return render_to_string("cases/print/case.html", context)


def solution_gives_answers(solution: str) -> bool:
    return bool(ANSWERS_HEADING.search(solution or ""))


def card_sheets(locations: list[Location]) -> list[Sheet]:
    """The cards in sheets of nine; each sheet's backs with every row reversed, as a
    printer turning the page over its long edge needs them."""
    cards = [_card(location) for location in locations]
    sheets = []
    for start in range(0, len(cards), CARDS_PER_SHEET):
        fronts = cards[start : start + CARDS_PER_SHEET]
        padded = fronts + [None] * (-len(fronts) % CARDS_PER_ROW)
        rows = [padded[i : i + CARDS_PER_ROW] for i in range(0, len(padded), CARDS_PER_ROW)]
        backs = [card for row in rows for card in reversed(row)]
        sheets.append(Sheet(fronts=padded, backs=backs))
    return sheets


def _card(location: Location) -> dict:
    return {
        "number": location.number,
        "name": location.name,
        "zone": location.zone.name if location.zone else "",
        "text": location.text,
        "length": _length_class(location.text),
        "icons": [
            {
                "key": key,
                "label": label,
                "extra": f"+{location.icon_carriages}" if key == Icon.CARRIAGES else "",
            }
            for key, label in location.icon_labels
        ],
    }


def _length_class(text: str) -> str:
    if len(text) > VERY_LONG_CARD_TEXT:
        return "is-very-long"
    return "is-long" if len(text) > LONG_CARD_TEXT else ""


def write_pdf(html: str) -> bytes:
    # Imported here: WeasyPrint loads Pango when imported, and only printing needs it.
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    class FetchNothing(URLFetcher):
        # Everything the PDF needs is inline (styles, pictograms). An author's Markdown
        # image must not make the server fetch a URL, inside its network or out of it;
        # WeasyPrint leaves out what it could not fetch.
        def fetch(self, url, headers=None):
            raise ValueError(f"The printed case fetches nothing ({url}).")

    return HTML(string=html, url_fetcher=FetchNothing()).write_pdf()
