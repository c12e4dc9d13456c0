"""What a probe of the pages sent that answered 500 (on PostgreSQL, DEBUG off): a code
with a slash, a NUL in an invite's path, numbers Python's int() refuses, a move or a note
sheet nested a thousand deep, and marks JSON allows but the database does not. Each is now
refused with a sentence, by the site's one guard (holmes_site/safe_input.py) where it
comes in, and nothing is written."""

import json
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from play import services
from play.models import Notebook, Table

from .helpers import act

pytestmark = pytest.mark.django_db

NUMBER_NOT_READ = (
    "The field param-{name} is not a whole number this site reads: write it with the digits "
    "0 to 9 (at most 18), after a minus sign if it is negative."
)


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def duel(alice, bob) -> Table:
    """An Elementary deck table: alice (seat 0, on turn) against bob."""
    table = services.table_create(
        host=alice, game="holmes_elementary", options={"first_player": "0", "max_rounds": 12}
    )
    Table.objects.filter(pk=table.pk).update(seed=221)
    services.table_join(invite_code=table.invite_code, user=bob)
    return services.table_start(table_id=table.pk, user=alice)


@pytest.fixture
def i_say(alice, bob, charlie) -> Table:
    table = services.table_create(
        host=alice, game="i_say_holmes", options={"max_cases": 2, "window_seconds": 30}
    )
    Table.objects.filter(pk=table.pk).update(seed=221)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_join(invite_code=table.invite_code, user=charlie)
    return services.table_start(table_id=table.pk, user=alice)


def unchanged(table: Table) -> bool:
    version = table.version
    table.refresh_from_db()
    return table.version == version


# --- E1, E2: invite codes and addresses -------------------------------------------------------


@pytest.mark.parametrize("typed", ["a/b", "HK7/4QM", "/", "HK7?4QM"])
def test_it_answers_a_code_no_address_can_hold_with_400_and_a_sentence(bob, typed):
    page = logged_in(bob).get(reverse("play:join-by-code"), {"code": typed})

    assert page.status_code == 400
    assert "opens no table." in page.text
    assert "Codes are six letters and digits, like HK7-4QM." in page.text


def test_it_answers_an_invite_path_holding_nul_with_404(bob, lobby):
    page = logged_in(bob).get("/join/%00/")

    assert page.status_code == 404
    assert "No table has this code" in page.text


@pytest.mark.parametrize("name", ["accounts:login", "accounts:signup", "accounts:password_reset"])
def test_the_account_pages_leave_out_a_next_holding_nul(lobby, name):
    target = f"/join/{lobby.invite_code}%00/"
    page = Client().get(f"{reverse(name)}?next={quote(target, safe='/%')}")

    assert page.status_code == 200
    assert "\x00" not in page.text
    assert "invites you" not in page.text  # no invite is named for it


# --- E3: numbers in a page's move ---------------------------------------------------------------


@pytest.mark.parametrize("rank", ["²", "①", "１", "--5", "+5", "-+5", "1" * 19])
def test_it_refuses_a_number_int_cannot_read_in_an_elementary_guess(duel, alice, rank):
    response = act(
        logged_in(alice), duel, {"type": "guess"}, **{"param-suit": "C", "param-rank": rank}
    )

    assert response.status_code == 400
    assert NUMBER_NOT_READ.format(name="rank") in response.text
    assert unchanged(duel)


def test_it_refuses_a_field_of_4301_digits_in_a_move(duel, alice):
    digits = "1" * 4301  # beyond Python's limit on converting text to int
    response = act(
        logged_in(alice), duel, {"type": "guess"}, **{"param-suit": "C", "param-rank": digits}
    )

    assert response.status_code == 400
    assert "A field of this move holds at most 2,000 characters." in response.text
    assert unchanged(duel)


@pytest.mark.parametrize("value", ["²", "①", "--5", "9" * 40])
def test_it_refuses_a_number_int_cannot_read_in_an_i_say_holmes_move(i_say, alice, value):
    action = {"type": "play"}
    response = act(logged_in(alice), i_say, action, **{"param-x": value})

    assert response.status_code == 400
    assert NUMBER_NOT_READ.format(name="x") in response.text
    assert unchanged(i_say)


def test_a_whole_number_and_plain_text_still_reach_the_rules(duel, alice):
    client = logged_in(alice)

    words = act(client, duel, {"type": "guess"}, **{"param-suit": "C", "param-rank": "eleven"})
    number = act(client, duel, {"type": "guess"}, **{"param-suit": "C", "param-rank": "11"})

    assert words.status_code == number.status_code == 200
    assert "A rank is a whole number from 1 to 10." in number.text
    assert unchanged(duel)


