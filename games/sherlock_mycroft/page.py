"""The Sherlock & Mycroft table page's view-model: a member's view, arranged for the
templates in ``templates/sherlock_mycroft/``.

Everything here reads the member's view (``selectors.table_view``: the rules' view, its
legal actions, the table's public facts) and the events that member may see, so nothing it
builds can hold what the member may not see.

Moves are chosen in two steps, without any script: the player opens a character (a
``<details>`` card), then presses one of the buttons its ability offers. Every button
posts one legal action. Two choices whose every combination is legal are radio groups
instead: which standing marker moves (from day 2), and Violet Hunter's swap (what you give
and what you take); ``SherlockMycroftSite.action_from_form`` folds them into the action.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter, defaultdict

from games.pages import PageContext, SeatNames, log_entries, newest_first, since_your_last_move
from games.sherlock_mycroft.rules.cards import (
    CHARACTERS,
    KIND_BY_ID,
    TAKE_COUNTS,
    VALUE,
    kind_of,
    rank,
    take_cost,
)
from games.sherlock_mycroft.rules.scoring import breakdown, placeable_kinds, wildcards
from games.sherlock_mycroft.sentences import LOG_EVENTS, SENTENCES, card_names, headline
from games.words import counted as plural
from games.words import names_sentence as sentence_list

# The radio groups a move form may carry (see the module's docstring).
FROM_FIELD = "from"
GIVE_FIELD = "ability-give"
TAKE_FIELD = "ability-take"

# The steps whose moves name the board and the line as the player saw them: they carry
# the version, and a move made on an out-of-date page is refused as stale.
VERSIONED_STEPS = ("move", "reserve")

# A letter code and a glyph for each kind, so a card is never told by colour alone.
KIND_FACES = {
    "false_pass": ("FP", "✉"),
    "explosive": ("Ex", "✹"),
    "cigarette": ("Ci", "♨"),
    "bullet": ("Bu", "➤"),
    "button": ("Bn", "◉"),
    "footprint": ("Fo", "⁂"),
    "fingerprint": ("Fi", "≋"),
    "wild": ("W", "★"),
    "map": ("M", "▦"),
}

ABILITIES = {
    "watson": "Take 1 clue from the line.",
    "mrs_hudson": "Gain 3 markers.",
    "lestrade": "Take 2 clues from the line.",
    "irene_adler": "Steal one of your rival's visible clues (not a wildcard) into your "
    "hidden clues.",
    "gregson": "Take 1 to 3 clues from the line.",
    "wiggins": "Gain 5 markers.",
    "langdale_pike": "Look at 1 to 3 cards from the deck in secret and keep one as a hidden clue.",
    "toby": "Gain 1 marker per kind among your visible clues (wildcards are no kind).",
    "shinwell_johnson": "Discard 1 to 3 clues from the line.",
    "billy": "Discard one of your visible numbered clues; gain its worth minus the day's "
    "number in markers.",
    "von_kramm": "Take 1 clue from the line; then your rival may pay 1 marker for the top "
    "card of the deck, hidden.",
    "violet_hunter": "Swap one of your visible clues with a clue of the line.",
    "moriarty": "Each player gives up visible clues or markers.",
    "moran": "Each player lays down a standing marker unused.",
}

STEPS = {
    "move": "Investigation",
    "keep": "Langdale Pike",
    "von_kramm": "Von Kramm's offer",
    "moriarty": "James Moriarty",
    "moran": "Sebastian Moran",
    "reserve": "The Sherlock/Mycroft card",
    "assign": "Final scoring: wildcards",
    "over": "Game over",
}

ROLE_NAMES = {"sherlock": "Sherlock", "mycroft": "Mycroft"}

# The page shows the latest few events.
LOG_LENGTH = 8
# Past this many wildcard placements, the rest are folded away (best first).
SHOWN_ASSIGNMENTS = 6


# --- Cards ------------------------------------------------------------------------------


def card(card_id: str) -> dict:
    """A clue as a card: its kind's name, worth, letter code and glyph."""
    kind = KIND_BY_ID[kind_of(card_id)]
    code, glyph = KIND_FACES[kind.id]
    label = kind.name if kind.value is None else f"{kind.name} ({kind.value})"
    return {
        "id": card_id,
        "kind": kind.id,
        "name": kind.name,
        "value": kind.value,
        "code": code,
        "glyph": glyph,
        "label": label,
    }


