"""The statements of a move, written as SQL.

A move is the site's most frequent write, and building its statements through the ORM
cost more CPU than running them: the locking read took 1.5 ms to build and 0.1 ms to run
on the benchmark machine. Written out, the four statements below let the API serve about
half as many moves again a second, on both databases (`make bench`, api: the figures are
in the commit that brought this module). On PostgreSQL the three writes then go as one
(`move_store`). Only these, the key's first outcome and the seats a move's views go to are
written out; every other read and write goes through the ORM.

They are the statements Django would send. Values are adapted by the backend's own
`adapt_json_value` and `adapt_datetimefield_value`, as the fields would; the locked row
is read through the backend's and the fields' converters, worked out once (Django's
`raw` works out the columns and converters for every query: 25 to 50 µs more a move on
this machine), so the models behave as if the ORM had loaded them. The row lock is `FOR
UPDATE OF` on PostgreSQL; on SQLite the transaction holds the write lock from its BEGIN
(IMMEDIATE, see settings), which is also all the ORM's select_for_update gets there.
Both databases understand `ON CONFLICT DO NOTHING`. The tests run each statement on both.

A move with an idempotency key reads the key's first outcome in its locking read
(`seat_locking_table`, `table_locking_for_seat`): one statement, and on PostgreSQL one
round trip, fewer. That lookup sees the rows committed before the statement began, not
those of a move that held the lock meanwhile: `apply_locked` (play/services/moves.py)
says when it looks again.
"""

from dataclasses import dataclass

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone
from psycopg.types.json import Json, Jsonb

from holmes_site.fast_json import OrjsonEncoder

from .models import Notebook, Seat, Table
from .presence import PRESENCE_COLUMN_COUNT, PRESENCE_COLUMNS, TablePresence, presence_params


class TableColumns:
    """Columns of the table a locking read selects, in its fields' order, read as the ORM
    would: through the backend's converters (SQLite returns datetimes as text) and the
    fields' own (JSON), worked out once per connection (what the compiler's
    get_converters does for every query). The fields left out are deferred: the model
    reads one when it is first asked for, as a queryset's `defer` would."""

    def __init__(self, left_out: set[str]):
        fields = [field for field in Table._meta.concrete_fields if field.name not in left_out]
        self.count = len(fields)
        self.sql = ", ".join(f"t.{field.column}" for field in fields)
        self._attnames = [field.attname for field in fields]
        self._columns = [field.get_col("t") for field in fields]
        self._converters: dict[str, list[tuple[int, list]]] = {}

    def table(self, db, values) -> Table:
        return Table.from_db(db.alias, self._attnames, self._converted(db, values))

    def _converted(self, db, values) -> list:
        converted = list(values)
        for index, converters in self._converters_here(db):
            for convert in converters:
                converted[index] = convert(converted[index], self._columns[index], db)
        return converted

    def _converters_here(self, db) -> list[tuple[int, list]]:
        if db.alias not in self._converters:
            self._converters[db.alias] = [
                (index, converters)
                for index, column in enumerate(self._columns)
                if (converters := db.ops.get_db_converters(column) + column.get_db_converters(db))
            ]
        return self._converters[db.alias]