def test_it_refuses_a_nul_in_a_field_of_a_move(duel, alice):
    response = act(
        logged_in(alice), duel, {"type": "guess"}, **{"param-suit": "C\x00", "param-rank": "3"}
    )

    assert response.status_code == 400
    assert "A field of this move holds the NUL character." in response.text
    assert unchanged(duel)


# --- E4: a move nested deep ----------------------------------------------------------------------


@pytest.mark.parametrize("depth", [40, 985])
def test_it_refuses_a_move_nested_deep(duel, alice, depth):
    action = '{"type": "guess", "x": ' + "[" * depth + "]" * depth + "}"
    client = logged_in(alice)
    data = {"action": action, "expected_version": duel.version}

    response = client.post(reverse("play:table-act", args=[duel.pk]), data, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert "The move nests lists and objects deeper than 32 levels." in response.text
    assert unchanged(duel)


@pytest.mark.parametrize(
    "action, sentence",
    [
        (
            '{"type": "guess", "rank": NaN}',
            "The move holds NaN, which is not a number JSON allows.",
        ),
        ('{"type": "guess", "rank": 1e999}', "The move holds a number that is not finite"),
        ('{"type": "guess", "suit": "\\ud800"}', "The move holds half of a character"),
        ('{"type": "guess", "rank": ' + "9" * 30 + "}", "The move holds a whole number beyond 64"),
    ],
)
def test_it_refuses_a_move_holding_what_json_or_the_database_cannot(duel, alice, action, sentence):
    data = {"action": action, "expected_version": duel.version}
    response = logged_in(alice).post(reverse("play:table-act", args=[duel.pk]), data)

    assert response.status_code == 400 and sentence in response.text
    assert unchanged(duel)


@pytest.mark.parametrize(
    "data, sentence",
    [
        ({"expected_version": "3"}, "This move could not be read: it names no action."),
        (
            {"action": '{"type": "guess"}', "expected_version": "²"},
            "The move&#x27;s version is not a whole number.",
        ),
    ],
)
def test_a_move_form_missing_or_mistyping_its_own_fields_is_told_in_a_sentence(
    duel, alice, data, sentence
):
    response = logged_in(alice).post(reverse("play:table-act", args=[duel.pk]), data)

    assert response.status_code == 400 and sentence in response.text
    assert unchanged(duel)


# --- E5, E6: the note sheet's marks -----------------------------------------------------------


def save_marks(client: Client, table: Table, marks: str):
    url = reverse("play:table-notebook", args=[table.pk])
    return client.post(url, {"marks": marks}, headers={"Accept": "application/json"})


@pytest.mark.parametrize("depth", [40, 995, 5000])
def test_it_refuses_marks_nested_deep(duel, alice, depth):
    marks = '{"grid": ' + "[" * depth + "]" * depth + "}"

    response = save_marks(logged_in(alice), duel, marks)

    assert response.status_code == 409
    assert response.json() == {
        "saved": False,
        "error": "The note sheet nests lists and objects deeper than 32 levels.",
    }
    assert not Notebook.objects.filter(seat__table=duel).exclude(marks={}).exists()


@pytest.mark.parametrize(
    "marks, sentence",
    [
        ('{"C": {"3": NaN}}', "The note sheet holds NaN, which is not a number JSON allows."),
        (
            '{"C": {"3": Infinity}}',
            "The note sheet holds Infinity, which is not a number JSON allows.",
        ),
        (
            '{"C": {"3": 1e999}}',
            "The note sheet holds a number that is not finite (NaN or Infinity).",
        ),
        ('{"C": {"3": "\\ud800"}}', "The note sheet holds half of a character (a lone surrogate)."),
        ('{"\\udc00": "no"}', "The note sheet holds half of a character (a lone surrogate)."),
        ('{"C": "a\\u0000b"}', "The note sheet holds the NUL character."),
        ('{"C": ' + "9" * 5000 + "}", "The note sheet holds a whole number beyond 64 bits."),
    ],
)
def test_it_refuses_marks_the_database_cannot_keep(duel, alice, marks, sentence):
    client = logged_in(alice)
    assert save_marks(client, duel, '{"C": {"3": "no"}}').json() == {"saved": True}

    response = save_marks(client, duel, marks)

    assert response.status_code == 409
    assert response.json() == {"saved": False, "error": sentence}
    assert Notebook.objects.get(seat__table=duel, seat__number=0).marks == {"C": {"3": "no"}}


def test_marks_json_allows_are_still_kept(duel, alice):
    marks = {"C": {"3": "no", "4": 1.5, "5": -(2**63) + 1, "6": None, "7": [True, "é"]}}

    response = save_marks(logged_in(alice), duel, json.dumps(marks))

    assert response.json() == {"saved": True}
    assert Notebook.objects.get(seat__table=duel, seat__number=0).marks == marks
