"""The case map (issue 38, point 2): the graph of a case's shape, its marks (judged as the
linter judges), a 40-card case that stays a tidy block, and the map on the editor and the
review page, where it stays blind until the moderator reveals the solution."""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from authoring import services
from authoring.case_map import (
    MAX_COLUMNS,
    NODE_HEIGHT,
    NODE_WIDTH,
    SOLUTION,
    case_map,
    references,
)
from cases.lint import lint_case
from cases.package.data import CaseData, LocationData, QuestionData, ZoneData
from cases.package.reader import read_package_path
from cases.services import case_import_package

MEASURER = Path(__file__).resolve().parents[2] / "fixtures" / "cases"


def card(number: int, text: str = "", icons=(), zone: str = "", name: str = "") -> LocationData:
    return LocationData(
        filename=f"{number:02}.md",
        number=number,
        name=name or f"Place {number}",
        text=text,
        icons=tuple(icons),
        zone=zone,
    )


def question(key: str, evidence, ask: str = "Who?") -> QuestionData:
    return QuestionData(key=key, ask=ask, kind="text", answer="x", evidence=tuple(evidence))


def small_case(**changes) -> CaseData:
    """Four cards: 1 points to 2, 2 to 3; 4 is a lockpick; the solution cites 1 and 2."""
    fields = dict(
        slug="small",
        title="Small",
        introduction="Start at [[1]].",
        solution="The clock [[1]] and the ledger [[2]] prove it.",
        questions=(question("who", [1, 2]), question("where", [3])),
        locations=(
            card(1, "A clock. Go to [[2]]."),
            card(2, "A ledger. See [[3]]."),
            card(3, "A cellar."),
            card(4, "A locksmith.", icons=["lockpick"]),
        ),
    )
    fields.update(changes)
    return CaseData(**fields)


def edges(result, kind: str) -> set[tuple[str, str]]:
    return {(edge.source, edge.target) for edge in result.edges if edge.kind == kind}


def marks(result) -> dict[str, list[str]]:
    return {node.id: node.marks for node in result.nodes if node.marks}


# --- The graph ---------------------------------------------------------------------------------


def test_it_draws_evidence_references_and_the_solutions_citations():
    result = case_map(small_case(), blind=False)

    assert edges(result, "evidence") == {
        ("card-1", "question-who"),
        ("card-2", "question-who"),
        ("card-3", "question-where"),
    }
    assert edges(result, "reference") == {
        ("booklet", "card-1"),
        ("card-1", "card-2"),
        ("card-2", "card-3"),
    }
    assert edges(result, "solution") == {(SOLUTION, "card-1"), (SOLUTION, "card-2")}
    assert edges(result, "lockpick") == set()  # no locked card


def test_a_reference_to_no_card_or_to_itself_draws_nothing():
    locations = (card(1, "Here [[1]], there [[9]], and [[2]] twice [[2]]."), card(2))
    result = case_map(small_case(locations=locations, questions=()), blind=False)

    assert edges(result, "reference") == {("booklet", "card-1"), ("card-1", "card-2")}
    assert references("[[ 3 ]] and [[3]] then [[12]]") == [3, 12]


def test_a_lockpick_opens_every_locked_card():
    locations = (
        card(1, icons=["lockpick"]),
        card(2, icons=["locked"]),
        card(3, icons=["locked", "police"]),
    )
    result = case_map(small_case(locations=locations), blind=False)

    assert edges(result, "lockpick") == {("card-1", "card-2"), ("card-1", "card-3")}
    assert [node.locked for node in result.cards] == [False, True, True]
    assert result.node("card-3").details == "police"  # the lock is drawn, not written


def test_it_marks_what_the_writer_should_check():
    locations = (
        card(1, "A clock. Go to [[2]]."),
        card(2, "A ledger."),
        card(3, "A cellar."),
        card(4, "A locked study.", icons=["locked"]),
        card(5, "A quiet garden."),
    )
    case = small_case(
        locations=locations,
        solution="The clock [[1]] and the ledger [[2]] prove it.",
        questions=(question("who", [1, 2, 3]), question("where", [2])),
    )
    result = case_map(case, blind=False)

    assert marks(result) == {
        "question-where": ["one_card"],
        "card-3": ["uncited"],  # evidence for "who", never cited by the solution
        "card-4": ["locked_unopened", "unreached"],
        "card-5": ["unreached"],
    }
    assert ("card-3", "question-who") in {
        (edge.source, edge.target) for edge in result.edges if edge.marked
    }
    assert result.node("card-4").mark_words == [
        "locked, and no lockpick opens it",
        "nothing refers to it",
    ]


def test_its_uncited_evidence_is_the_linters_warning():
    """One judgement, two readers: the cards the map marks are those the linter names."""
    case = small_case(questions=(question("who", [1, 2, 3]), question("where", [4])))
    warned = {
        int(found.group(1))
        for problem in lint_case(case)
        if (
            found := re.match(
                r"card (\d+) is evidence for .*the solution never cites", problem.message
            )
        )
    }
    marked = {node.number for node in case_map(case, blind=False).cards if "uncited" in node.marks}

    assert warned == marked == {3, 4}


def test_a_lockpick_behind_a_lock_opens_nothing():
    locations = (card(1, icons=["lockpick", "locked"]), card(2, icons=["locked"]))
    result = case_map(small_case(locations=locations), blind=False)

    assert edges(result, "lockpick") == {("card-1", "card-2")}  # drawn: the writer meant it
    assert "locked_unopened" in result.node("card-2").marks