def kind_card(kind: str) -> dict:
    """A kind's face, for tables: no card of the game in particular."""
    return {**card(f"{kind}-1"), "id": None}


def cards(card_ids) -> list[dict]:
    return [card(c) for c in card_ids]


def grouped(card_ids) -> list[dict]:
    """Cards by kind, in kind order: ``{"card", "count", "cards"}`` per kind held."""
    groups: dict[str, list[str]] = defaultdict(list)
    for c in sorted(card_ids, key=rank):
        groups[kind_of(c)].append(c)
    return [
        {"card": card(ids[0]), "count": len(ids), "cards": cards(ids)} for ids in groups.values()
    ]


# --- The page ----------------------------------------------------------------------------


def game_page(context: PageContext) -> dict:
    """A member's view of a Sherlock & Mycroft table (the page kit's ``context``),
    arranged for its templates."""
    game, me, seats, view = context.game, context.me, context.seats, context.view
    names = context.names("A player")
    board = [_character(entry, seats, game["day"]) for entry in game["board"]]
    players = [_player(player, seats, names.names, game, me) for player in game["players"]]
    ordered = sorted(players, key=lambda p: (not p["is_you"], p["seat"]))
    log = newest_first(log_entries(context.happened(LOG_EVENTS), SENTENCES, names))
    status = _status(game, names.names, me)
    result = _result(game, players, names)
    last = next((entry["text"] for entry in log if entry["player"] != me), "")
    return {
        "day": game["day"],
        "days": _days(game),
        "step": game["step"],
        "step_label": STEPS.get(game["step"], game["step"]),
        "is_your_turn": me is not None and game["turn"] == me,
        "status": status,
        "announce": " ".join(part for part in (f"Day {game['day']}.", last, status) if part),
        "line": cards(game["line"]),
        "board": board,
        "players": ordered,
        "me": players[me] if me is not None else None,
        "kinds": _kinds(game, players, me),
        "supply": {
            "reserve": game["reserve"],
            "deck": game["deck_count"],
            "discard": game["discard_count"],
            "characters": game["character_deck_count"],
        },
        "villains": [CHARACTERS[v].name for v in game["villains_discarded"]],
        "variants": [
            label
            for key, label in (
                ("reserve_card", "Sherlock/Mycroft card"),
                ("moriarty", "James Moriarty"),
                ("moran", "Sebastian Moran"),
            )
            if game["variants"].get(key)
        ],
        "choice": _choice(game, view["version"], players, me),
        "log": log[:LOG_LENGTH],
        "since": since_your_last_move(reversed(log), me),
        "result": result,
    }


def _character(entry: dict, seats: dict, day: int) -> dict:
    space = entry["space"]
    if space == "permanent":
        arrived = "Always there"
    elif space.startswith("day1"):
        arrived = "Day 1"
    else:
        arrived = f"Day {space[3:]}"
    return {
        **entry,
        "ability": ABILITIES.get(entry["id"], ""),
        "price": _price(entry["id"], day),
        "arrived": arrived,
        "markers": [
            {"seat": seats[m["seat"]], "standing": m["standing"]} for m in entry["markers"]
        ],
    }


