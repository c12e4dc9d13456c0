"""The table pages: my tables, joining, the lobby and the game.

Thin: services write, selectors read. Every piece of game data on these pages comes from
`selectors.table_view` for the requesting member (plus the case's public introduction and
questions, and the solution when the view allows it); the helpers at the bottom only
arrange that view for the templates.

Live updates: the page's `#live` region is re-fetched from `table_live` when the websocket
says a new version exists, or by polling when the socket is down. `table_live` answers 204
when the client already has the current version, so polling costs one small query.
"""

import json
import uuid
from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from cases import selectors as case_selectors

from . import selectors, services
from .forms import ANSWER_PREFIX, ActionForm, ColourForm, NotebookForm, TableCreateForm
from .models import Colour, TableStatus

# --- My tables, creating and joining ---------------------------------------------------


@login_required
@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    my_tables = selectors.tables_for_user(user=request.user)[:100]
    return render(request, "play/tables.html", {"tables": my_tables})


@login_required
@require_POST
def table_create(request: HttpRequest, slug: str) -> HttpResponse:
    version = case_selectors.published_version_for_slug(slug)
    form = TableCreateForm(request.POST)
    form.is_valid()  # three check boxes: anything unticked or odd is simply False
    try:
        table = services.table_create(
            host=request.user, case_version=version, options=form.cleaned_data
        )
    except services.TableError as error:
        messages.error(request, str(error))
        return redirect("cases:detail", slug)
    return redirect("play:table", table.pk)


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """GET shows which table the invite opens (joining is a write: it needs the button)."""
    table = selectors.table_for_invite(invite_code=code)
    if request.method == "POST" and table is not None:
        try:
            seat = services.table_join(invite_code=code, user=request.user)
        except services.TableError as error:
            messages.error(request, str(error))
        else:
            return redirect("play:table", seat.table_id)
    if table is not None and table.seats.filter(user=request.user).exists():
        return redirect("play:table", table.pk)
    return render(request, "play/join.html", {"table": table, "code": code}, status=200)


# --- The table page and its live region -----------------------------------------------


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    context = table_context(request, membership)
    context["notebook"] = selectors.notebook_text(membership=membership)
    return render(request, "play/table.html", context)


