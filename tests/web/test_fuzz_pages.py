"""Fuzzing the pages' forms (Hypothesis): whatever a browser, or a program posing as one,
posts to a table's pages, the site answers no server error. A refusal (a 4xx, or a 200
or a redirect whose page says why) is a fine answer; a 500 is not.

Every game of the registry gets a started table (people, and a computer seat where the
game has computer players) and a lobby. Its move form gets the legal actions its page
offers, spoiled or not, or junk; the fields beside them are the ones the game's forms
carry (``param-*``, answers, choices) and any others, holding text with NUL, digits
Python's int() refuses, thousands of digits, signs; one part of the form at a time is
junk, so that the others carry it to where it is read. Then its notebook (text, and
marks nested deep, with NaN, 1e999, NUL or half characters), the table's other forms
(colour, computer players, seats, pass and play, leaving, watching, the live region),
the form that opens a table of the game, and the forms that join one (by code, by the
invite's address, through the log-in pages' `next`).

Each example runs in a savepoint that is rolled back afterwards, so every example starts
from the same table: the legal actions read once stay legal, and a form that ends the
game (leave, cancel) does not end it for the examples after it. Each request runs under
Python's own recursion limit, as on a server (Hypothesis raises it). Bounded and
derandomized: the same requests on every run.
"""

from urllib.parse import quote, urlencode

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games import GAMES
from play import selectors, services
from play.models import Colour, Table
from tests.play.fuzz import (
    DEEP_ACTIONS,
    GAME_NAMES,
    JSON,
    JUNK_JSON_TEXT,
    PLAIN_JSON,
    TEXT,
    VALUES,
    actions,
    dumped,
    fuzz_settings,
    nested,
    servers_recursion_limit,
    started_table,
)

pytestmark = pytest.mark.django_db

# Per game.
MOVE_EXAMPLES = 50
BYTES_EXAMPLES = 8
NOTEBOOK_EXAMPLES = 20
FORM_EXAMPLES = 30
OPENING_EXAMPLES = 15
JOINING_EXAMPLES = 20  # per kind


