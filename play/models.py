"""Tables where groups play, and everything a game writes.

The current engine state lives on the table row, so reading a table costs a constant
number of queries however long the game; the event log is history and replay. Every write
goes through `play/services/`.

The row keeps the state in two columns: `fixed_state`, the keys the engine's setup fills
and no move changes (its FIXED_KEYS: the case's cards and questions, 85% of a case
game's state), written once when the game starts; and `state`, the rest, written by every
move. In Python, `table.state` is the engine's whole state all the same: loading a table
joins the two, and saving it stores only what moves change (`EngineStateField`).

The fixed part is the same for every table of a case, and the move's own read leaves it
out: `fixed_digest` names it, and each process keeps the fixed parts it has read, by
digest (`FIXED_PARTS_KEPT` of them). Reading the 9 KB column cost PostgreSQL more than
the rest of the move's read (this machine: 90 to 120 µs of its CPU a move).
"""

import hashlib
import secrets
import threading

import orjson
from django.conf import settings
from django.db import models
from django.db.models import Q
from psycopg import adapters as psycopg_adapters
from psycopg.types.json import Json, Jsonb
from psycopg.types.string import TextLoader

from cases.models import AnswerAttempt, CaseVersion
from games.base import DEFAULT_BOT_LEVEL, SEAT_COLOURS
from holmes_site.fast_json import FastJSONField

# json values come back as text, as Django has jsonb's come back, for the field to parse
# (with orjson): the engine state's column is json (EngineStateField). Set before any
# connection opens: Django copies psycopg's adapters when it makes its first.
psycopg_adapters.register_loader("json", TextLoader)


# A table's code is read aloud and typed on phones: six characters of an alphabet without
# look-alikes (no 0 and O, 1, I and L, no U beside V), upper case; people may type it in
# any case, with or without the dash it is shown with (HK7-4QM). 30^6 is 729 million
# codes: joining is throttled, and a miss counts against the same budget (play/views.py).
INVITE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
INVITE_LENGTH = 6


def new_invite_code() -> str:
    while True:
        code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))
        if not Table.objects.filter(invite_code=code).exists():
            return code


def invite_code_typed(text: str) -> str:
    """A code as a person typed or read it: without spaces and dashes, in upper case.
    (Tables opened before codes were short keep their mixed-case codes, looked up as
    they are.)"""
    return "".join(text.split()).replace("-", "").upper()


def invite_code_shown(code: str) -> str:
    """A short code in two groups, HK7-4QM, to read and type; an older code as it is."""
    if len(code) == INVITE_LENGTH and set(code) <= set(INVITE_ALPHABET):
        return f"{code[:3]}-{code[3:]}"
    return code


class TableStatus(models.TextChoices):
    LOBBY = "lobby", "In the lobby"
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled by the host"


# Seat colours: every game's colours come from this list (games.base.SEAT_COLOURS), each
# with a letter, so that colour is never the only cue.
Colour = models.TextChoices(
    "Colour",
    [
        (colour.value.upper(), (colour.value, f"{colour.label} ({colour.letter})"))
        for colour in SEAT_COLOURS
    ],
)

# The most seats any game has (I Say, Holmes! seats 8); each game sets its own limit.
MAX_SEATS = 8

FIXED_PARTS_KEPT = 64
_fixed_parts: dict[str, dict] = {}  # digest -> fixed part, shared by the tables of a case
_fixed_parts_lock = threading.Lock()  # an ASGI process serves requests in several threads


