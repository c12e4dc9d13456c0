"""The Watson & Holmes table page's view-model: a member's view, arranged for the templates.

Everything here reads the member's view (the rules' view, plus the table's public facts)
and the public events, only, so nothing it builds can hold what the member may not see.
"""

from collections import defaultdict

from games.pages import PageContext, moves_by_type, since_your_last_move
from games.watson_holmes.log import PUBLIC_EVENTS, game_log
from games.watson_holmes.rules.state import CHARACTERS as CHARACTER_NAMES
from games.watson_holmes.sentences import CaseNames, headline
from games.words import names_sentence

ANSWER_PREFIX = "answers-"

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


def game_page(context: PageContext) -> dict:
    """A member's view of a Watson & Holmes table (the page kit's ``context``), arranged
    for its templates. The site adds what needs the case's database rows."""
    game, me, seats = context.game, context.me, context.seats
    control = _with_id(context.control)
    locations = {loc["number"]: loc for loc in game["locations"]}
    zone_names = (game["zones"] or {}).get("names") or {}
    players = [
        _player(player, seats, locations, me, zone_names, game["phase"] == "over")
        for player in game["players"]
    ]
    mine = players[me] if me is not None else None
    controls = _controls(game, mine, locations, context.version, control)
    questions = {q["id"]: q["ask"] for q in game["questions"]}
    you = game.get("you")
    log = game_log(game, me, context.happened(PUBLIC_EVENTS))
    locations_shown = [
        _location(loc, seats, controls["visits"], zone_names) for loc in game["locations"]
    ]
    return {
        "round": game["round"],
        "phase": game["phase"],
        "phase_label": PHASES.get(game["phase"], game["phase"]),
        "step": game["step"],
        "players": players,
        "me": mine,
        "locations": locations_shown,
        "location_groups": _location_groups(locations_shown, zone_names),
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
            # A player restating is waited for as a player, not as Sherlock judging.
            if request["status"] not in ("judged", "restating")
        ],
        "controls": controls,
        "you": you,
        "character": _your_character(you),
        "questions": game["questions"],
        "answers": _your_answers(you, questions),
        "answer_fields": _answer_fields(you, game["questions"]),
        "rulings": _rulings(you, controls["rule"], players, questions, control),
        "holmes": _holmes_results(you, players, questions),
        "result": _result(game, players, me),
        "holmes_available": game["holmes_available"],
        "revealed": [p for p in players if p["character"]],
        "question_count": len(game["questions"]),
        "log": log,
        "since": since_your_last_move(_oldest_first(log), me),
    }


def _player(player: dict, seats: dict, locations: dict, me, zone_names: dict, over: bool) -> dict:
    pawn = player["pawn"]
    if pawn is None:
        where = None
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
        "where_sentence": f"At {where}." if where else "Not placed yet.",
        "zone_name": zone_names.get(player["zone"], player["zone"]),
        "character_name": CHARACTER_NAMES.get(player["character"]),
        # At the end, a player still investigating with their pawn at 221B went there and
        # was never called: the judging stopped before their turn. (The pawn and the status
        # are public; their answers, never judged, stay theirs.)
        "waited_at_221b": over and player["status"] == "playing" and pawn == "221B",
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
        "bid_stack": _stack(loc["carriages"] or loc["spent"]),
    }


# A bid shows as a stack of this many carriages at most, with the count beside it.
STACK_HEIGHT = 5


def _stack(carriages: int) -> list[int]:
    return list(range(min(carriages or 0, STACK_HEIGHT)))


def _location_groups(locations: list[dict], zone_names: dict) -> list[dict]:
    """The location cards zone by zone (in the case's order of zones), or in one group."""
    if not zone_names:
        return [{"key": "all", "name": "Locations", "locations": locations}]
    groups = {key: [] for key in zone_names}
    for loc in locations:
        groups.setdefault(loc["zone"], []).append(loc)
    return [
        {
            "key": key or "none",
            "name": f"Zone: {zone_names.get(key, key)}" if key else "Other locations",
            "locations": members,
        }
        for key, members in groups.items()
        if members
    ]


def _with_id(control):
    """The kit's move form (``control(action, label, version, **extra)``), with an id
    made of the action's values, by which the page's script and tests find a button."""

    def build(action: dict, label: str, version: int, **extra) -> dict:
        key = "act-" + "-".join(str(v) for v in action.values() if not isinstance(v, dict))
        return control(action, label, version, id=key, **extra)

    return build


def _oldest_first(rounds: list[dict]) -> list[dict]:
    """The log's entries, oldest first (``game_log`` gives rounds and entries newest first)."""
    return [entry for round_ in reversed(rounds) for entry in reversed(round_["entries"])]