# Every column but the fixed part of the state: Table.from_db takes that from the
# process's copy that fixed_digest names (play/models.py). The page's move reads these:
# it shows the table as its lock read it.
TABLE = TableColumns({"fixed_state"})
# Nor those that neither a move nor the view it answers with reads (play/selectors.py,
# `table_view`): the API's and the socket's moves. Each column costs the move its share
# of the statement's result (a datetime's is about 8 µs to load, a JSON one's more).
MOVED_TABLE = TableColumns(
    {"fixed_state", "options", "seed", "watching_allowed"}
    | {"created_at", "started_at", "finished_at"}
)
TABLE_FIELD = {field.name: field for field in Table._meta.concrete_fields}
# With who is at the table (play/presence.py), which the move needs to know whom to push
# to and whom to tell of their turn.
# `{key_columns}` and `{key_join}`: an idempotency key's first outcome, or nothing.
LOCK_SEAT_AND_TABLE = """
    SELECT {table_columns}, s.id, s.number, s.colour, n.id, n.text, {presence_columns}
        {key_columns}
    FROM play_seat s
    JOIN play_table t ON t.id = s.table_id
    LEFT JOIN play_notebook n ON n.seat_id = s.id
    {key_join}
    WHERE s.table_id = %s AND s.user_id = %s
"""
# The same lock for a seat given by its number, which the user holds themselves or for a
# player on their device (pass and play: the page knows which seat a device shows).
LOCK_TABLE_FOR_HELD_SEAT = """
    SELECT {table_columns}, {presence_columns}
        {key_columns}
    FROM play_seat s
    JOIN play_table t ON t.id = s.table_id
    {key_join}
    WHERE s.table_id = %s AND s.number = %s AND (s.user_id = %s OR s.held_by_id = %s)
"""
SEAT_COLUMNS = ["id", "table_id", "user_id", "number", "colour"]  # in Seat's field order
NOTEBOOK_COLUMNS = ["id", "seat_id", "text"]  # in Notebook's field order

INSERT_EVENTS = """
    INSERT INTO play_tableevent
        (table_id, sequence, table_version, audience, type, payload, created_at, request_key,
         request_fingerprint)
    VALUES {rows}
"""
EVENT_ROW = "(%s, %s, %s, %s, %s, %s, %s, %s, %s)"
# On PostgreSQL the rows go as one JSON array, so that the statement is the same text
# whatever the number of events: psycopg then converts it once per process (it caches
# a statement's conversion only up to 50 values, which five events passed, and such
# moves spent about 170 µs of CPU working out their statement again), and the server
# keeps one prepared statement, not one for each number of events.
INSERT_EVENTS_FROM_JSON = """
    INSERT INTO play_tableevent
        (table_id, sequence, table_version, audience, type, payload, created_at, request_key,
         request_fingerprint)
    SELECT e.table_id, e.sequence, e.table_version, e.audience, e.type, e.payload, %s,
        e.request_key, e.request_fingerprint
    FROM json_to_recordset(%s) AS e(
        table_id bigint, sequence integer, table_version integer, audience text, type text,
        payload jsonb, request_key text, request_fingerprint text
    )
"""

INSERT_ACTION_REQUEST = """
    INSERT INTO play_actionrequest (table_id, "key", fingerprint, outcome, created_at)
    VALUES (%s, %s, %s, %s, %s)
    ON CONFLICT DO NOTHING
"""

# The first outcome of an idempotency key: an applied move's (its first event keeps the
# key), else a refused one's (ActionRequest). One statement where the ORM sent two.
# `{key}` is the key's SQL: the key as stored, or SEAT_KEY.
STORED_OUTCOME_OF = """
    SELECT 1 AS applied, e.table_version AS version, e.request_fingerprint AS fingerprint,
        CAST(NULL AS TEXT) AS outcome
    FROM play_tableevent e WHERE e.table_id = %s AND e.request_key = {key}
    UNION ALL
    SELECT 0, NULL, r.fingerprint, CAST(r.outcome AS TEXT)
    FROM play_actionrequest r WHERE r.table_id = %s AND r."key" = {key}
    ORDER BY 1 DESC
    LIMIT 1
"""
STORED_OUTCOME = STORED_OUTCOME_OF.format(key="%s")
# The key a person sent as stored under the seat they hold, "seat<number>:<key>"
# (`_actor_key` in play/services/moves.py), taking (table id, user id, key): the API's
# move learns the seat's number from the very statement that reads the key. NULL, found
# nowhere, for someone who holds no seat there.
SEAT_KEY = """(
    'seat' || CAST(
        (SELECT q.number FROM play_seat q WHERE q.table_id = %s AND q.user_id = %s) AS TEXT
    ) || ':' || %s
)"""
KEY_COLUMN_COUNT = 4