def fixed_digest_for(fixed: dict | None) -> str:
    """The name of a fixed part: the SHA-256 of its JSON, keys sorted ("" for none)."""
    if not fixed:
        return ""
    return hashlib.sha256(orjson.dumps(fixed, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _remember_fixed_part(digest: str, fixed: dict) -> dict:
    with _fixed_parts_lock:
        if digest not in _fixed_parts and len(_fixed_parts) >= FIXED_PARTS_KEPT:
            del _fixed_parts[next(iter(_fixed_parts))]  # the oldest
        return _fixed_parts.setdefault(digest, fixed)


class EngineStateField(FastJSONField):
    """The engine state, stored without the keys its table keeps in `fixed_state`.

    On PostgreSQL the column is `json`, not `jsonb`: every move writes the state whole and
    reads it whole, and no query looks inside it (figures read Table.outcome), which json
    serves as well (json has no equality operator). jsonb's
    work, parsing each write into its binary form and printing it back to text on each
    read, cost the database about 60 µs of CPU a move (this machine: a move's read and write of the
    state took 204 µs as json against 263 µs as jsonb, medians of 30 alternating runs).
    json keeps the text as written, checked only for being JSON."""

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        adapted = super().get_db_prep_value(value, connection, prepared)
        if isinstance(adapted, Jsonb):  # PostgreSQL's adapter: send it as json
            return Json(adapted.obj, dumps=adapted.dumps)
        return adapted

    def pre_save(self, model_instance, add):
        state = super().pre_save(model_instance, add)
        fixed = model_instance.fixed_state
        if not fixed or not isinstance(state, dict):
            return state
        return {key: value for key, value in state.items() if key not in fixed}


class Table(models.Model):
    # The game's name in the registry (games.GAMES): its rules, site adapter and page.
    engine = models.CharField(max_length=40)
    # The case played, for a game that needs one; empty for the others.
    case_version = models.ForeignKey(
        CaseVersion, on_delete=models.PROTECT, related_name="tables", null=True, blank=True
    )
    options = models.JSONField(default=dict, blank=True)
    turn_timer_seconds = models.PositiveIntegerField(null=True, blank=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables"
    )
    invite_code = models.CharField(max_length=16, unique=True, default=new_invite_code)
    # A private table (a moderator's play-test): its host plays alone. Nobody joins it,
    # whatever the code; it shows no invite, and it counts in no figure of the case.
    is_private = models.BooleanField(default=False)
    # Once the game has started, the invite offers to watch (the spectator's view) while
    # this is on; the host may turn it off, which also sends the watchers away.
    watching_allowed = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.LOBBY)
    seed = models.BigIntegerField(default=0)
    state = EngineStateField(null=True, blank=True)
    fixed_state = FastJSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The part of the state that no move changes, written when the game starts.",
    )
    fixed_digest = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="The SHA-256 of fixed_state (fixed_digest_for), which names it in caches.",
    )
    version = models.PositiveIntegerField(default=0)
    # The sequence number of the last event, so appending needs no MAX() query.
    event_count = models.PositiveIntegerField(default=0)
    # Public summary kept beside the state, so lists never load or parse states.
    summary = FastJSONField(default=dict, blank=True)
    # What the game's rules said at its end (winners, scores...), as the game's site
    # adapter records it: figures read this, never the engine state.
    outcome = FastJSONField(null=True, blank=True, editable=False)
    # When a seat that owes a move runs out of time (the table's turn timer, or the game's
    # own window): the page counts down to it, and the server then plays the game's
    # timeout. Empty when nobody is timed.
    deadline_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When the server next has something to do at this table: a computer player's move, or
    # the deadline. Celery is asked to come back then; a sweep finds any it missed.
    wake_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(
                fields=["wake_at"], condition=Q(wake_at__isnull=False), name="table_wake_at"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk}: {(self.summary or {}).get('title') or self.engine}"

    @property
    def invite_code_shown(self) -> str:
        return invite_code_shown(self.invite_code)

    @classmethod
    def from_db(cls, db, field_names, values):
        table = super().from_db(db, field_names, values)
        # A deferred state stays deferred (refresh_from_db joins it when it is read); a
        # state read without its fixed part takes that from this process's copy, or reads
        # it, or it would not be whole.
        if isinstance(table.__dict__.get("state"), dict):
            fixed = table._fixed_part()
            if fixed:
                table.state = {**table.state, **fixed}
        return table

    def _fixed_part(self) -> dict | None:
        digest = self.__dict__.get("fixed_digest")
        if "fixed_state" not in self.__dict__ and digest in _fixed_parts:
            self.fixed_state = _fixed_parts[digest]
        fixed = self.fixed_state  # a deferred one is read here
        if fixed and digest:
            # One copy of each case per process, whichever table it was read with.
            self.fixed_state = fixed = _remember_fixed_part(digest, fixed)
        return fixed

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        # The state is whole only with its fixed part (as when a deferred state is read).
        if fields is not None and "state" in fields and "fixed_state" not in fields:
            fields = [*fields, "fixed_state"]
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)