@pytest.fixture(autouse=True)
def quick(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    # Five people per test at the default hasher's cost would take most of the run.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def move_text(legal: list[dict]) -> st.SearchStrategy:
    """The `action` field: an offered move, spoiled or not, or junk text."""
    sent = actions(legal).map(dumped)
    return st.one_of(sent, JUNK_JSON_TEXT, DEEP_ACTIONS)


def field_names(legal: list[dict], game: str) -> list[str]:
    """The fields the game's move forms carry, and ``param-`` for each key of its moves."""
    names = set(GAME_FIELDS.get(game, ()))
    for action in legal:
        names.update(f"param-{key}" for key in action)
        if isinstance(action.get("answers"), dict):
            names.update(f"answers-{question}" for question in action["answers"])
    return sorted(names)


# The fields of each game's move forms (its templates), besides action, key and version
# (a game not named: its ``param-`` fields alone).
GAME_FIELDS = {
    "watson_holmes": ["carriages", "question", "answer", "answers-"],
    "sherlock_mycroft": ["from", "ability-give", "ability-take"],
    "holmes_elementary": ["param-suit", "param-rank", "cards"],
    "i_say_holmes": [],
}


def extra_fields(names: list[str], values: st.SearchStrategy, *, junk: bool) -> st.SearchStrategy:
    """(name, value) pairs: the game's fields, ``param-`` fields of any name, and (`junk`)
    fields of any name at all; a name may come more than once (a discard's cards)."""
    word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-", min_size=1, max_size=12)
    name = st.one_of(
        st.sampled_from(names) if names else st.nothing(),
        (st.text(max_size=12) if junk else word).map(lambda text: f"param-{text}"),
        st.text(max_size=12) if junk else word,
    )
    return st.lists(st.tuples(name, values), min_size=1 if junk else 0, max_size=6)


def post(client: Client, url: str, pairs: list[tuple[str, str]], *, htmx: bool, **headers):
    """A form as a browser sends it (htmx's, or a plain one), form-encoded."""
    if htmx:
        headers["HX-Request"] = "true"
    return client.post(
        url,
        urlencode(pairs),
        content_type="application/x-www-form-urlencoded",
        headers=headers,
    )


def answered(response) -> None:
    assert response.status_code < 500, response.content[:500]


def in_savepoint(write):
    """Run `write`, then undo it (and the throttles' counts): the next example starts
    from the same table."""
    cache.clear()
    with transaction.atomic(), servers_recursion_limit():
        write()
        transaction.set_rollback(True)


# --- The tables -----------------------------------------------------------------------


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def tables(request, game, alice, bob, charlie, dave, erin):
    """A started table of `game` (alice hosts, seat 0; see SEATING) and a lobby of the
    same game; for each, who hosts it, who sits at it, and who does not."""
    people = {user.username: user for user in (alice, bob, charlie, dave, erin)}
    case_version = request.getfixturevalue("tutorial") if GAMES[game].needs_case else None
    started = started_table(game, people, case_version=case_version)
    if GAMES[game].needs_case:
        # Nobody plays a case at two tables: the lobby of the same case is dave's and erin's.
        lobby = services.table_create(host=dave, case_version=case_version)
        services.table_join(invite_code=lobby.invite_code, user=erin)
        lobby_roles = {"host": "dave", "member": "erin", "outsider": "alice"}
    else:
        lobby = services.table_create(host=alice, game=game)
        services.table_join(invite_code=lobby.invite_code, user=bob)
        if GAMES[game].bot is not None and GAMES[game].max_players > 2:
            services.seat_add_bot(table_id=lobby.pk, user=alice)
        lobby_roles = {"host": "alice", "member": "bob", "outsider": "dave"}
    seated = [seat.user for seat in started.seats.filter(user__isnull=False).order_by("number")]
    started_roles = {"host": "alice", "member": seated[-1].username, "outsider": "dave"}
    return {
        "started": Table.objects.get(pk=started.pk),
        "lobby": Table.objects.get(pk=lobby.pk),
        "roles": {"started": started_roles, "lobby": lobby_roles},
        "clients": {name: logged_in(user) for name, user in people.items()},
        "players": [user.username for user in seated],
        "legal": {user.username: legal_for(started, user) for user in seated},
    }


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


@pytest.fixture
def erin(make_user):
    return make_user("erin", display_name="Erin")


def legal_for(table: Table, user) -> list[dict]:
    membership = selectors.membership_for(table_id=table.pk, user=user)
    return selectors.table_view(membership=membership)["game"]["legal_actions"] or []


# --- Moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(MOVE_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_move_form_without_a_server_error(tables, game, data):
    """Each part of the form (the action, the version, the key, the game's fields) is
    readable, as the page fills it, or junk; most forms spoil one part only, so that the
    others let it through to where it is read (the game's site, the rules)."""
    table = tables["started"]
    player = data.draw(st.sampled_from(tables["players"]), label="player")
    legal = tables["legal"][player]
    spoilt = data.draw(st.sampled_from(SPOILABLE), label="spoilt")
    readable = {
        "action": actions(legal, PLAIN_JSON, anything=False).map(dumped),
        "expected_version": st.one_of(st.just(str(table.version)), st.none()),
        "key": st.one_of(st.none(), st.uuids().map(lambda key: key.hex)),
    }
    junk = {
        "action": move_text(legal),
        "expected_version": st.one_of(st.none(), VALUES),
        "key": st.one_of(st.none(), TEXT),
    }
    pairs = []
    for name in ("action", "expected_version", "key"):
        chosen = junk if spoilt in (name, "all") else readable
        value = data.draw(chosen[name], label=name)
        if value is not None:
            pairs.append((name, value))
    junk_fields = spoilt in ("fields", "all")
    values = VALUES if junk_fields else readable_values(legal)
    names = field_names(legal, game)
    pairs += data.draw(extra_fields(names, values, junk=junk_fields), label="fields")
    htmx = data.draw(st.booleans(), label="htmx")
    url = f"/tables/{table.pk}/act/"

    in_savepoint(lambda: answered(post(tables["clients"][player], url, pairs, htmx=htmx)))


# Which part of a move form is junk: none, one of them (the fields and the action most
# often: the game's site reads the first, the form's reader the second), or all.
SPOILABLE = [
    "none",
    "action",
    "action",
    "expected_version",
    "key",
    "fields",
    "fields",
    "fields",
    "all",
]


def readable_values(legal: list[dict]) -> st.SearchStrategy:
    """Values a page's fields hold: small numbers, plain words, and the values the
    offered moves hold (a card, a suit, a character)."""
    found = sorted({str(value) for action in legal for value in leaves(action)})
    return st.one_of(
        st.integers(min_value=-2, max_value=60).map(str),
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 -_", max_size=20),
        st.sampled_from(found) if found else st.nothing(),
    )


def leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    elif value is not None:
        yield value


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(BYTES_EXAMPLES)
@given(body=st.binary(max_size=80), htmx=st.booleans())
def test_it_answers_a_move_form_of_any_bytes_without_a_server_error(tables, game, body, htmx):
    """Bytes no browser sends: broken UTF-8 (an encoded half character among them)."""
    table = tables["started"]
    client = tables["clients"][tables["players"][0]]
    body = body + b"&action=%ED%A0%80&param-x=%FF%FE"
    headers = {"HX-Request": "true"} if htmx else {}

    def write():
        url = f"/tables/{table.pk}/act/"
        kind = "application/x-www-form-urlencoded"
        answered(client.post(url, body, content_type=kind, headers=headers))

    in_savepoint(write)


# --- The table's other forms ----------------------------------------------------------

SEAT_NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=9).map(str),
    st.sampled_from(["9" * 19, "9" * 40, str(2**63)]),
)
# A note sheet's marks: JSON objects of any content, and what JSON allows that the
# database does not, or that the reader cannot read: deep nesting, NaN and infinities,
# numbers beyond 64 bits, NUL and half characters (as escapes).
MARKS = st.one_of(
    st.dictionaries(st.text(max_size=6), JSON, max_size=4).map(dumped),
    st.dictionaries(st.text(max_size=6), PLAIN_JSON, max_size=4).map(dumped),
    st.sampled_from([33, 500, 990, 5_000]).map(lambda depth: '{"a": ' + nested(depth) + "}"),
    st.sampled_from(
        [
            '{"a": NaN}',
            '{"a": Infinity}',
            '{"a": -Infinity}',
            '{"a": 1e999}',
            '{"a": ' + "9" * 30 + "}",
            '{"a": ' + "9" * 5_000 + "}",
            '{"a": "\\u0000"}',
            '{"a\\u0000": 1}',
            '{"a": "\\ud800"}',
            '{"\\udfff": 1}',
        ]
    ),
    JUNK_JSON_TEXT,
)


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(NOTEBOOK_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_notebook_form_without_a_server_error(tables, game, data):
    """The notebook's form, saved as the page's script saves it (JSON back) or as a plain
    form: its text, its marks (a game's note sheet), either or both."""
    player = data.draw(st.sampled_from(tables["players"]), label="player")
    pairs = []
    for name, value in (("text", st.one_of(st.none(), TEXT)), ("marks", MARKS)):
        drawn = data.draw(st.one_of(st.none(), value), label=name)
        if drawn is not None:
            pairs.append((name, drawn))
    as_script = data.draw(st.booleans(), label="as the script saves it")
    headers = {"Accept": "application/json"} if as_script else {}
    url = f"/tables/{tables['started'].pk}/notebook/"
    client = tables["clients"][player]

    in_savepoint(lambda: answered(post(client, url, pairs, htmx=False, **headers)))


def table_forms(table_id: int) -> st.SearchStrategy:
    """(method, path, fields) of one of the table's forms, with what may be posted."""
    base = f"/tables/{table_id}"
    field = st.tuples(st.text(max_size=8), VALUES)
    empty = st.lists(field, max_size=2)
    colours = st.one_of(st.sampled_from(Colour.values), VALUES)
    forms = [
        st.tuples(
            st.just("post"),
            st.just(f"{base}/colour/"),
            st.lists(st.tuples(st.just("colour"), colours), max_size=2),
        ),
        st.tuples(
            st.just("post"),
            st.just(f"{base}/watching/"),
            st.lists(st.tuples(st.just("allowed"), VALUES), max_size=1),
        ),
        st.tuples(st.just("post"), st.just(f"{base}/bots/"), empty),
        st.tuples(st.just("post"), SEAT_NUMBERS.map(lambda n: f"{base}/bots/{n}/remove/"), empty),
        st.tuples(st.just("post"), SEAT_NUMBERS.map(lambda n: f"{base}/seats/{n}/remove/"), empty),
        st.tuples(st.just("post"), st.just(f"{base}/seat/leave/"), empty),
        st.tuples(
            st.just("post"),
            st.just(f"{base}/locals/"),
            st.lists(st.tuples(st.just("name"), VALUES), max_size=2),
        ),
        st.tuples(st.just("post"), SEAT_NUMBERS.map(lambda n: f"{base}/locals/{n}/remove/"), empty),
        st.tuples(
            st.just("post"),
            st.just(f"{base}/device/"),
            st.lists(st.tuples(st.just("seat"), st.one_of(SEAT_NUMBERS, VALUES)), max_size=2),
        ),
        st.tuples(st.just("post"), st.just(f"{base}/device/hide/"), empty),
        st.tuples(st.just("post"), st.just(f"{base}/leave/"), empty),
        st.tuples(st.just("post"), st.just(f"{base}/start/"), empty),
        st.tuples(st.just("post"), st.just(f"{base}/cancel/"), empty),
        st.tuples(st.just("post"), st.just(f"{base}/again/"), empty),
        st.tuples(
            st.just("get"),
            st.just(f"{base}/live/"),
            st.lists(
                st.tuples(
                    st.sampled_from(["since", "status"]),
                    st.one_of(VALUES, st.sampled_from(["lobby", "playing"])),
                ),
                max_size=2,
            ),
        ),
        st.tuples(st.just("get"), st.just(f"{base}/"), empty),
    ]
    return st.one_of(forms)


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(FORM_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_table_form_without_a_server_error(tables, game, data):
    which = data.draw(st.sampled_from(["started", "lobby"]), label="table")
    table = tables[which]
    role = data.draw(st.sampled_from(["host", "host", "member", "outsider"]), label="who")
    who = tables["roles"][which][role]
    method, url, pairs = data.draw(table_forms(table.pk), label="form")
    htmx = data.draw(st.booleans(), label="htmx")
    json_answer = data.draw(st.booleans(), label="accept json")
    client = tables["clients"][who]
    headers = {"Accept": "application/json"} if json_answer else {}

    def write():
        if method == "get":
            query = urlencode(pairs)
            extra = {"HX-Request": "true"} if htmx else {}
            answered(client.get(f"{url}?{query}" if query else url, headers={**headers, **extra}))
        else:
            answered(post(client, url, pairs, htmx=htmx, **headers))

    in_savepoint(write)


# --- Opening and joining tables -------------------------------------------------------


@pytest.mark.parametrize("game", GAME_NAMES)
@fuzz_settings(OPENING_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_form_opening_a_table_without_a_server_error(tables, tutorial, game, data):
    """The form that opens a table of the game: its options and the turn timer, as the
    page names them, and others; by a person at no table of it, or one at its lobby."""
    options = [option.name for option in GAMES[game].options] + ["turn_timer_seconds", "junk"]
    if GAMES[game].needs_case:
        url, prefix = f"/cases/{tutorial.case.slug}/tables/new/", ""
    else:
        url, prefix = f"/games/{game}/tables/new/", f"{game}-"
    name = st.one_of(st.sampled_from(options).map(lambda option: prefix + option), TEXT)
    pairs = data.draw(st.lists(st.tuples(name, VALUES), max_size=5), label="fields")
    client = tables["clients"][data.draw(st.sampled_from(["charlie", "alice"]), label="who")]

    in_savepoint(lambda: answered(post(client, url, pairs, htmx=False)))


def joining_forms(code: str, kind: str) -> st.SearchStrategy:
    """(method, path, fields) of one kind: joining by code (the header's box), the
    invite's pages, and the log-in pages an invite leads a visitor to (their `next` names
    the invite). Codes as typed, right or wrong, and codes no address can hold."""
    odd_codes = st.sampled_from(
        ["a/b", "HK7/4QM", "/", "?", "#", "%", "%00", "\x00", f"{code}\x00", "a\x00b", "\ufeff"]
    )
    codes = st.one_of(
        st.sampled_from([code, code.lower(), f"{code[:3]}-{code[3:]}", f" {code} "]),
        odd_codes,
        odd_codes,
        st.text(max_size=12),
    )
    in_path = codes.filter(lambda text: text not in ("", ".", "..")).map(
        lambda text: quote(text, safe="")
    )
    if kind == "by code":
        return st.tuples(
            st.just("get"),
            st.just("/join/"),
            st.lists(st.tuples(st.just("code"), codes), min_size=1, max_size=2),
        )
    if kind == "invite":
        return st.tuples(
            st.sampled_from(["get", "post"]),
            st.tuples(in_path, st.sampled_from(["", "watch/"])).map(
                lambda parts: f"/join/{parts[0]}/{parts[1]}"
            ),
            st.just([]),
        )
    pages = st.sampled_from(["/accounts/login/", "/accounts/signup/", "/accounts/password-reset/"])
    # The invite's address as a browser has it (quoted), or with the code as it is (a NUL
    # in it comes to the page as one).
    invites = st.one_of(in_path, codes).map(lambda text: f"/join/{text}/")
    targets = st.one_of(invites, invites, TEXT)
    return st.tuples(st.just("get"), pages, targets.map(lambda target: [("next", target)]))


@pytest.mark.parametrize("kind", ["by code", "invite", "log-in next"])
@fuzz_settings(JOINING_EXAMPLES)
@given(data=st.data())
def test_it_answers_any_joining_form_without_a_server_error(joining, kind, data):
    """As a person at no table, one at the table, and a visitor (not logged in); the
    log-in pages as a visitor, whom they are for (they send a person home)."""
    method, url, pairs = data.draw(joining_forms(joining["code"], kind), label="form")
    people = ["visitor"] if kind == "log-in next" else sorted(joining["clients"])
    client = joining["clients"][data.draw(st.sampled_from(people), label="who")]

    def write():
        if method == "get":
            query = urlencode(pairs)
            answered(client.get(f"{url}?{query}" if query else url))
        else:
            answered(post(client, url, pairs, htmx=False))

    in_savepoint(write)


@pytest.fixture
def joining(alice, bob, charlie):
    """A lobby alice hosts, watching allowed, and the clients of charlie (at no table),
    bob (at it) and a visitor."""
    game = next(name for name in GAME_NAMES if not GAMES[name].needs_case)
    table = services.table_create(host=alice, game=game)
    Table.objects.filter(pk=table.pk).update(watching_allowed=True)
    services.table_join(invite_code=table.invite_code, user=bob)
    clients = {"charlie": logged_in(charlie), "bob": logged_in(bob), "visitor": Client()}
    return {"code": table.invite_code, "clients": clients}
