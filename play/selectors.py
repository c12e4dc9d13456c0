"""Reads for tables. Every function costs a fixed number of queries, whatever the length of
a game's history or the number of players."""

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Avg, Count, DurationField, F, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone
from django.utils.html import format_html

from accounts.models import User, name_key
from cases.markdown import focusable_code_blocks, render_markdown
from cases.models import CaseVersion
from games import GAMES, get_rules
from games.base import DEFAULT_BOT_LEVEL
from games.sites import get_site
from games.words import names_sentence
from holmes_site.safe_input import text_refusal

from .models import (
    Notebook,
    Seat,
    Spectator,
    Table,
    TableEvent,
    TableSocket,
    TableStatus,
    invite_code_typed,
    visible_to,
)


@dataclass(frozen=True)
class Membership:
    """Who the user is at a table: a seat (a player), a spectator, or nobody."""

    table: Table
    seat: Seat | None
    spectator: bool
    user_id: int | None = None  # a spectator's (a seat knows its own user)

    @property
    def player(self) -> int | None:
        return self.seat.number if self.seat else None


def tables_for_user(*, user) -> QuerySet[Table]:
    # A list shows what the row says of the table, never the game: the state stays unread.
    return (
        Table.objects.filter(seats__user=user)
        .defer("state", "fixed_state")
        .select_related("case_version__case", "host")
        .order_by("-created_at")
        .distinct()
    )


@dataclass(frozen=True)
class ListedTable:
    """A line of My tables (the page and GET /api/tables/): the table, and where its game
    stands for this user. Public facts only: what the table's summary says of it."""

    table: Table
    your_seat: int | None
    your_turn: bool
    waiting_for: list[int]  # the seats the game waits for, yours among them if it is
    waiting_names: list[str]  # whose move the game waits for, when it is not yours alone
    round: int | None

    @property
    def waiting_sentence(self) -> str:
        if not self.waiting_names:
            return ""
        others = names_sentence(self.waiting_names)
        return f"{others} to move too" if self.your_turn else f"Waiting for {others}"


def my_tables(*, user, limit: int = 100) -> list[ListedTable]:
    """The user's newest tables, those waiting on their move first: one query, read from
    each table's summary (kept up to date by the moves), never from its state."""
    my_seat = Seat.objects.filter(table=OuterRef("pk"), user=user).values("number")[:1]
    tables = tables_for_user(user=user).annotate(my_seat=Subquery(my_seat))[:limit]
    listed = [_listed(table) for table in tables]
    return sorted(listed, key=lambda line: not line.your_turn)  # stable: newest first


def _listed(table: Table) -> ListedTable:
    summary = table.summary or {}
    playing = table.status == TableStatus.PLAYING
    waiting = summary.get("waiting_for", []) if playing else []
    names = {seat["number"]: seat["name"] for seat in summary.get("seats", [])}
    return ListedTable(
        table=table,
        your_seat=table.my_seat,
        your_turn=table.my_seat in waiting,
        waiting_for=list(waiting),
        waiting_names=[names[n] for n in waiting if n in names and n != table.my_seat],
        round=summary.get("round") if playing else None,
    )


def membership_for(*, table_id: int, user, notebook: bool = False) -> Membership:
    """The user's place at a table; 404 for a table they neither sit at nor watch.

    A table a user has no part in answers 404, like a missing one, so its existence
    does not leak. (Joining goes by invite code, not by table id.) For the pages: the
    table comes with its case version, case and host. `notebook`: a player's notebook
    comes in the same query, for a page that shows it (the table page, a move's answer).
    """
    related = ["table__case_version__case", "table__host"]
    if notebook:
        related.append("notebook")
    return _membership(
        table_id=table_id,
        user=user,
        seats=Seat.objects.select_related(*related),
        tables=Table.objects.select_related("case_version", "case_version__case", "host"),
    )