def _player(player: dict, seats: dict, names: dict, game: dict, me) -> dict:
    seat = player["seat"]
    is_you = seat == me
    on_board = [
        {"name": entry["name"], "standing": m["standing"]}
        for entry in game["board"]
        for m in entry["markers"]
        if m["seat"] == seat
    ]
    hidden_ids = None
    if "hidden" in player:  # revealed at the end
        hidden_ids = player["hidden"]
    elif is_you and game.get("private"):
        hidden_ids = game["private"]["hidden"]
    hidden_known = [] if hidden_ids is not None else player["hidden_known"]
    assigned = player.get("assigned") or {}
    return {
        "seat": seat,
        "seat_info": seats[seat],
        "name": names[seat],
        "is_you": is_you,
        "is_turn": game["turn"] == seat,
        "is_first": game["first"] == seat,
        "role": ROLE_NAMES.get(player["role"], player["role"]),
        "tokens": player["tokens"],
        "visible": grouped(player["visible"]),
        "visible_count": len(player["visible"]),
        "hidden_count": player["hidden_count"],
        "hidden": cards(hidden_ids) if hidden_ids is not None else None,
        "hidden_known": cards(hidden_known),
        "hidden_backs": list(range(player["hidden_count"] - len(hidden_known)))
        if hidden_ids is None
        else [],
        "reserved": card(player["reserved"]) if player["reserved"] else None,
        "holds_card": player["holds_card"],
        "moves_left": player["moves_left"],
        "markers_in_hand": player["markers_in_hand"],
        "on_board": on_board,
        "assigned": [
            {"wild": wild, "kind": KIND_BY_ID[kind].name} for wild, kind in sorted(assigned.items())
        ],
    }


def _days(game: dict) -> list[dict]:
    arrivals: dict[int, list[str]] = defaultdict(list)
    for entry in game["board"]:
        space = entry["space"]
        if space.startswith("day1"):
            arrivals[1].append(entry["name"])
        elif space.startswith("day"):
            arrivals[int(space[3:])].append(entry["name"])
    return [
        {
            "number": n,
            "current": n == game["day"] and game["step"] != "over",
            "past": n < game["day"] or game["step"] == "over",
            "arrivals": arrivals.get(n, []),
        }
        for n in range(1, game["days"] + 1)
    ]


def _kinds(game: dict, players: list, me) -> list[dict]:
    revealed = game["step"] in ("assign", "over")
    rows = []
    for entry in game["kinds"]:
        if entry["kind"] == "wild" and not any(entry["counts"]) and not entry.get("your_count"):
            continue
        leader = entry["leader"]
        points = entry["points"]
        if entry["kind"] == "wild":
            worth = "placed at the end"
        elif leader is not None:
            worth = f"{_short(players[leader])} +{points[leader]}"
        elif entry["value"] is None:  # map fragments: each alone
            worth = " · ".join(
                f"{_short(p)} {points[p['seat']]:+d}" for p in players if entry["counts"][p["seat"]]
            )
            worth = worth or "nobody yet"
        else:
            worth = "tied"
        rows.append(
            {
                "card": kind_card(entry["kind"]),
                "value": entry["value"],
                "copies": entry["copies"],
                "counts": [{"player": p, "count": entry["counts"][p["seat"]]} for p in players],
                "leader": players[leader] if leader is not None else None,
                "worth": worth,
                "your_count": entry.get("your_count"),
                "your_hidden": (entry.get("your_count") or 0) - entry["counts"][me]
                if me is not None and not revealed
                else 0,
            }
        )
    return rows


def _short(player: dict) -> str:
    return "You" if player["is_you"] else player["name"]


# --- Whose turn, and what happened ---------------------------------------------------------


