"""What the fuzz tests send (Hypothesis strategies), and a started table of each game.

Used by the page fuzz (tests/web/test_fuzz_pages.py) and the socket fuzz
(tests/play/test_fuzz_sockets.py); the API's is generated from its schema
(tests/play/test_schemathesis.py, tests/play/test_fuzz_api.py).
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import pytest
from asgiref.sync import async_to_sync
from django.db import connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games import GAMES
from play import services
from play.models import Table
from play.socket_thread import in_socket_thread

GAME_NAMES = sorted(GAMES)


def fuzz_settings(examples: int):
    """Bounded, and the same examples on every run (CI reports the same input twice)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@contextmanager
def servers_recursion_limit():
    """Python's own recursion limit, as a server runs with, for the length of a request.
    Hypothesis raises it by 2,000 while a test runs (so that its own work never hits
    it), and under it a move nested 990 deep no longer raised RecursionError where a
    server's reader did (a 500)."""
    raised = sys.getrecursionlimit()
    sys.setrecursionlimit(PYTHONS_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(raised)


PYTHONS_RECURSION_LIMIT = 1000  # sys.getrecursionlimit() in a process that never set it


# --- Text and numbers, as a form or a frame may carry them ---------------------------------

# Numbers as a form may write them that Python's int() refuses or str.isdigit() misreads,
# and numbers beyond what any column holds.
ODD_NUMBERS = st.sampled_from(
    [
        "²",
        "①",
        "٣",
        "１２",
        "--5",
        "-",
        "+5",
        "-0",
        " 7",
        "7 ",
        "0x10",
        "1e3",
        "1_000",
        "9" * 19,
        "-" + "9" * 19,
        str(2**63),
        "9" * 4301,
        "-" + "1" * 5000,
    ]
)
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=60),
    st.integers(min_value=-(2**80), max_value=2**80),
).map(str)
# Form-encoded text is UTF-8: any character but half of one (a lone surrogate), NUL
# included; and text beyond the fields' limits.
TEXT = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.sampled_from("\x00\x01\u200b\u202e\ufeff\U0001f600 a-"), max_size=8),
    st.sampled_from(["x" * 2_001, "y" * 50_001]),
)
VALUES = st.one_of(TEXT, NUMBERS, ODD_NUMBERS, ODD_NUMBERS, st.just(""))


# --- JSON -----------------------------------------------------------------------------------

# Values of any shape, with what JSON allows and the database does not: NaN and infinities
# (json.dumps writes them), whole numbers beyond 64 bits, control characters and lone
# surrogates (json.dumps writes \\ud800, so the text itself stays UTF-8).
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=60),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.text(max_size=12),
    st.text(alphabet=st.characters(categories=["Cs", "Cc"]), min_size=1, max_size=3),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def dumped(value) -> str:
    return json.dumps(value, allow_nan=True)


# Text that is not quite a move: not JSON, not an object, a type that is not text, numbers
# beyond what is read, NUL and half characters in escapes, lists nested past the guard's
# depth and near the readers' own limits.
JUNK_JSON_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "null",
            "[]",
            "{}",
            '{"type": 5}',
            '{"type": null}',
            '{"type": "no_such_move"}',
            '{"type": "x", "n": NaN}',
            '{"type": "x", "n": -Infinity}',
            '{"type": "x", "n": 1e999}',
            '{"type": "x", "n": ' + "9" * 400 + "}",
            '{"type": "x\\u0000"}',
            '{"type": "\\ud800"}',
            '{"type": "x", "type": "y"}',
            '{"type": "x"' + " " * 2_000 + "}",
        ]
    ),
    st.sampled_from([33, 100, 500, 990]).map(
        lambda depth: '{"type": "x", "n": ' + nested(depth) + "}"
    ),
    st.sampled_from([32, 990]).map(nested),
    JSON.map(dumped),
)


# JSON a client may well send by mistake: values of the wrong kind, no value the guard
# itself refuses (those are JSON's above).
PLAIN_JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-3, max_value=60),
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 -_", max_size=12),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=5,
)


# An action with a list nested in it: past the guard's depth (32), and near the JSON
# reader's own limit (Python's recursion limit, a thousand frames); 2,000 characters at
# most, the length of a page's move field.
DEEP_ACTIONS = st.sampled_from([33, 990]).map(
    lambda depth: '{"type": "x", "n": ' + nested(depth) + "}"
)


def spoiled(action: dict, values: st.SearchStrategy = JSON) -> st.SearchStrategy:
    """The action, or the action with one key changed, added or taken away."""
    keys = sorted(action)
    return st.one_of(
        st.just(action),
        st.tuples(st.sampled_from(keys), values).map(lambda pair: {**action, pair[0]: pair[1]}),
        st.tuples(st.text(max_size=10), values).map(lambda pair: {**action, pair[0]: pair[1]}),
        st.sampled_from(keys).map(lambda key: {k: v for k, v in action.items() if k != key}),
    )


def actions(
    legal: list[dict], values: st.SearchStrategy = JSON, *, anything: bool = True
) -> st.SearchStrategy:
    """A move as a client may send it: one it was offered, spoiled or not (with `values`),
    or (`anything`, or when nothing is offered) any value at all."""
    if not legal:
        return values
    offered = st.sampled_from(legal).flatmap(lambda action: spoiled(action, values))
    return st.one_of(offered, offered, values) if anything else offered


# --- A started table of each game -----------------------------------------------------------

# Who sits at a started table of each game besides alice (the host, seat 0): the people,
# and how many computer players. The case game has none: its table is on a case.
SEATING = {
    "watson_holmes": (["bob", "charlie"], 0),
    "sherlock_mycroft": ([], 1),  # two seats: alice against the computer
    "holmes_elementary": (["bob"], 1),
    "i_say_holmes": (["bob", "charlie"], 0),
}


def started_table(game: str, people: dict, *, case_version=None, seed: int = 221) -> Table:
    """A started table of `game`, alice hosting, seated as SEATING says, from a fixed seed:
    the same deal, so the same moves offered, on every run. `people`: users by username;
    `case_version`: the case, for the game played on one."""
    # A game not named: the host and as many computer players as its smallest table needs.
    others, bots = SEATING.get(game, ([], GAMES[game].min_players - 1))
    host = people["alice"]
    if GAMES[game].needs_case:
        table = services.table_create(host=host, case_version=case_version)
    else:
        options = {"max_cases": 2} if game == "i_say_holmes" else {}
        table = services.table_create(host=host, game=game, options=options)
    Table.objects.filter(pk=table.pk).update(seed=seed)
    for name in others:
        services.table_join(invite_code=table.invite_code, user=people[name])
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, user=host)
    return services.table_start(table_id=table.pk, user=host)


@pytest.fixture
def socket_thread_closed():
    """After a socket test, the sockets' database thread lets go of its connection: kept
    open, it stopped the test database from being dropped at the end of a PostgreSQL run
    whose last test used a socket."""
    yield
    async_to_sync(in_socket_thread)(connections.close_all)