def api_membership_for(*, table_id: int, user, state: bool = True) -> Membership:
    """`membership_for` for the API and the websocket, which need less: a player's seat,
    their notebook and the table in one query, without the case version, case and host
    rows (`table_view` takes the case's title and the seat names from `Table.summary`).

    `state=False` leaves the engine state unread, for a move: the write path reads the
    row again under lock, and parsing the state twice would be wasted.
    """
    seats = Seat.objects.select_related("table", "notebook")
    tables = Table.objects.all()
    if not state:
        seats = seats.defer("table__state", "table__fixed_state")
        tables = tables.defer("state", "fixed_state")
    return _membership(table_id=table_id, user=user, seats=seats, tables=tables)


def _membership(*, table_id: int, user, seats: QuerySet, tables: QuerySet) -> Membership:
    if user.is_authenticated:
        # Players are most of the traffic: their seat and its table come in one query.
        # Sliced, not `.first()`: no ORDER BY to build for a row that is unique anyway.
        found = list(seats.filter(table_id=table_id, user=user).order_by()[:1])
        if found:
            return Membership(table=found[0].table, seat=found[0], spectator=False)
    table = next(iter(tables.filter(pk=table_id)[:1]), None)
    if table is None or not user.is_authenticated:
        raise Http404("No such table.")
    seat = Seat.objects.filter(table=table, user=user).first()
    spectator = (
        seat is None
        and not table.is_private
        and Spectator.objects.filter(table=table, user=user).exists()
    )
    if seat is None and not spectator:
        raise Http404("No such table.")
    return Membership(table=table, seat=seat, spectator=spectator, user_id=user.pk)


# --- Table.summary: the public facts of a table that views show, kept on its row ------


def seats_summary(*, table: Table, seats: list[Seat] | None = None) -> list[dict]:
    """The seats as views list them (`seats`, with their users, or read from the table).
    Fixed once the game starts (no joining, leaving or choosing colours then), like the
    names the engine was given."""
    if seats is None:
        seats = table.seats.select_related("user").order_by("number")
    return [
        {
            "number": s.number,
            "name": s.public_name,
            "colour": s.colour,
            "bot": s.is_bot,
            # A computer player's strength (easy, normal, expert); None for a person.
            "level": (s.bot_level or DEFAULT_BOT_LEVEL) if s.is_bot else None,
        }
        for s in seats
    ]


def table_view(*, membership: Membership) -> dict:
    """What this member may see of the table now: the rules' view, plus the table's
    public facts. The only source of game data that leaves the server."""
    table = membership.table
    summary = table.summary or {}
    # Read from the summary, written by table_create and table_start: no query for the
    # case or the seats. A lobby's seats change with every join, so they are read.
    seats = summary.get("seats") if table.status != TableStatus.LOBBY else None
    if seats is None:
        seats = seats_summary(table=table)
    result = {
        "table": table.pk,
        "version": table.version,
        "status": table.status,
        "engine": table.engine,
        "title": summary.get("title", ""),
        "case": dict(summary["case"]) if summary.get("case") else None,
        "case_version": table.case_version_id,
        "seats": [dict(seat) for seat in seats],
        "you": {"seat": membership.player, "spectator": membership.spectator},
        "deadline_at": table.deadline_at.isoformat() if table.deadline_at else None,
        "seconds_left": _seconds_left(table.deadline_at),
        "outcome": table.outcome,
        "game": None,
    }
    if table.state is not None:
        rules = get_rules(table.engine)
        game = rules.view(table.state, membership.player)
        if membership.player is not None:
            # What this player may do now, so clients offer only legal moves.
            game["legal_actions"] = rules.legal_actions(table.state, membership.player)
        site = get_site(table.engine)
        extras = site.view_extras(
            case_version_id=table.case_version_id,
            game_view=game,
            may_reveal_case=lambda: _may_reveal_case(membership),
        )
        # Kept from this viewer, the case's solution takes every answer and verdict with it.
        result["game"] = site.view_withheld(game) if extras.get("solution_withheld") else game
        result.update(extras)
    return result