def _status(game: dict, names: dict, me) -> str:
    step, turn = game["step"], game["turn"]
    if step == "over":
        return ""
    yours = turn == me
    who = names.get(turn, "The other player")
    if step == "move":
        if yours:
            left = game["players"][me]["moves_left"]
            return (
                f"It is your turn: move an action marker "
                f"({left} move{'s' if left != 1 else ''} left today)."
            )
        return f"It is {who}'s turn to move an action marker."
    if step == "keep":
        if yours:
            return "It is your turn: keep one of the cards Langdale Pike shows you."
        count = game["pending"].get("looking_count", 0)
        return f"{who} is looking at {count} card{'s' if count != 1 else ''} with Langdale Pike."
    if step == "von_kramm":
        if yours:
            return (
                "It is your turn: after Von Kramm, you may pay 1 marker for the top card "
                "of the deck, as a hidden clue."
            )
        return f"{who} decides whether to pay for Von Kramm's card."
    if step == "moriarty":
        if yours:
            return "It is your turn: James Moriarty strikes. Give up a visible clue or 2 markers."
        return f"James Moriarty strikes: {who} gives up a clue or 2 markers."
    if step == "moran":
        if yours:
            return (
                "It is your turn: Sebastian Moran. Lay down one of your standing markers "
                "where it stands, unused."
            )
        return f"Sebastian Moran: {who} lays down a standing marker."
    if step == "reserve":
        if yours:
            return (
                "It is your turn: you hold the Sherlock/Mycroft card. Reserve a line clue, or not."
            )
        return f"{who} may reserve a line clue with the Sherlock/Mycroft card."
    if step == "assign":
        if yours:
            return "It is your turn: place your wildcards on kinds you hold."
        return f"{who} places their wildcards."
    return ""


# --- What you may do now -------------------------------------------------------------------


def _choice(game: dict, version: int, players: list, me) -> dict | None:
    legal = game.get("legal_actions") or []
    if me is None or not legal:
        return None
    step = game["step"]
    base = {
        "step": step,
        "key": uuid.uuid4().hex,
        "expected_version": version if step in VERSIONED_STEPS else None,
    }
    if step == "move":
        return {**base, **_move_choice(game, legal, players, me)}
    if step == "keep":
        alike = Counter(kind_of(a["card"]) for a in legal)
        options = [
            _option(
                a,
                f"Keep {card(a['card'])['label']}",
                cards=[a["card"]],
                note=f"×{alike[kind_of(a['card'])]}" if alike[kind_of(a["card"])] > 1 else "",
                describe=_keep_describe(a["card"], alike[kind_of(a["card"])]),
            )
            for a in _distinct(legal, lambda a: kind_of(a["card"]))
        ]
        return {
            **base,
            "heading": "Langdale Pike: keep one card",
            "options": options,
            "help": "The others go to the discard pile, face down.",
        }
    if step == "von_kramm":
        options = [
            _option(a, "Pay 1 marker for the top card" if a["pay"] else "No, thank you")
            for a in legal
        ]
        return {
            **base,
            "heading": "Von Kramm's offer",
            "options": options,
            "help": "The card would join your hidden clues (a wildcard is shown).",
        }
    if step == "moriarty":
        options = [
            _option(a, "Return 2 markers")
            if a["give"] == "markers"
            else _option(a, f"Give up {card(a['give'])['label']}", cards=[a["give"]])
            for a in _distinct(
                legal, lambda a: kind_of(a["give"]) if a["give"] != "markers" else ""
            )
        ]
        return {
            **base,
            "heading": "James Moriarty: give something up",
            "options": options,
            "help": "Hidden and reserved clues are safe.",
        }
    if step == "moran":
        options = [
            _option(a, f"Lay down the marker on {CHARACTERS[a['marker']].name}") for a in legal
        ]
        return {
            **base,
            "heading": "Sebastian Moran: lay down a marker",
            "options": options,
            "help": "It stays where it stands, unused: you make one move fewer today.",
        }
    if step == "reserve":
        options = [
            _option(a, "Reserve nothing")
            if a["card"] is None
            else _option(a, f"Reserve {card(a['card'])['label']}", cards=[a["card"]])
            for a in _distinct(legal, lambda a: kind_of(a["card"]) if a["card"] else "")
        ]
        return {
            **base,
            "heading": "The Sherlock/Mycroft card: reserve a clue?",
            "options": options,
            "help": "A reserved clue waits in your area; collect it later with Watson, "
            "Lestrade, Gregson or Von Kramm. Uncollected, it costs 3 points.",
        }
    if step == "assign":
        return {**base, **_assign_choice(game, legal, me)}
    return {**base, "heading": "Your move", "options": [_option(a, _plain(a)) for a in legal]}


