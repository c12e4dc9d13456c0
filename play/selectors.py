"""Reads for tables. Every function costs a fixed number of queries, whatever the length of
a game's history or the number of players."""

from dataclasses import dataclass

from django.db.models import Count, QuerySet
from django.http import Http404

from cases.models import CaseVersion, Location, Question
from games import get_rules

from .models import Notebook, Seat, Spectator, Table, TableEvent, TableStatus, visible_to


@dataclass(frozen=True)
class Membership:
    """Who the user is at a table: a seat (a player), a spectator, or nobody."""

    table: Table
    seat: Seat | None
    spectator: bool

    @property
    def player(self) -> int | None:
        return self.seat.number if self.seat else None


def engine_config_for(*, version: CaseVersion, options: dict) -> dict:
    """The engine's set-up data for a case version: everything but answers and solution."""
    locations = Location.objects.filter(version=version).select_related("zone").order_by("number")
    questions = Question.objects.filter(version=version).order_by("position")
    zones = None
    if version.start_zone:
        zones = {
            "start": version.start_zone,
            "travel_cost": version.travel_cost or 0,
            "names": {zone.key: zone.name for zone in version.zones.order_by("position")},
        }
    start = {
        kind: value
        for kind, value in {
            "carriages": version.start_carriages,
            "police": version.start_police,
            "call_off": version.start_call_off,
            "lockpick": version.start_lockpick,
        }.items()
        if value is not None
    }
    return {
        "case": {
            "locations": [
                {
                    "number": loc.number,
                    "name": loc.name,
                    "text": loc.text,
                    "icons": list(loc.icons),
                    "carriages": loc.icon_carriages,
                    "zone": loc.zone.key if loc.zone else None,
                }
                for loc in locations
            ],
            "questions": [{"id": q.key, "ask": q.ask, "kind": q.kind} for q in questions],
            "zones": zones,
            "start": start,
        },
        "options": dict(options),
    }


def tables_for_user(*, user) -> QuerySet[Table]:
    # A list shows what the row says of the table, never the game: the state stays unread.
    return (
        Table.objects.filter(seats__user=user)
        .defer("state", "fixed_state")
        .select_related("case_version", "host")
        .order_by("-created_at")
        .distinct()
    )