def _may_reveal_case(membership: Membership) -> bool:
    """Whether this table may show its viewer the case's secrets (its solution) when the
    game allows: not while they play the same case at another table, which could then be
    won by reading this one. Asked only when the game would show them (one query, two
    for a host).
    A local player's seat (pass and play) is read on its holder's device: the holder is
    the one who would read it, so neither while the device holds a seat that still plays
    this table."""
    table = membership.table
    seat = membership.seat
    user_id = (seat.user_id or seat.held_by_id) if seat else membership.user_id
    if table.case_version_id is None or user_id is None:
        return True
    if seat is not None and _device_holds_a_seat_in_play(table, seat, user_id):
        return False
    elsewhere = case_in_play_for(
        user_id=user_id, case_version_id=table.case_version_id, besides=table.pk
    )
    return elsewhere is None


def _device_holds_a_seat_in_play(table: Table, seat: Seat, holder_id: int) -> bool:
    """Whether the device showing `seat` holds another seat at the table that the game
    does not show the case to (pass and play: the host's own, or a local player's, still
    investigating). Only the host holds seats besides their own: one query for theirs."""
    if table.host_id != holder_id or table.status != TableStatus.PLAYING or table.state is None:
        return False
    held = Seat.objects.filter(Q(user_id=holder_id) | Q(held_by_id=holder_id), table=table)
    numbers = held.exclude(pk=seat.pk).values_list("number", flat=True)
    site = get_site(table.engine)
    return any(not site.shows_case_to(table.state, number) for number in numbers)


def case_in_play_for(*, user_id: int, case_version_id: int, besides: int | None = None):
    """The id of a running table of this version's case (any version of it) where the
    user holds a seat, other than `besides`; None when there is none."""
    case = CaseVersion.objects.filter(pk=case_version_id).values("case_id")
    tables = Table.objects.filter(
        status=TableStatus.PLAYING, case_version__case_id__in=case, seats__user_id=user_id
    )
    if besides is not None:
        tables = tables.exclude(pk=besides)
    return next(iter(tables.order_by("pk").values_list("pk", flat=True)[:1]), None)


def _seconds_left(deadline) -> int | None:
    if deadline is None:
        return None
    return max(0, round((deadline - timezone.now()).total_seconds()))


def visible_events(*, membership: Membership, after: int = 0, limit: int = 200) -> list[TableEvent]:
    """The table's events this member may see, oldest first: none that quotes the case's
    answers while the case is withheld from them (as `table_view` withholds it)."""
    events = TableEvent.objects.filter(table=membership.table, sequence__gt=after).filter(
        visible_to(membership.player)
    )
    withheld = _withheld_events(membership)
    if withheld:
        events = events.exclude(type__in=withheld)
    return list(events.order_by("sequence")[:limit])


def _withheld_events(membership: Membership) -> frozenset[str]:
    """The event types the member's history leaves out: the site's that quote answers or
    verdicts, when the game would show the member the case but the site may not."""
    table = membership.table
    site = get_site(table.engine)
    if not site.withheld_events or table.state is None:
        return frozenset()
    if not site.shows_case_to(table.state, membership.player) or _may_reveal_case(membership):
        return frozenset()
    return site.withheld_events


def may_write_notes(*, table: Table, player: int) -> bool:
    """Whether the rules let this seat write notes now (a game may forbid it for a while)."""
    return get_rules(table.engine).may_write_notes(table.state, player)


def event_reader(*, membership: Membership):
    """A reader of the log for the game's page (games.sites.EventReader): the events of
    given types this member may see, oldest first, as (type, data)."""

    def read(types) -> list[tuple[str, dict]]:
        return list(
            TableEvent.objects.filter(table=membership.table, type__in=list(types))
            .filter(visible_to(membership.player))
            .order_by("sequence")
            .values_list("type", "payload")
        )

    return read


# --- Figures: how tables of a case ended, for the catalogue and the authors -----------


@dataclass(frozen=True)
class CaseFigures:
    plays: int  # finished tables, play-tests left out
    solved: int
    timed: int  # of which this many have a start time
    playing_time: timedelta | None  # their mean length
    rounds_to_solve: dict[int, int]  # rounds → tables solved in that many