def _keep_describe(card_id: str, alike: int) -> str:
    """Two cards of one kind are one choice: say that more than one lies there."""
    label = card(card_id)["label"]
    if alike == 1:
        return f"Keep {label}"
    return f"Keep {label} (you see {alike} of them; keeping one discards the other)"


def _plain(action: dict) -> str:
    return str(action.get("type", "")).replace("_", " ").capitalize()


def _option(action: dict, label: str, *, cards=(), note: str = "", describe: str = "") -> dict:
    return {
        "action": json.dumps(action, separators=(",", ":")),
        "label": label,
        "cards": [card(c) for c in cards],
        "note": note,
        "describe": describe or " ".join(part for part in (label, note) if part),
    }


def _distinct(actions: list[dict], key) -> list[dict]:
    """The first action of each ``key``: two cards of one kind are the same choice."""
    seen = set()
    result = []
    for action in actions:
        k = key(action)
        if k in seen:
            continue
        seen.add(k)
        result.append(action)
    return result


def _move_choice(game: dict, legal: list[dict], players: list, me) -> dict:
    names = {entry["id"]: entry["name"] for entry in game["board"]}
    origins = list(dict.fromkeys(a["from"] for a in legal))
    first_origin = origins[0]
    by_target: dict[str, list[dict]] = defaultdict(list)
    for action in legal:
        if action["from"] == first_origin:
            by_target[action["to"]].append(action)
    reserved = players[me]["reserved"]["id"] if players[me]["reserved"] else None
    targets = []
    for entry in game["board"]:
        actions = by_target.get(entry["id"])
        if not actions:
            continue
        character = CHARACTERS[entry["id"]]
        plain = next(a for a in actions if a["ability"] is None)
        usable = [a for a in actions if a["ability"] is not None]
        targets.append(
            {
                "id": entry["id"],
                "name": character.name,
                "price": _price(entry["id"], game["day"]),
                "ability": ABILITIES.get(entry["id"], ""),
                "groups": _ability_groups(entry["id"], usable, game, reserved, me),
                "swap": _swap(usable, game, me) if entry["id"] == "violet_hunter" else None,
                "plain": _option(
                    plain,
                    "Just place the marker",
                    describe=f"Go to {character.name} without using the ability",
                ),
                "usable": bool(usable),
                "why_not": "" if usable else _why_not(entry["id"], game, me),
            }
        )
    return {
        "heading": "Your move: choose a character",
        "help": "Open a character to see what it offers you; every button is a move you may make.",
        "origins": [
            {"id": o, "name": names.get(o, o), "checked": i == 0} for i, o in enumerate(origins)
        ]
        if first_origin is not None
        else [],
        "targets": targets,
    }


def _why_not(character: str, game: dict, me: int) -> str:
    """Why a character's ability cannot be used now, in the player's terms: the price
    against the markers held, or what the ability would need and is missing."""
    mine = game["players"][me]
    held = f"you hold {plural(mine['tokens'], 'marker')}"
    line = game["line"]
    if character in TAKE_COUNTS:
        if not line and not mine["reserved"]:
            return "The line holds no clue to take."
        cost = take_cost(character, TAKE_COUNTS[character][0])
        return f"It costs {plural(cost, 'marker')}; {held}."
    if character == "irene_adler":
        if mine["tokens"] < game["day"]:
            return f"It costs {plural(game['day'], 'marker')} today; {held}."
        return "Your rival shows no clue she may steal (wildcards cannot be stolen)."
    if character == "langdale_pike":
        if game["deck_count"] == 0:
            return "The deck is empty: there is nothing to look at."
        return f"Each card looked at costs 1 marker; {held}."
    if character == "shinwell_johnson":
        return "The line holds no clue to discard."
    if character == "billy":
        return "You show no numbered clue to discard (wildcards and map fragments are not)."
    if character == "violet_hunter":
        if not mine["visible"]:
            return "You show no clue to give in exchange."
        return "The line holds no clue to take."
    return "There is nothing for it to act on now."


def _price(character: str, day: int) -> str:
    if character == "irene_adler":
        return f"{day} (the day's number)"
    return CHARACTERS[character].cost