# The seats whose player holds a live socket that asked for its views (the presence
# columns' `viewers`), with their notes: what the move's push builds their views from
# (play/pushed_views.py). Read under the lock, the push needs no statement of its own
# after commit (it was one in five of a socket move's). One JSON array of [seat id, user
# id, number, colour, notebook id, notebook text]; none (NULL, or [] on SQLite) when no
# such socket is open. A look at the table's few seats: the statement took about 10 µs
# more (20 µs with three such sockets) where the statement it saves cost a socket move
# about 0.1 ms of this process's CPU (PostgreSQL, medians, measured in one process). Then
# the table's version in the statement's snapshot: on PostgreSQL a statement that waited
# for the lock reads the row as the lock's holder left it, but every other row (these
# seats) as it began; a different version says a change (a player leaving, say) came in
# between, and the push reads the seats itself.
VIEWER_SEATS_COLUMNS = """,
    (
        SELECT {aggregate}
        FROM play_seat p LEFT JOIN play_notebook b ON b.seat_id = p.id
        WHERE p.table_id = t.id AND p.user_id IS NOT NULL AND EXISTS (
            SELECT 1 FROM play_tablesocket k
            WHERE k.seat_id = p.id AND k.wants_views AND k.expires_at > %s
        )
    ),
    (SELECT v.version FROM play_table v WHERE v.id = t.id)
"""
VIEWER_SEAT_FIELDS = "p.id, p.user_id, p.number, p.colour, b.id, b.text"  # as `_seat` takes them
VIEWER_SEATS_AGGREGATE = {
    "postgresql": f"CAST(json_agg(json_build_array({VIEWER_SEAT_FIELDS})) AS TEXT)",
    "sqlite": f"json_group_array(json_array({VIEWER_SEAT_FIELDS}))",
}
VIEWER_SEATS_COLUMN_COUNT = 2


def _locking(template: str, table: TableColumns, key: str | None) -> dict[str, str]:
    """A locking read of `table`'s columns, with the lookup of a key given as `key` (its
    SQL), or without; for each database, which spell the viewers' seats differently."""
    return {
        vendor: template.format(
            table_columns=table.sql,
            presence_columns=PRESENCE_COLUMNS.format(table="t.id")
            + VIEWER_SEATS_COLUMNS.format(aggregate=aggregate),
            key_columns=", o.applied, o.version, o.fingerprint, o.outcome" if key else "",
            # At most one row, joined to the seat's: the key's, or NULLs.
            key_join=f"LEFT JOIN ({STORED_OUTCOME_OF.format(key=key)}) o ON 1 = 1" if key else "",
        )
        for vendor, aggregate in VIEWER_SEATS_AGGREGATE.items()
    }


LOCK_SEAT = _locking(LOCK_SEAT_AND_TABLE, MOVED_TABLE, None)
LOCK_SEAT_AND_KEY = _locking(LOCK_SEAT_AND_TABLE, MOVED_TABLE, SEAT_KEY)
LOCK_HELD_SEAT = _locking(LOCK_TABLE_FOR_HELD_SEAT, TABLE, None)
LOCK_HELD_SEAT_AND_KEY = _locking(LOCK_TABLE_FOR_HELD_SEAT, TABLE, "%s")

# The seats of the players a move's views go to (play/pushed_views.py), with their notes.
PLAYERS_SEATS = """
    SELECT s.id, s.user_id, s.number, s.colour, n.id, n.text
    FROM play_seat s
    LEFT JOIN play_notebook n ON n.seat_id = s.id
    WHERE s.table_id = %s AND s.user_id IS NOT NULL AND s.number IN ({numbers})
    ORDER BY s.number
"""


@dataclass(slots=True)
class EventRow:
    """An event as `events_insert` and `move_store` write it: a TableEvent's values without
    the model instance, which took 4.4 µs per event to build (its signals and defaults)
    only to be read back into values here, against 0.3 µs. A TableEvent does as well."""

    table_id: int
    sequence: int
    table_version: int
    audience: str
    type: str
    payload: dict
    request_key: str | None = None
    request_fingerprint: str | None = None