def bot_public_name(bot_name: str, level: str) -> str:
    """A computer player's name as the table shows it: its strength said beside it, unless
    it is the normal one every game has ("Computer 2 (expert)", "Computer 1")."""
    if level and level != DEFAULT_BOT_LEVEL:
        return f"{bot_name} ({level})"
    return bot_name


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Empty for a computer player's seat.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="seats",
        null=True,
        blank=True,
    )
    bot_name = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="A computer player's name; empty for a person's seat.",
    )
    # How strong a computer player is (games.base.BOT_LEVELS); empty for a person's seat.
    bot_level = models.CharField(
        max_length=10,
        blank=True,
        default="",
        help_text="A computer player's strength (BOT_LEVELS); empty for a person.",
    )
    # A player on the host's device (pass and play, play/local_players.py): no account of
    # their own; the seat is held by the account whose browser they share.
    local_name = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="A local player's name (pass and play); empty for other seats.",
    )
    held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="held_seats",
        null=True,
        blank=True,
        help_text="For a local player: the account whose device they play on.",
    )
    number = models.PositiveSmallIntegerField(help_text="0-based; the engine's player index.")
    colour = models.CharField(max_length=10, choices=Colour.choices)
    joined_at = models.DateTimeField(auto_now_add=True)
    # A game without computer players passes a leaver by (play/leaving.py): the seat
    # stays, held by nobody.
    left_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the person left a game with no computer player to take the seat.",
    )
    your_turn_told_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When this player, away from the table, was last told it is their turn "
        "(play/presence.py); cleared when they come back.",
    )
    seen_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When this player's page was last open on the table (play/presence.py): "
        "how long they have been away, for the host's Remove (play/leaving.py).",
    )

    class Meta:
        # By the column, not the relation: ordering by "table" would follow Table's own
        # ordering (-created_at) and join the tables into every query for seats.
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_per_user",
            ),
            models.UniqueConstraint(fields=["table", "colour"], name="seat_colour_unique"),
            models.CheckConstraint(condition=Q(number__lt=MAX_SEATS), name="at_most_8_seats"),
            models.CheckConstraint(
                condition=Q(user__isnull=False)
                | ~Q(bot_name="")
                | (Q(held_by__isnull=False) & ~Q(local_name=""))
                | Q(left_at__isnull=False),
                name="seat_person_local_bot_or_left",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number + 1} at table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None and self.held_by_id is None and self.left_at is None

    @property
    def has_left(self) -> bool:
        """The person left and nobody took the seat: play passes it by."""
        return self.left_at is not None

    @property
    def is_local(self) -> bool:
        """A player on another account's device (pass and play)."""
        return self.held_by_id is not None

    @property
    def public_name(self) -> str:
        if self.is_local:
            return self.local_name
        if self.has_left:
            return "A player who left"
        if self.is_bot:
            return bot_public_name(self.bot_name, self.bot_level)
        return self.user.public_name


class TableSocket(models.Model):
    """A websocket open on a table's page (play/presence.py). While one is, the table's
    moves are pushed, and a player with one is at the table: not told of their turn."""

    # Not indexed alone: the (table, expires_at) index serves every query by table.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="sockets", db_index=False
    )
    seat = models.ForeignKey(
        Seat,
        on_delete=models.CASCADE,
        related_name="sockets",
        null=True,
        blank=True,
        help_text="The player's seat; empty for a spectator's socket.",
    )
    # Whose socket, player or spectator: a member holds a few at most (play/presence.py).
    # Not indexed: sockets are counted by table (the index below), and a user's rows are
    # looked up by user alone only when the user is deleted.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
        db_index=False,
    )
    expires_at = models.DateTimeField(
        help_text="Pushed back by the page's pings; past it the socket no longer counts "
        "(the process that served it is gone)."
    )
    wants_views = models.BooleanField(
        default=False,
        help_text="A player's socket that asked for its own views (?views=1): a move sends "
        "it the view, not the version.",
    )

    class Meta:
        indexes = [models.Index(fields=["table", "expires_at"], name="socket_table_expiry")]

    def __str__(self) -> str:
        return f"Socket on table {self.table_id} ({self.seat or 'a spectator'})"