def _ability_groups(character: str, usable: list[dict], game: dict, reserved, me) -> list[dict]:
    """The ability's legal variants as buttons, in groups with a heading each."""
    if not usable or character == "violet_hunter":
        return []
    day = game["day"]
    if character in ("watson", "lestrade", "gregson", "von_kramm"):
        by_count: dict[int, list[dict]] = defaultdict(list)
        for action in _distinct(usable, lambda a: _take_key(a, reserved)):
            by_count[len(action["ability"]["take"])].append(action)
        groups = []
        for count, actions in sorted(by_count.items()):
            cost = {"watson": 1, "lestrade": 3, "gregson": 2 * count, "von_kramm": 0}[character]
            title = f"Take {count} clue{'s' if count != 1 else ''}"
            note = f"pay {cost} marker{'s' if cost != 1 else ''}" if cost else "free"
            groups.append(
                {
                    "title": f"{title} ({note})",
                    "options": [
                        _option(
                            a,
                            "Take",
                            cards=a["ability"]["take"],
                            note=" (your reserved clue)"
                            if reserved in a["ability"]["take"]
                            else "",
                            describe=f"Take {card_names(a['ability']['take'])}"
                            + (
                                " including your reserved clue"
                                if reserved in a["ability"]["take"]
                                else ""
                            )
                            + f", {note}",
                        )
                        for a in actions
                    ],
                }
            )
        return groups
    if character in ("mrs_hudson", "wiggins", "toby"):
        gain = {"mrs_hudson": 3, "wiggins": 5}.get(character)
        if gain is None:
            visible = game["players"][me]["visible"]
            gain = len({kind_of(c) for c in visible} - {"wild"})
        gain = min(gain, game["reserve"])
        label = f"Gain {gain} marker{'s' if gain != 1 else ''}"
        return [{"title": "", "options": [_option(usable[0], label)]}]
    if character == "irene_adler":
        return [
            {
                "title": f"Steal a clue (pay {day} markers)",
                "options": [
                    _option(
                        a,
                        "Steal",
                        cards=[a["ability"]["steal"]],
                        describe=f"Steal {card_names([a['ability']['steal']])}, pay {day} markers",
                    )
                    for a in _distinct(usable, lambda a: kind_of(a["ability"]["steal"]))
                ],
            }
        ]
    if character == "langdale_pike":
        return [
            {
                "title": "Look at cards from the deck (1 marker each)",
                "options": [
                    _option(
                        a,
                        f"Look at {n} card{'s' if n != 1 else ''}",
                        note=f"pay {n}",
                        describe=f"Look at {plural(n, 'card')}, pay {plural(n, 'marker')}",
                    )
                    for a in usable
                    for n in [a["ability"]["look"]]
                ],
            }
        ]
    if character == "shinwell_johnson":
        by_count = defaultdict(list)
        for action in _distinct(
            usable, lambda a: tuple(kind_of(c) for c in a["ability"]["discard"])
        ):
            by_count[len(action["ability"]["discard"])].append(action)
        return [
            {
                "title": f"Discard {count} clue{'s' if count != 1 else ''} from the line",
                "options": [
                    _option(
                        a,
                        "Discard",
                        cards=a["ability"]["discard"],
                        describe=f"Discard {card_names(a['ability']['discard'])} from the line",
                    )
                    for a in actions
                ],
            }
            for count, actions in sorted(by_count.items())
        ]
    if character == "billy":
        options = []
        for a in _distinct(usable, lambda a: kind_of(a["ability"]["discard"])):
            c = a["ability"]["discard"]
            gain = min(max(0, VALUE[kind_of(c)] - day), game["reserve"])
            options.append(
                _option(
                    a,
                    "Discard",
                    cards=[c],
                    note=f"gain {gain}",
                    describe=f"Discard your {card_names([c])}, gain {gain} markers",
                )
            )
        return [{"title": "Discard one of your clues for markers", "options": options}]
    return [{"title": "", "options": [_option(a, json.dumps(a["ability"])) for a in usable]}]