# What a locking read found of a key: None for a new key (or none asked for), else the
# key's first outcome and the fingerprint of the request that made it (`stored_outcome`).
Stored = tuple[dict, str | None] | None


# The seats whose players' sockets asked for their views, read with the lock (with the
# table and their notebooks), for the move's push; None when the lock could not read them
# as of the move: the push then reads them itself (`players_seats`).
ViewerSeats = list[Seat] | None


def seat_locking_table(
    *, table_id: int, user_id: int, key: str | None = None
) -> tuple[Seat, TablePresence, Stored, ViewerSeats] | None:
    """The seat the user holds at the table, with the table and the seat's notebook, and
    who is at the table, with the seats of the players who asked for their views; the
    table's row stays locked until the transaction ends. None if they hold no seat. With
    `key`, an idempotency key as the user sent it, also that key's first outcome under
    their seat, as the statement began (see the module's note)."""
    params = [*_lock_params(), table_id, user_id]
    if key is not None:
        params[-2:-2] = [table_id, table_id, user_id, key] * 2
    db = _database()
    row = _fetch_locked(db, (LOCK_SEAT if key is None else LOCK_SEAT_AND_KEY)[db.vendor], params)
    if row is None:
        return None
    row, stored = _split_key_columns(row, key)
    row, viewer_columns = row[:-VIEWER_SEATS_COLUMN_COUNT], row[-VIEWER_SEATS_COLUMN_COUNT:]
    seat_columns = row[MOVED_TABLE.count : -PRESENCE_COLUMN_COUNT]
    presence_columns = row[-PRESENCE_COLUMN_COUNT:]
    seat_id, number, colour, notebook_id, notebook_text = seat_columns
    table = MOVED_TABLE.table(db, row[: MOVED_TABLE.count])
    # A missing notebook left unread: the mover's request may write their first notes.
    seat = _seat(
        db, table, [seat_id, user_id, number, colour, notebook_id, notebook_text], none=False
    )
    viewer_seats = _viewer_seats(db, table, *viewer_columns)
    return seat, TablePresence.from_columns(*presence_columns), stored, viewer_seats


def table_locking_for_seat(
    *, table_id: int, number: int, user_id: int, key: str | None = None
) -> tuple[Table, TablePresence, Stored, ViewerSeats] | None:
    """The table, locked as `seat_locking_table` locks it, who is at it and the seats of
    the players who asked for their views, if the user holds seat `number` there,
    themselves or for a player on their device; else None. With `key`, an idempotency key
    as stored ("seat1:..."), also its first outcome."""
    params = [*_lock_params(), table_id, number, user_id, user_id]
    if key is not None:
        params[-4:-4] = [table_id, key, table_id, key]
    db = _database()
    sql = (LOCK_HELD_SEAT if key is None else LOCK_HELD_SEAT_AND_KEY)[db.vendor]
    row = _fetch_locked(db, sql, params)
    if row is None:
        return None
    row, stored = _split_key_columns(row, key)
    row, viewer_columns = row[:-VIEWER_SEATS_COLUMN_COUNT], row[-VIEWER_SEATS_COLUMN_COUNT:]
    table = TABLE.table(db, row[: TABLE.count])
    presence = TablePresence.from_columns(*row[-PRESENCE_COLUMN_COUNT:])
    return table, presence, stored, _viewer_seats(db, table, *viewer_columns)


def _lock_params() -> list:
    """The presence columns' values, then the viewers' seats' (the same instant)."""
    params = presence_params()
    return [*params, params[0]]


def _viewer_seats(db, table: Table, seats_json, snapshot_version) -> ViewerSeats:
    if snapshot_version != table.version:
        return None  # read before a change that held the lock meanwhile: not as of the move
    rows = orjson.loads(seats_json) if seats_json else []
    return sorted((_seat(db, table, row) for row in rows), key=lambda seat: seat.number)


