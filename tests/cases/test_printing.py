"""Print-and-play (cases/printing.py): the PDF's pages and text, read back with poppler's
pdftotext, and who may have which version. The pages are also rendered to PNG into
test-artifacts/ to be looked at."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from cases.models import Icon, VersionStatus, Zone
from cases.printing import card_sheets, case_pdf
from tests.conftest import require_service
from tests.factories import CaseVersionFactory, LocationFactory, QuestionFactory

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "print"
FORM_FEED = "\f"  # pdftotext ends each page with one


def _poppler() -> None:
    missing = [tool for tool in ("pdftotext", "pdftoppm") if shutil.which(tool) is None]
    require_service("poppler-utils", f"no {', '.join(missing)}" if missing else None)


def pages_of(pdf: bytes, tmp_path: Path) -> list[str]:
    path = tmp_path / "case.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True, text=True
    ).stdout
    return text.split(FORM_FEED)[:-1]


@pytest.fixture
def lamplighter(db, alice):
    version = CaseVersionFactory(
        case__author=alice,
        title="The Sleeping Lamplighter",
        special_rules="Fog: no carriage may cross the river in round one.",
    )
    QuestionFactory(version=version, ask="Who drugged the lamplighter?")
    QuestionFactory(version=version, ask="Where was the laudanum bought?", kind="place",
                    answer="ANSWER-SECRET Gaunt's pharmacy")  # fmt: skip
    docks = Zone.objects.create(version=version, key="docks", name="The Docks", position=1)
    icons = [[Icon.POLICE], [Icon.LOCKED, Icon.CARRIAGES], [Icon.NO_WATSON, Icon.CALL_OFF]]
    for number in range(1, 11):
        LocationFactory(
            version=version,
            number=number,
            name=f"Lamp post {number}",
            text=f"Card {number} says: the oil smells of laudanum.",
            icons=icons[number % 3],
            zone=docks if number == 10 else None,
        )
    return version


def test_it_lays_nine_cards_a_sheet_with_each_back_behind_its_front(lamplighter):
    locations = list(lamplighter.locations.order_by("number"))
    first, second = card_sheets(locations)
    assert [card["number"] for card in first.fronts] == list(range(1, 10))
    # Turned over the long edge, a row's left card is on the back's right.
    assert [card["number"] for card in first.backs] == [3, 2, 1, 6, 5, 4, 9, 8, 7]
    assert [card and card["number"] for card in second.fronts] == [10, None, None]
    assert [card and card["number"] for card in second.backs] == [None, None, 10]


def test_it_prints_booklet_cards_answer_sheet_and_the_sealed_solution_last(lamplighter, tmp_path):
    _poppler()
    pages = pages_of(case_pdf(version=lamplighter), tmp_path)
    # The one-page booklet is followed by a blank page: card fronts start on odd pages.
    booklet, blank, fronts, backs, fronts_2, backs_2, answers, cover, solution = pages

    assert blank.strip() == "Left blank: each sheet of cards starts on a front page."

    assert "The Sleeping Lamplighter" in booklet
    assert "A lamplighter is found asleep" in booklet
    assert "no carriage may cross the river" in booklet
    assert booklet.index("Who drugged") < booklet.index("Where was the laudanum")
    for number in range(1, 10):
        assert f"Lamp post {number}" in fronts
        assert f"Card {number} says" in backs
    assert "Police" in fronts and "Locked" in fronts and "Carriages +2" in fronts
    assert "No Watson" in fronts and "Call-off" in fronts
    assert "Lamp post 10" in fronts_2 and "THE DOCKS" in fronts_2
    assert "Card 10 says" in backs_2
    assert "Answer sheet" in answers and "Where was the laudanum" in answers
    assert "do not read" in cover and "STOP" in cover
    assert "SOLUTION-SECRET" in solution and "ANSWER-SECRET Gaunt's pharmacy" in solution
    assert "Answer key" in solution  # not a second "The answers" after an author's own
    before_the_cover = "".join(pages[:-2])
    for secret in ("SOLUTION-SECRET", "ANSWER-SECRET"):
        assert secret not in before_the_cover
    # A card's text is only ever on its back, never beside its name on the front.
    assert "says" not in fronts + fronts_2


@pytest.mark.parametrize("booklet_pages", [1, 2, 3])
def test_printed_double_sided_every_card_text_lands_on_its_cards_back(
    lamplighter, tmp_path, booklet_pages
):
    _poppler()
    lamplighter.introduction = "The fog came down at four. " * 180 * (booklet_pages - 1)
    lamplighter.save()
    pages = pages_of(case_pdf(version=lamplighter), tmp_path)

    fronts = [n for n, page in enumerate(pages, 1) if "Lamp post" in page and "says" not in page]
    backs = [
        n for n, page in enumerate(pages, 1) if "Card 1 says" in page or "Card 10 says" in page
    ]
    assert len(fronts) == len(backs) == 2
    assert all(number % 2 == 1 for number in fronts)  # a sheet's front is a page's recto
    assert backs == [number + 1 for number in fronts]  # and its texts are that sheet's verso


def test_it_prints_the_answers_once_when_the_solution_gives_them(lamplighter, tmp_path):
    _poppler()
    lamplighter.solution = "Walter Finch did it.\n\n## The answers\n- **Who?** Walter Finch."
    lamplighter.save()
    solution = pages_of(case_pdf(version=lamplighter), tmp_path)[-1]

    assert "The answers" in solution and "Answer key" not in solution
    assert "ANSWER-SECRET" not in solution


def test_it_prints_a_card_reference_as_card_and_its_number(lamplighter, tmp_path):
    _poppler()
    card = lamplighter.locations.get(number=2)
    card.text = "The trail leads on to [[7]]."
    card.save()
    pages = pages_of(case_pdf(version=lamplighter), tmp_path)

    assert "The trail leads on to card 7." in pages[3]


def test_its_pages_render_as_images_to_look_at(lamplighter, tmp_path):
    _poppler()
    path = tmp_path / "case.pdf"
    path.write_bytes(case_pdf(version=lamplighter))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("lamplighter-*.png"):
        old.unlink()
    subprocess.run(
        ["pdftoppm", "-png", "-r", "90", str(path), str(ARTIFACTS / "lamplighter")], check=True
    )
    images = sorted(ARTIFACTS.glob("lamplighter-*.png"))
    assert len(images) == 9
    blank = images.pop(1)  # after the one-page booklet: the card fronts start on page 3
    assert all(image.stat().st_size > 5_000 for image in images)
    assert blank.stat().st_size < min(image.stat().st_size for image in images)


def test_it_can_leave_the_solution_out(lamplighter, tmp_path):
    _poppler()
    pages = pages_of(case_pdf(version=lamplighter, with_solution=False), tmp_path)
    assert len(pages) == 7  # booklet, a blank page, two sheets front and back, answers
    assert "SOLUTION-SECRET" not in "".join(pages)
    assert "ANSWER-SECRET" not in "".join(pages)


# --- Who may print what ----------------------------------------------------------------


def _print_url(case_version, **query) -> str:
    url = reverse("play:case-print", args=[case_version.case.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_anyone_logged_in_may_print_a_published_case(client, lamplighter, bob):
    response = client.get(_print_url(lamplighter))
    assert response.status_code == 302  # to the log-in page
    client.force_login(bob)
    response = client.get(_print_url(lamplighter))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    assert lamplighter.case.slug in response["Content-Disposition"]


def test_alice_prints_her_own_draft_and_nobody_else_can(client, alice, bob, lamplighter):
    draft = CaseVersionFactory(
        case=lamplighter.case, number=2, status=VersionStatus.DRAFT, title="DRAFT-TITLE"
    )
    client.force_login(bob)
    assert client.get(_print_url(draft, version=2)).status_code == 404
    client.logout()
    assert client.get(_print_url(draft, version=2)).status_code == 302  # to the log-in page
    client.force_login(alice)
    response = client.get(_print_url(draft, version=2))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


def test_a_case_never_published_is_its_authors_alone(client, alice, bob):
    draft = CaseVersionFactory(case__author=alice, status=VersionStatus.DRAFT)
    client.force_login(bob)
    assert client.get(_print_url(draft)).status_code == 404
    client.force_login(alice)
    assert client.get(_print_url(draft)).status_code == 200


def test_a_moderator_reviewing_blind_gets_no_pdf_of_the_version(client, alice, make_user):
    from django.contrib.auth.models import Group

    from authoring.models import MODERATORS_GROUP

    moderator = make_user("mo")
    moderator.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    submitted = CaseVersionFactory(case__author=alice, status=VersionStatus.IN_REVIEW)
    client.force_login(moderator)
    response = client.get(_print_url(submitted, version=1))
    assert response.status_code == 404
    assert b"SOLUTION-SECRET" not in response.content


def test_a_bad_version_number_is_a_400_with_a_sentence(client, lamplighter, bob):
    client.force_login(bob)
    for bad in ("two", "-1", "0", "1" * 12):
        response = client.get(_print_url(lamplighter, version=bad))
        assert response.status_code == 400
        assert b"whole number" in response.content
    assert client.get(_print_url(lamplighter, version=7)).status_code == 404


# --- The command -------------------------------------------------------------------------


def test_print_case_writes_the_pdf(lamplighter, tmp_path):
    _poppler()
    out = tmp_path / "case.pdf"
    call_command("print_case", lamplighter.case.slug, str(out))
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    assert "The Sleeping Lamplighter" in text and "SOLUTION-SECRET" in text
    call_command("print_case", lamplighter.case.slug, str(out), "--no-solution")
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    assert "The Sleeping Lamplighter" in text and "SOLUTION-SECRET" not in text


def test_print_case_says_which_case_is_missing(db, tmp_path):
    with pytest.raises(CommandError, match="there is no case nowhere"):
        call_command("print_case", "nowhere", str(tmp_path / "x.pdf"))


def test_the_longest_card_texts_of_the_sample_cases_fit_on_their_cards(db, tmp_path):
    """The longest texts of a sample case print whole, down to their last words."""
    _poppler()
    from cases.package.reader import read_package_path
    from cases.services import case_import_package

    folder = Path(__file__).resolve().parents[2] / "fixtures" / "cases" / "the-night-angler"
    version = case_import_package(files=read_package_path(folder), publish=True).version
    text = " ".join("".join(pages_of(case_pdf(version=version), tmp_path)).split())
    longest = sorted(version.locations.all(), key=lambda card: len(card.text))[-3:]
    for card in longest:
        last_words = re.sub(r"[*_`\[\]]", "", card.text).split()[-4:]
        assert " ".join(last_words) in text, (card.number, last_words)


def test_a_very_long_card_text_still_fits_on_its_card(lamplighter, tmp_path):
    _poppler()
    sentence = "The lamp oil was bought at Gaunt's on the Strand by a man in a grey coat. "
    card = lamplighter.locations.get(number=4)
    card.text = sentence * 20 + "Lastly, the end of the card."  # about 1,500 characters
    card.save()
    path = tmp_path / "case.pdf"
    path.write_bytes(case_pdf(version=lamplighter))
    backs = subprocess.run(
        ["pdftotext", "-bbox", "-f", "4", "-l", "4", str(path), "-"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    words = re.findall(r'yMax="([0-9.]+)">([^<]*)</word>', backs)
    last_line = max(float(y) for y, word in words if word == "Lastly,")
    # Card 4's back is in the second row: 10 mm of margin and one 88 mm card above it.
    row_bottom = (10 + 2 * 88) * 72 / 25.4
    assert last_line < row_bottom