def _take_key(action: dict, reserved) -> tuple:
    return tuple(
        ("reserved", kind_of(c)) if c == reserved else ("line", kind_of(c))
        for c in action["ability"]["take"]
    )


def _swap(usable: list[dict], game: dict, me) -> dict | None:
    """Violet Hunter: every pair of your visible clue and a line clue is legal, so two
    radio groups (what you give, what you take) and one button."""
    if not usable:
        return None
    gives = _distinct(sorted({a["ability"]["give"] for a in usable}, key=rank), kind_of)
    takes = _distinct(sorted({a["ability"]["take"] for a in usable}, key=rank), kind_of)
    return {
        "option": _option(usable[0], "Swap these two clues", describe="Swap the chosen clues"),
        "give": [{"card": card(c), "checked": i == 0} for i, c in enumerate(gives)],
        "take": [{"card": card(c), "checked": i == 0} for i, c in enumerate(takes)],
        "give_field": GIVE_FIELD,
        "take_field": TAKE_FIELD,
    }


def _assign_choice(game: dict, legal: list[dict], me) -> dict:
    """Every legal placement of your wildcards, with the final scores it would give (all
    clues are face up by now), best first."""
    players = game["players"]
    cards_of = [p["visible"] + p.get("hidden", []) for p in players]
    assigned = [p["assigned"] for p in players]
    reserved = [p["reserved"] for p in players]
    scored = []
    for index, action in enumerate(legal):
        trial = list(assigned)
        trial[me] = action["assign"]
        totals = breakdown(cards_of, trial, reserved)
        mine, theirs = totals[me]["total"], totals[1 - me]["total"]
        placed = [KIND_BY_ID[k].name for _, k in sorted(action["assign"].items())]
        label = f"On {sentence_list(placed)}" if placed else "Place none"
        note = f"you {mine}, rival {theirs}"
        scored.append((-(mine - theirs), index, _option(action, label, note=note)))
    options = [option for *_, option in sorted(scored, key=lambda s: s[:2])]
    return {
        "heading": "Place your wildcards",
        "help": "Each wildcard counts as one more card of a numbered kind you hold (one per "
        "kind). The scores show the final result each choice gives, as the cards lie now. "
        + _rival_placing(players[1 - me]),
        "options": options[:SHOWN_ASSIGNMENTS],
        "more": options[SHOWN_ASSIGNMENTS:],
    }


def _rival_placing(rival: dict) -> str:
    """Whether the rival's score in the preview is final: a rival who places after you
    sees your placement first."""
    if rival["assigned"] is not None:
        return "Your rival has placed theirs: these scores are final."
    cards = rival["visible"] + rival.get("hidden", [])
    if not (wildcards(cards) and placeable_kinds(cards)):
        return "Your rival has no wildcard to place: these scores are final."
    return (
        "Your rival places their wildcards after you, knowing where yours went: "
        "their score may still rise."
    )


# --- The end -------------------------------------------------------------------------------


def _result(game: dict, players: list, names: SeatNames) -> dict | None:
    result = game["result"]
    if not result:
        return None
    rows = []
    counts = {entry["kind"]: entry["counts"] for entry in game["kinds"]}
    breakdowns = result["breakdown"]
    for kind in (*VALUE, "map"):
        rows.append(
            {
                "card": kind_card(kind),
                "cells": [
                    {"count": counts[kind][p["seat"]], "points": breakdowns[p["seat"]][kind]}
                    for p in players
                ],
            }
        )
    winners = [players[s] for s in result["winners"]]
    return {
        "rows": rows,
        "reserved": [breakdowns[p["seat"]]["reserved_clue"] for p in players],
        "has_reserved": any(breakdowns[p["seat"]]["reserved_clue"] for p in players),
        "tokens": [{"player": p, "count": result["tokens"][p["seat"]]} for p in players],
        "totals": [breakdowns[p["seat"]]["total"] for p in players],
        "winners": winners,
        "sentence": headline(result, names),
        "players": players,
    }