def _seat(db, table: Table, row, *, none: bool = True) -> Seat:
    """A seat at `table` read with its notebook (whose id is None where it has none), as
    the ORM would have loaded them: asking for the notebook makes no query (`none`: not
    even where it has none)."""
    seat_id, user_id, number, colour, notebook_id, notebook_text = row
    seat = Seat.from_db(db.alias, SEAT_COLUMNS, [seat_id, table.pk, user_id, number, colour])
    seat.table = table
    notebook = None
    if notebook_id is not None:
        notebook = Notebook.from_db(
            db.alias, NOTEBOOK_COLUMNS, [notebook_id, seat_id, notebook_text]
        )
    if notebook is not None or none:
        Seat.notebook.related.set_cached_value(seat, notebook)
    return seat


def _fetch_locked(db, sql: str, params: list):
    lock = " FOR UPDATE OF t" if db.vendor == "postgresql" else ""
    with db.cursor() as cursor:
        cursor.execute(sql + lock, params)
        return cursor.fetchone()


def _split_key_columns(row, key: str | None) -> tuple[tuple, Stored]:
    """The row without the key's columns, and what they say (None without a key)."""
    if key is None:
        return row, None
    columns = row[-KEY_COLUMN_COUNT:]
    return row[:-KEY_COLUMN_COUNT], None if columns[0] is None else _stored(columns)


def stored_outcome(*, table_id: int, key: str) -> Stored:
    """The first outcome of the key at the table, with the fingerprint of the request that
    made it (None for keys stored before fingerprints were); None for a new key."""
    with connection.cursor() as cursor:
        cursor.execute(STORED_OUTCOME, [table_id, key, table_id, key])
        row = cursor.fetchone()
    return None if row is None else _stored(row)


def _stored(row) -> Stored:
    applied, version, fingerprint, outcome = row
    if applied:
        return {"applied": True, "version": version}, fingerprint
    return orjson.loads(outcome), fingerprint


def players_seats(*, table: Table, numbers) -> list[Seat]:
    """The seats among `numbers` that a person holds, with `table` and their notebooks
    (None where there is none), in one statement: for the views a move pushes when its
    lock did not read them (`seat_locking_table`)."""
    numbers = sorted(numbers)
    if not numbers:
        return []
    statement = PLAYERS_SEATS.format(numbers=", ".join(["%s"] * len(numbers)))
    db = _database()
    with db.cursor() as cursor:
        cursor.execute(statement, [table.pk, *numbers])
        rows = cursor.fetchall()
    return [
        _seat(db, table, [seat_id, user_id, number, colour, notebook_id, notebook_text])
        for seat_id, user_id, number, colour, notebook_id, notebook_text in rows
    ]


def move_store(
    table: Table,
    fields: list[str],
    events: list[EventRow],
    request: tuple[str, dict] | tuple[str, dict, str] | None,
) -> None:
    """A move's writes: the table's row (`table_update`), its events (`events_insert`) and,
    for a request with an idempotency key, its (key, outcome[, fingerprint])
    (`action_request_insert`).

    On PostgreSQL in one statement, the inserts in a data-modifying WITH: one round trip
    instead of three, each a switch to the database's process and back. SQLite runs in
    this process, so there they simply follow one another.
    """
    db = _database()
    statements = [_table_update_sql(db, table, fields)]
    if events:
        statements.append(_events_insert_sql(db, events))
    if request:
        statements.append(_action_request_insert_sql(db, table.pk, *request))
    if db.vendor == "postgresql" and len(statements) > 1:
        (update, update_values), *inserts = statements
        with_clauses = ", ".join(f"write{n} AS ({sql})" for n, (sql, _) in enumerate(inserts))
        values = [value for _, insert_values in inserts for value in insert_values]
        statements = [(f"WITH {with_clauses} {update}", [*values, *update_values])]
    with db.cursor() as cursor:
        for sql, values in statements:
            cursor.execute(sql, values)