def membership_for(*, table_id: int, user) -> Membership:
    """The user's place at a table; 404 for a table they neither sit at nor watch.

    A table a user has no part in answers 404, like a missing one, so its existence
    does not leak. (Joining goes by invite code, not by table id.) For the pages: the
    table comes with its case version, case and host.
    """
    return _membership(
        table_id=table_id,
        user=user,
        seats=Seat.objects.select_related("table__case_version__case", "table__host"),
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
    return Membership(table=table, seat=seat, spectator=spectator)


# --- Table.summary: the public facts of a table that views show, kept on its row ------


def case_summary(*, version: CaseVersion) -> dict:
    """The case as every view of its tables names it. A version's title and its case's
    slug do not change once it can be played."""
    return {"slug": version.case.slug, "title": version.title}


def seats_summary(*, table: Table, seats: list[Seat] | None = None) -> list[dict]:
    """The seats as views list them (`seats`, with their users, or read from the table).
    Fixed once the game starts (no joining, leaving or choosing colours then), like the
    names the engine was given."""
    if seats is None:
        seats = table.seats.select_related("user").order_by("number")
    return [{"number": s.number, "name": s.user.public_name, "colour": s.colour} for s in seats]


def table_view(*, membership: Membership) -> dict:
    """What this member may see of the table now: the engine's view, plus the table's
    public facts. The only source of game data that leaves the server."""
    table = membership.table
    summary = table.summary or {}
    # Read from the summary, written by table_create and table_start: no query for the
    # case or the seats. A lobby's seats change with every join, so they are read.
    case = summary.get("case") or case_summary(version=table.case_version)
    seats = summary.get("seats") if table.status != TableStatus.LOBBY else None
    if seats is None:
        seats = seats_summary(table=table)
    result = {
        "table": table.pk,
        "version": table.version,
        "status": table.status,
        "engine": table.engine,
        "case": dict(case),
        "seats": [dict(seat) for seat in seats],
        "you": {"seat": membership.player, "spectator": membership.spectator},
        "game": None,
        "solution": None,
    }
    if table.state is not None:
        engine = get_rules(table.engine)
        game = engine.view(table.state, membership.player)
        if membership.player is not None:
            # What this player may do now, so clients offer only legal moves.
            game["legal_actions"] = engine.legal_actions(table.state, membership.player)
        result["game"] = game
        if game.get("may_see_solution"):
            result["solution"] = _solution(table.case_version)
    return result


def _solution(version: CaseVersion) -> dict:
    questions = Question.objects.filter(version=version).order_by("position")
    return {
        "answers": [{"id": q.key, "ask": q.ask, "answer": q.answer} for q in questions],
        "text": version.solution,
    }


def visible_events(*, membership: Membership, after: int = 0, limit: int = 200) -> list[TableEvent]:
    """The table's events this member may see, oldest first."""
    return list(
        TableEvent.objects.filter(table=membership.table, sequence__gt=after)
        .filter(visible_to(membership.player))
        .order_by("sequence")[:limit]
    )


def may_write_notes(*, table: Table, player: int) -> bool:
    """Whether the engine lets this seat write notes now (Irene Adler may forbid it)."""
    return get_rules(table.engine).may_write_notes(table.state, player)


# Event types that are worth a notification, and the notification kind they make.
NOTIFYING_EVENTS = {"went_to_baker_street": "went_to_221b", "game_over": "case_solved"}


def notable_changes(*, engine, before: dict, after: dict, events: list) -> list[tuple[str, dict]]:
    """The notifications a move calls for: (kind, details) pairs."""
    changes = []
    turn_before, turn_after = engine.turn(before), engine.turn(after)
    if turn_after is not None and turn_after != turn_before:
        changes.append(("your_turn", {"player": turn_after}))
    for event in events:
        kind = NOTIFYING_EVENTS.get(event.type)
        if kind and event.audience == "all":
            changes.append((kind, dict(event.data)))
    return changes


# --- Web pages (issue 6): the debrief at the end of a game -----------------------------

# The placements in the event log, public events all: where each pawn went each round.
ROUTE_EVENTS = ("round_started", "visited", "went_to_carriage_stop", "went_to_baker_street")


def table_debrief(*, membership: Membership, view: dict) -> dict | None:
    """Each answer beside the cards that prove it, and each player's route, round by round.

    Only once `view` (this member's `table_view`) carries the solution, so nobody still
    playing learns the evidence. Routes come from events this member may see. Two queries,
    whatever the length of the game.
    """
    if view.get("solution") is None or view.get("game") is None:
        return None
    names = {loc["number"]: loc["name"] for loc in view["game"]["locations"]}
    evidence = dict(
        Question.objects.filter(version_id=membership.table.case_version_id).values_list(
            "key", "evidence"
        )
    )
    answers = [
        {
            **answer,
            "evidence": [
                {"number": number, "name": names.get(number, "")}
                for number in evidence.get(answer["id"], [])
            ],
        }
        for answer in view["solution"]["answers"]
    ]
    return {"answers": answers, "routes": _routes(membership, view, names)}


def _routes(membership: Membership, view: dict, names: dict) -> list[dict]:
    events = (
        TableEvent.objects.filter(table=membership.table, type__in=ROUTE_EVENTS)
        .filter(visible_to(membership.player))
        .order_by("sequence")
        .values_list("type", "payload")
    )
    rounds: dict[int, dict[int, str]] = {}
    current = 1
    for kind, payload in events:
        if kind == "round_started":
            current = payload.get("round", current + 1)
            continue
        if kind == "visited":
            number = payload.get("location")
            place = f"{number} · {names.get(number, '')}"
        elif kind == "went_to_carriage_stop":
            place = "Carriage Stop"
        else:
            place = "221B Baker Street"
        # An outbid player places again: the last placement of a round is where they read.
        rounds.setdefault(current, {})[payload.get("player")] = place
    players = view["game"]["players"]
    return [
        {
            "seat": player["seat"],
            "name": player["name"],
            "stops": [
                {"round": number, "place": rounds[number].get(player["seat"], "—")}
                for number in sorted(rounds)
            ],
        }
        for player in players
    ]


def table_for_invite(*, invite_code: str) -> Table | None:
    """The table an invite code opens, with what its join page shows (title, host, seats)."""
    return (
        Table.objects.select_related("case_version", "host")
        .annotate(seat_count=Count("seats"))
        .filter(invite_code=invite_code, is_private=False)
        .first()
    )


def notebook_text(*, membership: Membership) -> str | None:
    """This member's own notebook (None for a spectator, who keeps none)."""
    if membership.seat is None:
        return None
    if Seat.notebook.is_cached(membership.seat):  # read with the seat (api_membership_for)
        notebook = getattr(membership.seat, "notebook", None)
        return notebook.text if notebook else ""
    text = Notebook.objects.filter(seat=membership.seat).values_list("text", flat=True).first()
    return text or ""