def case_figures(*, case_ids: list[int]) -> dict[int, CaseFigures]:
    """How the finished tables of each case ended, read from what each table recorded
    of its outcome (Table.outcome), never from a game's state. Two queries."""
    finished = Table.objects.filter(
        case_version__case_id__in=case_ids, status=TableStatus.FINISHED, is_private=False
    )
    rows = (
        finished.values("case_version__case_id")
        .annotate(
            plays=Count("pk"),
            timed=Count("pk", filter=Q(started_at__isnull=False)),
            playing_time=Avg(F("finished_at") - F("started_at"), output_field=DurationField()),
        )
        .order_by()
    )
    outcomes = defaultdict(list)
    for case_id, outcome in finished.values_list("case_version__case_id", "outcome"):
        outcomes[case_id].append(outcome or {})
    figures = {}
    for row in rows:
        case_id = row["case_version__case_id"]
        solved = [o for o in outcomes[case_id] if o.get("solved")]
        rounds = Counter(o["rounds"] for o in solved if o.get("rounds") is not None)
        figures[case_id] = CaseFigures(
            plays=row["plays"],
            solved=len(solved),
            timed=row["timed"],
            playing_time=row["playing_time"],
            rounds_to_solve=dict(sorted(rounds.items())),
        )
    return figures


MAX_CODE_CHARACTERS = 64  # a code is at most 16 (Table.invite_code); typed, with spaces


def table_for_invite(*, invite_code: str) -> Table | None:
    """The table an invite code opens, with what its join page shows (title, host, seats)."""
    if text_refusal(invite_code, max_length=MAX_CODE_CHARACTERS):
        # No table's code: PostgreSQL refuses NUL in a query's text (a 500 on an invite
        # path holding %00, or a log-in page whose next was one).
        return None
    tables = Table.objects.select_related("case_version", "host").annotate(
        seat_count=Count("seats")
    )
    # As typed (an old, mixed-case code), else as a person reads a short one.
    for code in dict.fromkeys([invite_code, invite_code_typed(invite_code)]):
        table = tables.filter(invite_code=code, is_private=False).first()
        if table is not None:
            return table
    return None


def table_for_outsider(*, table_id: int) -> Table | None:
    """A table as someone who is not at it sees its address: the facts its invite page
    shows (title, host, seats), never its state."""
    tables = (
        Table.objects.select_related("case_version", "host")
        .defer("state", "fixed_state")
        .annotate(seat_count=Count("seats"))
    )
    return tables.filter(pk=table_id).first()


def notebook_marks(*, membership: Membership) -> dict | None:
    """This member's marks on the game's note sheet (None for a spectator)."""
    if membership.seat is None:
        return None
    if Seat.notebook.is_cached(membership.seat):  # read with the seat (membership_for)
        notebook = getattr(membership.seat, "notebook", None)
        if notebook is None:
            return {}
        if "marks" not in notebook.get_deferred_fields():  # the write path reads none
            return notebook.marks or {}
    marks = Notebook.objects.filter(seat=membership.seat).values_list("marks", flat=True).first()
    return marks or {}


def notebook_text(*, membership: Membership) -> str | None:
    """This member's own notebook (None for a spectator, who keeps none)."""
    if membership.seat is None:
        return None
    if Seat.notebook.is_cached(membership.seat):  # read with the seat (api_membership_for)
        notebook = getattr(membership.seat, "notebook", None)
        return notebook.text if notebook else ""
    text = Notebook.objects.filter(seat=membership.seat).values_list("text", flat=True).first()
    return text or ""


# --- The games' rules pages ----------------------------------------------------------------

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


API_MOVES_DIR = Path(settings.BASE_DIR) / "docs" / "api"


def rules_page_html(*, name: str) -> str:
    """A game's rules page (docs/rules/<name with dashes>.md), rendered."""
    return _doc_page_html(RULES_DIR, name, missing="This game has no rules page yet.")


def api_moves_page_html(*, name: str) -> str:
    """A game's moves for API clients (docs/api/<name with dashes>.md), rendered."""
    return _doc_page_html(API_MOVES_DIR, name, missing="This game has no page of moves yet.")