class Spectator(models.Model):
    """Someone the host invited to watch: they see the spectator's view, nothing more."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="spectators")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="spectator_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} watching table {self.table_id}"


class TableEvent(models.Model):
    """Append-only: what happened, in order, and who may see it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    table_version = models.PositiveIntegerField(help_text="The table version this event made.")
    # "all", or the seats that may see it as ",0,2," so that one LIKE finds a seat's events
    # on SQLite and PostgreSQL alike (see `audience_for` and `visible_to`).
    audience = models.CharField(max_length=40)
    type = models.CharField(max_length=40)
    payload = FastJSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    # The idempotency key of the move that made this event, on its first event only: a
    # retried request finds it here (an applied move's outcome needs nothing more), which
    # spares each move an ActionRequest row.
    # NULL, not "": most events have none, and the index leaves those out.
    request_key = models.CharField(  # noqa: DJ001
        max_length=120, null=True, blank=True, editable=False
    )
    # What that move was (`play.services.action_fingerprint`): the same key sent with
    # another move is refused, not taken for a retry. NULL on keys stored before it was.
    request_fingerprint = models.CharField(  # noqa: DJ001
        max_length=32, null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["table_id", "sequence"]  # the column: see Seat
        constraints = [
            models.UniqueConstraint(fields=["table", "sequence"], name="event_sequence_unique"),
        ]
        indexes = [
            models.Index(
                fields=["table", "request_key"],
                condition=Q(request_key__isnull=False),
                name="event_request_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.type} (table {self.table_id})"


EVERYONE = "all"


def audience_for(audience) -> str:
    """Encode an engine event's audience ("all" or seat numbers) for the event log."""
    if audience == EVERYONE:
        return EVERYONE
    return "," + ",".join(str(seat) for seat in sorted(audience)) + ","


def visible_to(player: int | None) -> Q:
    """Events a seat (or a spectator, None) may see."""
    everyone = Q(audience=EVERYONE)
    if player is None:
        return everyone
    return everyone | Q(audience__contains=f",{player},")


# A notebook's marks: a game's page may keep a player's ticks there (a deduction grid).
MAX_MARKS_BYTES = 20_000


class Notebook(models.Model):
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="notebook")
    text = models.TextField(blank=True, max_length=50_000)
    marks = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the player marked on the game's own note sheet (a grid), by the "
        "page's keys; at most MAX_MARKS_BYTES as JSON.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Notebook of {self.seat}"


class ActionRequest(models.Model):
    """The first outcome of an idempotency key, given again when a request is retried: of
    a refused move, or of an applied one that made no event (the others keep their key on
    their first event, TableEvent.request_key)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="action_requests")
    # The actor's key: "seat2:<client key>" (a person's), "bot2:<server key>" (a computer
    # player's) or "system:<task key>", so keys of different players never collide, and
    # no key a person sends is ever one the server uses (play.services.moves._actor_key).
    key = models.CharField(max_length=120)
    # What the request asked for (`play.services.action_fingerprint`); "" on keys stored
    # before it was kept, which then match any move.
    fingerprint = models.CharField(max_length=32, blank=True, default="", editable=False)
    outcome = FastJSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key} at table {self.table_id}"


class TableAttempt(models.Model):
    """Answers a game asked the server to judge (its site files them as the case's answer
    attempt), and their judging: the rules' request number ties the verdicts back."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="attempts")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="attempts")
    request = models.PositiveIntegerField(help_text="The engine's number for this judging.")
    kind = models.CharField(max_length=10, help_text="What is judged, in the game's words.")
    attempt = models.OneToOneField(
        AnswerAttempt, on_delete=models.CASCADE, related_name="table_attempt"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "request"], name="one_attempt_per_request"),
        ]

    def __str__(self) -> str:
        return f"Request {self.request} ({self.kind}) at table {self.table_id}"