def test_a_lockpick_at_the_start_opens_the_locked_cards():
    case = small_case(locations=(card(1, icons=["locked"]),), start_lockpick=1)

    assert "locked_unopened" not in case_map(case, blind=False).node("card-1").marks


def test_a_blind_map_shows_nothing_of_the_solution_or_the_evidence():
    result = case_map(small_case(), blind=True)

    assert edges(result, "evidence") == edges(result, "solution") == set()
    assert SOLUTION not in {node.id for node in result.nodes}
    assert edges(result, "reference") == {
        ("booklet", "card-1"),
        ("card-1", "card-2"),
        ("card-2", "card-3"),
    }
    # Only what the players' own texts say: no mark that evidence or solution would make.
    assert all(mark == "locked_unopened" for node in result.nodes for mark in node.marks)
    assert "reveal the solution" in result.summary()


def test_zones_make_bands_in_the_cases_order():
    zones = (ZoneData("city", "London"), ZoneData("kent", "Kent"))
    locations = (card(1, zone="kent"), card(2, zone="city"), card(3, zone="kent"))
    result = case_map(small_case(locations=locations, zones=zones, start_zone="city"), blind=False)

    assert [band.name for band in result.zones] == ["London", "Kent"]
    london, kent = result.zones
    assert result.node("card-2").y > london.y and result.node("card-1").y > kent.y > london.y
    assert result.node("card-1").zone == "Kent"


def test_forty_cards_stay_a_readable_block():
    locations = tuple(
        card(number, f"Next: [[{number % 40 + 1}]].", name=f"A rather long place name {number}")
        for number in range(1, 41)
    )
    questions = tuple(question(f"q{n}", [n, n + 10, n + 20]) for n in range(1, 6))
    solution = " ".join(f"Fact [[{n}]]." for n in range(1, 41))
    result = case_map(small_case(locations=locations, questions=questions, solution=solution),
                      blind=False)  # fmt: skip

    cards = result.cards
    assert len(cards) == 40
    assert len({node.x for node in cards}) == MAX_COLUMNS  # six columns, seven rows
    assert len({node.y for node in cards}) == 7
    assert result.width <= 1200 and result.height < 1200
    boxes = [(node.x, node.y) for node in result.nodes]
    assert len(set(boxes)) == len(boxes)  # no two boxes on one spot
    for node in result.nodes:  # nor overlapping
        for other in result.nodes:
            if other is not node:
                apart_x = abs(node.x - other.x) >= NODE_WIDTH
                apart_y = abs(node.y - other.y) >= NODE_HEIGHT
                assert apart_x or apart_y
    assert all(len(node.label) <= 19 for node in cards)  # long names are cut, whole in title
    assert cards[0].title == "Card 1: A rather long place name 1"
    assert all(edge.path.startswith("M") for edge in result.edges)


def test_the_map_in_words_says_every_arrow():
    words = dict((node.id, text) for node, text in case_map(small_case(), blind=False).in_words())

    assert (
        words["card-1"]
        == "proves question 1; refers to card 2; reached from the booklet, the solution"
    )
    assert words["card-4"] == ""


# --- The pages ---------------------------------------------------------------------------------


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def picture(page: str) -> str:
    found = re.search(r'<svg class="case-map-picture[^"]*".*?</svg>', page, re.S)
    assert found, "no case map on the page"
    return found.group()


@pytest.fixture
def measurer(alice):
    package = read_package_path(MEASURER / "the-measurer-of-hollow-lane")
    return case_import_package(files=package, author=alice).version


@pytest.mark.django_db
def test_the_editor_draws_the_map_with_links_to_each_card(measurer, alice):
    url = reverse("admin:cases_caseversion_change", args=[measurer.pk])
    page = client_for(alice).get(url).content.decode()
    svg = picture(page)

    assert svg.count('class="case-map-node case-map-card') == 23
    assert 'href="#locations-6"' in svg  # card 7 is the seventh row of the editor
    assert "s Study: card, locked, zone London" in svg
    assert "case-map-edge-lockpick" in svg and "case-map-edge-evidence" in svg
    assert "Zone: London" in svg and "Zone: Kent" in svg
    assert 'id="case-map-solution"' in svg


@pytest.mark.django_db
def test_the_review_page_map_is_blind_until_the_reveal(in_review, mina):
    client = client_for(mina)
    url = reverse("admin:authoring_review_change", args=[in_review.review.pk])
    blind = picture(client.get(url).content.decode())

    assert "case-map-edge-evidence" not in blind and "case-map-edge-solution" not in blind
    assert 'id="case-map-solution"' not in blind
    assert "the solution cites" not in blind
    editor = reverse("admin:cases_caseversion_change", args=[in_review.pk])
    assert f'href="{editor}#locations-0"' in blind  # a card opens in the editor

    services.case_reveal(version=in_review, user=mina)
    revealed = picture(client.get(url).content.decode())
    assert "case-map-edge-evidence" in revealed and 'id="case-map-solution"' in revealed


@pytest.mark.django_db
def test_the_moderators_blind_editor_map_shows_no_evidence(in_review, mina):
    url = reverse("admin:cases_caseversion_change", args=[in_review.pk])
    page = client_for(mina).get(url).content.decode()
    svg = picture(page)

    assert "case-map-edge-evidence" not in svg and 'id="case-map-solution"' not in svg
    assert "proves question" not in page