def _doc_page_html(directory: Path, name: str, *, missing: str) -> str:
    # Kept per file version, so an edited page shows without a restart.
    path = directory / f"{name.replace('_', '-')}.md"
    try:
        modified = path.stat().st_mtime
    except FileNotFoundError:
        raise Http404(missing) from None
    return _rendered(path, modified)


def game_summary(*, name: str) -> str:
    """A game in one paragraph, for the Games page and the lobby: the rules page's first
    paragraph, so that the game is described in one place."""
    path = RULES_DIR / f"{name.replace('_', '-')}.md"
    try:
        return _summary(path, path.stat().st_mtime)
    except FileNotFoundError:
        return ""


@lru_cache(maxsize=16)
def _summary(path: Path, modified: float) -> str:
    text = path.read_text(encoding="utf-8")
    paragraphs = [block.strip() for block in text.split("\n\n")]
    prose = (p for p in paragraphs if p and not p.startswith(("#", "-", "|", "`", ">")))
    paragraph = " ".join(next(prose, "").split())
    # Plain text: the page shows it as a sentence, not as Markdown.
    return MARKDOWN_EMPHASIS.sub("", MARKDOWN_LINK.sub(r"\1", paragraph))


MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
MARKDOWN_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)|`")


@lru_cache(maxsize=16)
def _rendered(path: Path, modified: float) -> str:
    # The file's "# title" is the page's h1: the Markdown renderer, made for what authors
    # write, keeps no h1 (a case's text sits under the page's own heading).
    text = path.read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    if not first.startswith("# "):
        return focusable_code_blocks(render_markdown(text))
    return format_html(
        "<h1>{}</h1>\n{}",
        first.removeprefix("# ").strip(),
        focusable_code_blocks(render_markdown(rest)),
    )


def invite_code_in_path(path: str) -> str | None:
    """The invite code, when `path` is an invite link of this site; None otherwise."""
    from django.urls import Resolver404, resolve

    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.kwargs["code"] if match.view_name == "play:join" else None


def invite_for_code(code: str) -> dict | None:
    """Who invites to what with this code (the log-in and sign-up pages say so); None for a
    code that opens no table. Telling a real code from a wrong one must be throttled as
    joining is: see accounts/views.py."""
    table = table_for_invite(invite_code=code)
    if table is None:
        return None
    return {"host": table.host.public_name, "title": table.summary.get("title", "")}


def name_taken_at_tables_of(*, user: User, name: str) -> str | None:
    """The public name, as shown, of someone else seated with `user` at a table that has
    not finished and called `name` (compared by `name_key`); None when nobody is. For a
    new display name (accounts asks through accounts.hooks)."""
    tables = Seat.objects.filter(user=user).exclude(table__status=TableStatus.FINISHED)
    others = (
        User.objects.filter(seats__table__in=tables.values("table"))
        .exclude(pk=user.pk)
        .only("username", "display_name")
        .distinct()
    )
    wanted = name_key(name)
    return next(
        (other.public_name for other in others if name_key(other.public_name) == wanted), None
    )


def name_taken_at_table(*, table_id: int, user: User) -> str | None:
    """The public name of someone else seated at the table whose name is `user`'s own
    (compared by `name_key`); None when nobody's is. For joining a table."""
    wanted = name_key(user.public_name)
    seated = Seat.objects.filter(table_id=table_id).exclude(user=user).select_related("user")
    return next(
        # A seat's own name: a computer player or a local player has no account.
        (seat.public_name for seat in seated if name_key(seat.public_name) == wanted),
        None,
    )


def count_open_sockets() -> int:
    """Websockets open on table pages across every node (their rows outlive a process
    that died only until they expire): the operators' `holmes_open_sockets`."""
    return TableSocket.objects.filter(expires_at__gt=timezone.now()).count()


def answer_action_types() -> frozenset[str]:
    """The move types the answer budget counts: each game's site names them (a guess at
    an answer must cost time). The throttles ask (holmes_site.throttling.answers_are)."""
    return frozenset().union(*(get_site(name).throttled_actions for name in GAMES))