@login_required
@require_GET
def table_live(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live region. `since` is the version the client shows: 204 while it is current.
    `status` is the status it shows: a lobby that became a game needs the whole page."""
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    current = membership.table
    if request.GET.get("since") == str(current.version):
        return HttpResponse(status=204)
    shown_status = request.GET.get("status")
    if shown_status and shown_status != current.status and shown_status == TableStatus.LOBBY:
        return HttpResponseClientRefresh() if request.htmx else redirect("play:table", table_id)
    response = render(request, "play/_live.html", table_context(request, membership))
    response["Cache-Control"] = "private, no-cache"
    return response


def _after_write(request: HttpRequest, table_id: int, *, error: str | None = None):
    """htmx: the fresh live region (with the refusal, if any). Otherwise: back to the page."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("play:table", table_id)
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    return render(request, "play/_live.html", table_context(request, membership, error=error))


@login_required
@require_POST
def table_colour(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    form = ColourForm(request.POST)
    error = None
    if not form.is_valid():
        error = "Choose one of the pawn colours."
    else:
        try:
            services.seat_choose_colour(
                table_id=table_id, user=request.user, colour=form.cleaned_data["colour"]
            )
        except services.TableError as refusal:
            error = str(refusal)
    return _after_write(request, table_id, error=error)


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    selectors.membership_for(table_id=table_id, user=request.user)
    try:
        services.table_leave(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    messages.info(request, "You have left the table.")
    target = reverse("play:tables")
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    if membership.table.host_id != request.user.pk:
        raise PermissionDenied("Only the host can start the game.")
    try:
        services.table_start(table_id=table_id, user=request.user)
    except services.TableError as refusal:
        return _after_write(request, table_id, error=str(refusal))
    # The page changes from lobby to game: reload it whole.
    return HttpResponseClientRefresh() if request.htmx else redirect("play:table", table_id)


@login_required
@require_POST
def table_act(request: HttpRequest, table_id: int) -> HttpResponse:
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    if membership.seat is None:
        raise PermissionDenied("Spectators cannot make moves.")
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _after_write(request, table_id, error="This move could not be read.")
    error = None
    try:
        result = services.game_apply_action(
            table_id=table_id,
            player=membership.seat.number,
            action=form.to_action(),
            expected_version=form.cleaned_data.get("expected_version"),
            idempotency_key=form.cleaned_data.get("key") or None,
        )
    except services.StaleVersion:
        error = "The table moved on while you were deciding. Here it is now: choose again."
    except services.TableError as refusal:
        error = str(refusal)
    else:
        if not result.applied:
            error = result.refusal.message
    return _after_write(request, table_id, error=error)


@login_required
@require_POST
def table_notebook(request: HttpRequest, table_id: int) -> HttpResponse:
    """Save the notebook: JSON for the page's script (saved as you type), or a redirect."""
    membership = selectors.membership_for(table_id=table_id, user=request.user)
    if membership.seat is None:
        raise PermissionDenied("Only players keep a notebook.")
    form = NotebookForm(request.POST)
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    error = None
    if not form.is_valid():
        error = "A notebook holds at most 50,000 characters."
    else:
        try:
            services.notebook_write(
                table_id=table_id, user=request.user, text=form.cleaned_data["text"]
            )
        except (services.TableError, ValidationError) as refusal:
            error = refusal.messages[0] if isinstance(refusal, ValidationError) else str(refusal)
    if wants_json:
        if error:
            return JsonResponse({"saved": False, "error": error}, status=409)
        return JsonResponse({"saved": True})
    if error:
        messages.error(request, error)
    else:
        messages.success(request, "Notebook saved.")
    return redirect("play:table", table_id)


# --- Arranging a member's view for the templates -----------------------------------------
# Everything below reads `view` (selectors.table_view) and the table's public facts only.

CHARACTER_ACTIONS = {
    "toby": "Place Toby on a location instead of carriages: he counts as 2, and 2 more in "
    "the solving order at 221B. Usable every round, in your own zone.",
    "mrs_hudson": "At 221B, be judged first, before the carriage order.",
    "irene_adler": "Reveal during a visiting phase: in the coming investigation nobody else "
    "may write in their notebook (players at 221B excepted).",
    "wiggins": "Copy the action of a character another player has revealed.",
    "mycroft": "Reveal during a visiting phase: in the coming investigation, also read one "
    "location nobody holds.",
    "lestrade": "Take one police token and one call-off token from the stock.",
    "mary_morstan": "Visit a location another player holds without bidding; you both read it.",
    "billy": "This round, visit a location under police watch, or a locked one, without a "
    "call-off or lockpick.",
}
CHARACTER_NAMES = {
    "toby": "Toby",
    "mrs_hudson": "Mrs Hudson",
    "irene_adler": "Irene Adler",
    "wiggins": "Wiggins",
    "mycroft": "Mycroft Holmes",
    "lestrade": "Inspector Lestrade",
    "mary_morstan": "Mary Morstan",
    "billy": "Billy the page",
}
ICONS = {
    "police": ("Police", "gives a police token"),
    "call_off": ("Call-off", "gives a call-off token"),
    "lockpick": ("Lockpick", "gives a lockpick"),
    "carriages": ("Carriages", "gives carriages"),
    "no_watson": ("No Watson", "Watson cannot read it"),
    "no_police": ("No police", "no police token may be left here"),
    "locked": ("Locked", "needs a lockpick to read"),
}
PHASES = {"visiting": "Visiting", "investigation": "Investigation", "over": "Game over"}
# Moves whose meaning depends on the board as the player saw it: they carry the version,
# and a move made on an out-of-date board is refused as stale. The others (reading,
# answering, rulings...) are checked by the engine against the current state alone, so
# simultaneous players do not trip over each other's versions.
VERSIONED_ACTIONS = {"visit", "take_watson", "carriage_stop", "baker_street"}


def table_context(request: HttpRequest, membership, *, error: str | None = None) -> dict:
    view = selectors.table_view(membership=membership)
    table = membership.table
    seats = {seat["number"]: _seat(seat) for seat in view["seats"]}
    context = {
        "table": table,
        "view": view,
        "error": error,
        "is_host": table.host_id == request.user.pk,
        "seat_list": list(seats.values()),
        "you": view["you"],
        "case_version": table.case_version,
        "live_url": reverse("play:table-live", args=[table.pk]),
        "act_url": reverse("play:table-act", args=[table.pk]),
        "answer_prefix": ANSWER_PREFIX,
    }
    if view["status"] == TableStatus.LOBBY:
        context["lobby"] = _lobby(request, table, view, seats)
    elif view["game"] is not None:
        context["game"] = _game(view, seats)
        context["debrief"] = selectors.table_debrief(membership=membership, view=view)
    return context


def _seat(seat: dict) -> dict:
    label = Colour(seat["colour"]).label  # "Red (R)"
    return {
        **seat,
        "colour_name": label.split(" (")[0],
        "letter": label[-2],
    }


def _lobby(request, table, view: dict, seats: dict) -> dict:
    taken = {seat["colour"]: seat for seat in seats.values()}
    version = table.case_version
    return {
        "colours": [
            {
                "value": value,
                "label": label,
                "letter": label[-2],
                "holder": taken.get(value),
            }
            for value, label in Colour.choices
        ],
        "invite_url": request.build_absolute_uri(reverse("play:join", args=[table.invite_code])),
        "options": [
            (TableCreateForm.base_fields[name].label, bool(table.options.get(name)))
            for name in ("casebook", "random_start", "play_on")
        ],
        "min_players": version.min_players,
        "max_players": version.max_players,
        "can_start": version.min_players <= len(seats) <= version.max_players,
    }


def _game(view: dict, seats: dict) -> dict:
    game = view["game"]
    me = view["you"]["seat"]
    locations = {loc["number"]: loc for loc in game["locations"]}
    zone_names = (game["zones"] or {}).get("names") or {}
    players = [_player(player, seats, locations, me, zone_names) for player in game["players"]]
    mine = players[me] if me is not None else None
    controls = _controls(game, mine, locations, view["version"])
    questions = {q["id"]: q["ask"] for q in game["questions"]}
    you = game.get("you")
    return {
        "round": game["round"],
        "phase": game["phase"],
        "phase_label": PHASES.get(game["phase"], game["phase"]),
        "step": game["step"],
        "players": players,
        "me": mine,
        "locations": [
            _location(loc, seats, controls["visits"], zone_names) for loc in game["locations"]
        ],
        "carriage_stop": [seats[s] for s in game["carriage_stop"]],
        "baker_street": [players[s] for s in game["baker_street"]],
        "watson_holder": players[game["watson"]["holder"]]
        if game["watson"]["holder"] is not None
        else None,
        "watson_read": game["watson"]["read"],
        "stock": game["stock"],
        "zones": game["zones"],
        "status": _status_sentence(game, players, me),
        "announce": _announcement(game, players, me),
        "judging": [
            {**request, "who": players[request["player"]]}
            for request in game["judging"]
            if request["status"] != "judged"
        ],
        "controls": controls,
        "you": you,
        "character": _your_character(you),
        "questions": game["questions"],
        "answers": _your_answers(you, questions),
        "rulings": _rulings(you, controls["rule"], players, questions),
        "holmes": _holmes_results(you, players, questions),
        "result": _result(game, players),
        "holmes_available": game["holmes_available"],
        "revealed": [p for p in players if p["character"]],
        "question_count": len(game["questions"]),
    }


def _player(player: dict, seats: dict, locations: dict, me, zone_names: dict) -> dict:
    pawn = player["pawn"]
    if pawn is None:
        where = "not placed yet"
    elif pawn == "221B":
        where = "221B Baker Street"
    elif pawn == "carriage_stop":
        where = "the Carriage Stop"
    else:
        where = f"{pawn} · {locations[pawn]['name']}" if pawn in locations else str(pawn)
    return {
        **player,
        "seat_info": seats[player["seat"]],
        "is_you": player["seat"] == me,
        "where": where,
        "zone_name": zone_names.get(player["zone"], player["zone"]),
        "character_name": CHARACTER_NAMES.get(player["character"]),
    }


def _location(loc: dict, seats: dict, visits: dict, zone_names: dict) -> dict:
    return {
        **loc,
        "zone_name": zone_names.get(loc["zone"], loc["zone"]),
        "pawn_seat": seats.get(loc["pawn"]) if loc["pawn"] is not None else None,
        "guest_seats": [seats[g] for g in loc["guests"]],
        "icon_list": [
            {
                "key": icon,
                "label": ICONS.get(icon, (icon, ""))[0]
                + (f" +{loc['icon_carriages']}" if icon == "carriages" else ""),
                "title": ICONS.get(icon, ("", icon))[1],
            }
            for icon in loc["icons"]
        ],
        "visits": visits.get(loc["number"], []),
    }


def _control(action: dict, label: str, version: int, **extra) -> dict:
    """One legal action as a form: the action itself, a fresh idempotency key, and the
    version for moves that depend on the board."""
    return {
        "action": json.dumps(action, separators=(",", ":")),
        "label": label,
        "key": uuid.uuid4().hex,
        "version": version if action["type"] in VERSIONED_ACTIONS else None,
        "id": "act-" + "-".join(str(v) for v in action.values() if not isinstance(v, dict)),
        **extra,
    }


def _controls(game: dict, mine: dict | None, locations: dict, version: int) -> dict:
    by_type = defaultdict(list)
    for action in game.get("legal_actions") or []:
        by_type[action["type"]].append(action)
    carriages = mine["carriages"] if mine else 0
    visits = defaultdict(list)
    for action in by_type["visit"]:
        visits[action["location"]].append(_visit_control(action, locations, carriages, version))

    def where(number):
        return f"{number} · {locations[number]['name']}"

    turn = []
    for action in by_type["take_watson"]:
        turn.append(_control(action, "Take the Watson card (4 carriages)", version))
    for action in by_type["carriage_stop"]:
        turn.append(_control(action, "Go to the Carriage Stop (+3 carriages)", version))
    for action in by_type["baker_street"]:
        label = "Go to 221B Baker Street to solve"
        if action.get("character") == "toby":
            label = "Go to 221B with Toby (+2 in the solving order)"
        turn.append(_control(action, label, version))
    reading = [
        _control(a, f"Leave your police token on {where(a['location'])}", version)
        for a in by_type["place_police"]
    ]
    reading += [
        _control(a, f"Mycroft: also read {where(a['location'])}", version)
        for a in by_type["mycroft_read"]
    ]
    reading += [_control(a, "I have finished reading", version) for a in by_type["done_reading"]]
    character = [
        _control(a, f"Use {CHARACTER_NAMES.get(a['character'], a['character'])}", version)
        for a in by_type["character"]
    ]
    character += [
        _control(a, "Discard your character for 3 carriages", version)
        for a in by_type["discard_character"]
    ]
    check_questions = [a["question"] for a in by_type["holmes_check"]]
    return {
        "visits": visits,
        "turn": turn,
        "watson": [
            _control(a, f"Read {where(a['location'])} aloud", version)
            for a in by_type["watson_read"]
        ],
        "reading": reading,
        "answer": _control(by_type["answer"][0], "Give these answers", version)
        if by_type["answer"]
        else None,
        "character": character,
        "consult": [
            _control(
                a,
                f"Consult {game['players'][a['target']]['name']}'s answers (3 carriages)",
                version,
            )
            for a in by_type["holmes_consult"]
        ],
        "check": _control({"type": "holmes_check"}, "Ask Sherlock (3 carriages)", version)
        if check_questions
        else None,
        "check_questions": check_questions,
        "rule": by_type["rule"],
        "any": any(by_type[kind] for kind in by_type if kind != "note"),
    }


def _visit_control(action: dict, locations: dict, carriages: int, version: int) -> dict:
    loc = locations[action["location"]]
    held = loc["pawn"] is not None
    minimum = action.get("carriages")
    if action.get("character") == "toby":
        label = "Send Toby (counts as 2)"
    elif action.get("character") == "mary_morstan":
        label = "Join with Mary Morstan"
    elif held:
        label = "Outbid"
    else:
        label = "Visit"
    if action.get("call_off"):
        label += " with your call-off token"
    if action.get("character") == "billy":
        label += " with Billy the page"
    return _control(
        action,
        label,
        version,
        bid=minimum is not None,
        minimum=minimum or 0,
        maximum=max(carriages, minimum or 0),
        held=held,
    )


def _status_sentence(game: dict, players: list, me) -> str:
    phase, step = game["phase"], game["step"]
    if phase == "over":
        return _result(game, players)["sentence"]
    if phase == "visiting" and game["turn"] is not None:
        if game["turn"] == me:
            return "It is your turn: place your pawn."
        return f"It is {players[game['turn']]['name']}'s turn to place a pawn."
    waiting = [players[s] for s in game["waiting_for"]]
    if step == "watson":
        holder = players[game["watson"]["holder"]]
        if holder["is_you"]:
            return "You hold Watson: choose a card to read aloud."
        return f"{holder['name']} holds Watson and chooses a card to read aloud."
    if step == "reading":
        if me is not None and me in game["waiting_for"]:
            return "Read your card, then say you have finished."
        names = _names([p["name"] for p in waiting])
        return f"Waiting for {names} to finish." if names else "Everyone has finished reading."
    if step == "solving" or game["judging"]:
        return "Sherlock Holmes is judging the answers given at 221B."
    return "The game goes on."


def _announcement(game: dict, players: list, me) -> str:
    """What a screen reader hears when it changes: the round, phase and whose move."""
    return f"Round {game['round']}, {PHASES.get(game['phase'], '')}. " + _status_sentence(
        game, players, me
    )


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _your_character(you: dict | None) -> dict | None:
    if not you or not you.get("character"):
        return None
    key = you["character"]
    return {
        "key": key,
        "name": you.get("character_name") or CHARACTER_NAMES.get(key, key),
        "state": you.get("character_state"),
        "action": CHARACTER_ACTIONS.get(key, ""),
    }


def _your_answers(you: dict | None, questions: dict) -> list[dict]:
    """The answers this player wrote at 221B (their own; nobody else's are ever shown)."""
    you = you or {}
    written = you.get("answers") or (you.get("attempt") or {}).get("answers") or {}
    return [
        {"ask": ask, "answer": written[qid]} for qid, ask in questions.items() if qid in written
    ]


def _rulings(you, rule_actions: list, players: list, questions: dict) -> list[dict]:
    if not you or not you.get("rulings"):
        return []
    rulings = []
    for ruling in you["rulings"]:
        verdicts = [a for a in rule_actions if a["request"] == ruling["request"]]
        rulings.append(
            {
                **ruling,
                "who": players[ruling["player"]],
                "ask": questions.get(ruling["question"], ruling["question"]),
                "controls": [
                    _control(a, "Right" if a["verdict"] == "correct" else "Wrong", 0)
                    for a in verdicts
                ],
            }
        )
    return rulings


def _holmes_results(you, players: list, questions: dict) -> dict:
    holmes = (you or {}).get("holmes") or {}
    consult = holmes.get("consult")
    check = holmes.get("check")
    return {
        "consult": {
            **consult,
            "who": players[consult["target"]],
            "answers": [
                {"ask": questions.get(qid, qid), "answer": answer}
                for qid, answer in consult["answers"].items()
            ],
        }
        if consult
        else None,
        "check": {**check, "ask": questions.get(check["question"], check["question"])}
        if check
        else None,
    }


def _result(game: dict, players: list) -> dict:
    result = game.get("result")
    if not result:
        return {"over": False, "sentence": ""}
    winners = [players[s] for s in result["winners"]]
    if winners:
        names = _names(["you" if p["is_you"] else p["name"] for p in winners])
        sentence = f"The case is solved: {names} won in {result['rounds']} rounds."
        if len(winners) == 1 and winners[0]["is_you"]:
            sentence = f"You solved the case in {result['rounds']} rounds!"
    else:
        sentence = "Nobody solved the case: London's criminals sleep soundly tonight."
    return {"over": True, "sentence": sentence, "winners": winners, "kind": result["kind"]}