def _controls(game: dict, mine: dict | None, locations: dict, version: int, control) -> dict:
    by_type = moves_by_type(game.get("legal_actions") or [])
    carriages = mine["carriages"] if mine else 0
    visits = defaultdict(list)
    for action in by_type["visit"]:
        visits[action["location"]].append(
            _visit_control(action, locations, carriages, version, control)
        )

    def where(number):
        return f"{number} · {locations[number]['name']}"

    turn = []
    for action in by_type["take_watson"]:
        turn.append(control(action, "Take the Watson card (4 carriages)", version))
    for action in by_type["carriage_stop"]:
        turn.append(control(action, "Go to the Carriage Stop (+3 carriages)", version))
    for action in by_type["baker_street"]:
        label = "Go to 221B Baker Street to solve"
        if action.get("character") == "toby":
            label = "Go to 221B with Toby (+2 in the solving order)"
        turn.append(control(action, label, version))
    reading = [
        control(a, f"Leave your police token on {where(a['location'])}", version)
        for a in by_type["place_police"]
    ]
    reading += [
        control(a, f"Mycroft: also read {where(a['location'])}", version)
        for a in by_type["mycroft_read"]
    ]
    reading += [control(a, "I have finished reading", version) for a in by_type["done_reading"]]
    character = [
        control(a, f"Use {CHARACTER_NAMES.get(a['character'], a['character'])}", version)
        for a in by_type["character"]
    ]
    character += [
        control(a, "Discard your character for 3 carriages", version)
        for a in by_type["discard_character"]
    ]
    check_questions = [a["question"] for a in by_type["holmes_check"]]
    return {
        "visits": visits,
        "turn": turn,
        "watson": [
            control(a, f"Read {where(a['location'])} aloud", version)
            for a in by_type["watson_read"]
        ],
        "reading": reading,
        "answer": control(
            by_type["answer"][0],
            "Confirm these answers" if (game["you"] or {}).get("answers") else "Give these answers",
            version,
        )
        if by_type["answer"]
        else None,
        "character": character,
        "consult": [
            control(
                a,
                f"Consult {game['players'][a['target']]['name']}'s answers (3 carriages)",
                version,
            )
            for a in by_type["holmes_consult"]
        ],
        "check": control({"type": "holmes_check"}, "Ask Sherlock (3 carriages)", version)
        if check_questions
        else None,
        "check_questions": check_questions,
        "rule": by_type["rule"],
        "any": any(by_type.values()),
    }


def _visit_control(action: dict, locations: dict, carriages: int, version: int, control) -> dict:
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
    return control(
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
        # The result itself is told once, by the end screen below the status bar.
        return "The game is over."
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
            if players[me]["pawn"] == "221B":
                return "You are at 221B Baker Street: write your answers, then give them."
            return "Read your card, then say you have finished."
        names = names_sentence([p["name"] for p in waiting])
        return f"Waiting for {names} to finish." if names else "Everyone has finished reading."
    restating = _restating_sentence(game, players, me)
    if restating:
        return restating
    if step == "solving" and waiting:
        # After a failed attempt, those still waiting at 221B may consult Holmes and
        # rewrite their answers; the judging goes on once each has confirmed.
        if me is not None and me in game["waiting_for"]:
            return (
                "An attempt at 221B failed. Before yours, you may consult Sherlock Holmes; "
                "then confirm your answers, or change them."
            )
        names = names_sentence([p["name"] for p in waiting])
        return f"An attempt at 221B failed. Waiting for {names} to confirm their answers."
    if step == "solving" or game["judging"]:
        return "Sherlock Holmes is judging the answers given at 221B."
    return "The game goes on."


def _restating_sentence(game: dict, players: list, me) -> str:
    """Sherlock asked someone at 221B to say an answer more plainly: the table waits."""
    restating = [r["player"] for r in game["judging"] if r["status"] == "restating"]
    if not restating:
        return ""
    if me in restating:
        return "Sherlock is not sure what you mean: say the answers he asks about more plainly."
    names = names_sentence([players[seat]["name"] for seat in restating])
    return f"Sherlock has asked {names} to say an answer more plainly. The table waits."


def _announcement(game: dict, players: list, me) -> str:
    """What a screen reader hears when it changes: the round, phase and whose move."""
    if game["phase"] == "over":
        return _result(game, players, me)["sentence"]
    return f"Round {game['round']}, {PHASES.get(game['phase'], '')}. " + _status_sentence(
        game, players, me
    )


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


def _answer_fields(you: dict | None, questions: list[dict]) -> list[dict]:
    """The answers form: each question, with what this player already wrote (a player
    waiting at 221B after a failed attempt confirms or changes them)."""
    written = (you or {}).get("answers") or {}
    return [
        {"id": question["id"], "ask": question["ask"], "value": written.get(question["id"], "")}
        for question in questions
    ]


def _rulings(you, rule_actions: list, players: list, questions: dict, control) -> list[dict]:
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
                    control(a, "Right" if a["verdict"] == "correct" else "Wrong", 0)
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


def _result(game: dict, players: list, me) -> dict:
    result = game.get("result")
    if not result:
        return {"over": False, "sentence": ""}
    winners = [players[s] for s in result["winners"]]
    sentence = headline(result, CaseNames(game, me))
    return {"over": True, "sentence": sentence, "winners": winners, "kind": result["kind"]}