def table_update(table: Table, fields: list[str]) -> None:
    """UPDATE the table's row with the current values of `fields`, as
    `table.save(update_fields=fields)` would. Only the fields a move changes are known."""
    _execute(_table_update_sql(_database(), table, fields))


def events_insert(events: list[EventRow]) -> None:
    """INSERT the events (EventRow, or unsaved TableEvent instances) in one statement."""
    if events:
        _execute(_events_insert_sql(_database(), events))


def action_request_insert(*, table_id: int, key: str, outcome: dict, fingerprint: str = "") -> None:
    """Store an idempotency key's outcome (and what was asked, its fingerprint), unless a
    request with that key stored one."""
    _execute(_action_request_insert_sql(_database(), table_id, key, outcome, fingerprint))


# --- The statements, with their values ---------------------------------------------------
# Each takes the connection's wrapper, found once a move: `connection` is a proxy that
# looks the wrapper up again for every attribute asked of it (a context-local lookup,
# about ten a move here).


def _database():
    return connections[DEFAULT_DB_ALIAS]


def _table_update_sql(db, table: Table, fields: list[str]) -> tuple[str, list]:
    assignments = ", ".join(f"{name} = %s" for name in fields)
    # pre_save, as save() does: the state's field leaves out its fixed part.
    values = [_adapted(db, name, TABLE_FIELD[name].pre_save(table, False)) for name in fields]
    return f"UPDATE play_table SET {assignments} WHERE id = %s", [*values, table.pk]


def _adapted(db, name: str, value):
    """A table's value as its field adapts it, for the fields a move writes."""
    if name == "state":  # json, not jsonb, on PostgreSQL (EngineStateField)
        return TABLE_FIELD["state"].get_db_prep_value(value, db, prepared=True)
    if name in ("summary", "outcome"):
        return None if value is None and name == "outcome" else _json(db, value)
    if name in ("finished_at", "deadline_at", "wake_at"):
        return db.ops.adapt_datetimefield_value(value)
    return ADAPT[name](value)


ADAPT = {"version": int, "event_count": int, "status": str}


def _events_insert_sql(db, events: list[EventRow]) -> tuple[str, list]:
    now = db.ops.adapt_datetimefield_value(timezone.now())
    if db.vendor == "postgresql":
        return _events_from_json_sql(db, events, now)
    values = [
        value
        for event in events
        for value in (
            event.table_id,
            event.sequence,
            event.table_version,
            event.audience,
            event.type,
            _json(db, event.payload),
            now,
            event.request_key,
            event.request_fingerprint,
        )
    ]
    rows = ", ".join([EVENT_ROW] * len(events))
    return INSERT_EVENTS.format(rows=rows), values


def _events_from_json_sql(db, events: list[EventRow], now) -> tuple[str, list]:
    rows = [
        {
            "table_id": event.table_id,
            "sequence": event.sequence,
            "table_version": event.table_version,
            "audience": event.audience,
            "type": event.type,
            "payload": event.payload,
            "request_key": event.request_key,
            "request_fingerprint": event.request_fingerprint,
        }
        for event in events
    ]
    return INSERT_EVENTS_FROM_JSON, [now, _json(db, rows, jsonb=False)]


def _action_request_insert_sql(
    db, table_id: int, key: str, outcome: dict, fingerprint: str = ""
) -> tuple[str, list]:
    now = db.ops.adapt_datetimefield_value(timezone.now())
    return INSERT_ACTION_REQUEST, [table_id, key, fingerprint, _json(db, outcome), now]


def _execute(statement: tuple[str, list]) -> None:
    sql, values = statement
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def _json(db, value, *, jsonb: bool = True):
    adapted = db.ops.adapt_json_value(value, OrjsonEncoder)
    if not jsonb and isinstance(adapted, Jsonb):
        return Json(adapted.obj, dumps=adapted.dumps)  # json_to_recordset takes json
    return adapted
