"""I Say, Holmes!'s table page: a member's view, arranged for the templates.

Everything here reads the member's view (the rules' view and the table's public facts) and
the events this member may see, so nothing it builds can hold what the member may not see.
Moves are built only from ``legal_actions``: a card's plays sit on the card, an open
window's answers, a secret choice's cards, an accusation's suspects and the turn's other
moves each in their own panel.
"""

from __future__ import annotations

from collections import defaultdict

from games.i_say_holmes.rules import cards
from games.i_say_holmes.sentences import (
    LOG_EVENTS,
    SENTENCES,
    TOKEN_NAMES,
    card_title,
    case_closed,
    headline,
)
from games.pages import PageContext, SeatNames, newest_first, since_your_last_move, tell

TYPE_LABELS = {
    cards.START: "Opening",
    cards.TRAVEL: "Travel",
    cards.CITY: "City location",
    cards.COUNTRY: "Country location",
    cards.INFORMATION: "Information",
    cards.ACTION: "Action",
    cards.INTERRUPT: "Interrupt",
    cards.I_SAY: "I Say",
    cards.VILLAIN: "Villain",
}
# A short mark for each type, so that type is never shown by colour alone.
TYPE_GLYPHS = {
    cards.START: "★",
    cards.TRAVEL: "➜",
    cards.CITY: "▣",
    cards.COUNTRY: "▲",
    cards.INFORMATION: "i",
    cards.ACTION: "!",
    cards.INTERRUPT: "×",
    cards.I_SAY: "❝",
    cards.VILLAIN: "☠",
}
CONDITIONS = {
    cards.NOT_MOVING: "when the Current card is not a Travel card (not moving)",
    cards.MOVING: "when the Current card is a Travel card (moving)",
    cards.IN_CITY: "when the Current card is a City location",
}
COUNTERS = {
    cards.ALIBI_OR_MASTERMIND: "an Alibi or a Mastermind counters it",
    cards.MASTERMIND_ONLY: "only a Mastermind counters it",
}
INTERRUPT_TEXT = {
    "alibi": "Counters an instruction marked for Alibis, or an Impromptu Arrest; "
    "everyone then passes a card to the right.",
    "mastermind": "Counters any instruction; every hand then passes to the right.",
}
TOKEN_PLURALS = {"pipe": "pipes", "hat": "hats", "glass": "magnifying glasses"}
TOKEN_GLYPHS = {"pipe": "P", "hat": "H", "glass": "G", "telegram": "T"}
TRAVEL_NAMES = {None: "off", "hansom": "hansom cab", "train": "train"}
LOCATION_NAMES = {"city": "City", "country": "Country"}
CHOICE_REASONS = {
    "show": "show one of your highest cards to {player}",
    "irreg": "show one of your highest cards to {player} (Baker Street Irregulars)",
    "fog": "put one card into the Dense Fog; they are shuffled and dealt back",
    "pass": "pass one card to the player on your right (after an Alibi)",
}
CHOICE_VERBS = {
    "show": "show {player} one of their highest cards",
    "irreg": "show {player} one of their highest cards",
    "fog": "put a card into the Dense Fog",
    "pass": "pass a card to the right (after an Alibi)",
}
COLD_REASONS = {
    "nobody_to_accuse": "nobody else held a card to accuse",
    "too_long": "it ran to its 500th turn",
}
END_REASONS = {
    "his_last_bow": "Someone took His Last Bow: the game ends at once.",
    "max_cases": "The table's last case is closed.",
}
SEEN_HOW = {
    "arrest": "arresting",
    "look": "looking at the hand",
    "clue": "a Clue",
    "show": "a Disguise",
    "irreg": "the Irregulars",
    "shown": "shown by you",
    "fog": "put into the fog",
    "alibi": "passed after an Alibi",
    "give": "given with a Constabulary",
    "swap": "a swap of hands",
    "mastermind": "passed after a Mastermind",
}
# The page shows the latest few lines of this case's log.
LOG_LENGTH = 12
VERSIONED_ACTIONS = frozenset({"play", "draw", "keep", "end_turn", "accuse", "next_case"})


def card_view(card_id: str, *, current: str | None = None, location: str = "city") -> dict:
    """A card face: title, type, CP, what it does and whether it follows ``current``."""
    row = cards.row(card_id)
    shown = {
        "id": card_id,
        "title": row.title,
        "type": row.type,
        "type_label": TYPE_LABELS[row.type],
        "glyph": TYPE_GLYPHS[row.type],
        "cp": row.cp,
        "text": _card_text(row),
        "counter": COUNTERS.get(row.counter, "") if row.instruction else "",
        "condition": CONDITIONS.get(row.condition, "") if row.condition else "",
        "follows": follows_text(row.follows, location),
        "suits": None,
    }
    if current is not None:
        shown["suits"] = _suitability(card_id, current, location)
    return shown


def _card_text(row: cards.Row) -> str:
    if row.instruction:
        return cards.INSTRUCTION_TEXT[row.instruction]
    if row.type == cards.INTERRUPT:
        return INTERRUPT_TEXT[row.slug]
    if row.type == cards.VILLAIN:
        return "Never played. Hold it with only Interrupts and you escape."
    if row.type == cards.START:
        return "Starts each case."
    return ""


def _suitability(card_id: str, current: str, location: str) -> dict | None:
    """Whether ``card_id`` may go on ``current`` now: a word, never colour alone."""
    row = cards.row(card_id)
    if row.type == cards.I_SAY:
        if cards.permissible(card_id, current):
            bonus = " and earns a token" if cards.lists_i_say(current) else ""
            return {"ok": True, "text": f"✓ I Say: may be played now{bonus}"}
        return {"ok": False, "text": "I Say: its condition does not hold now"}
    if row.type in cards.NEVER_FOLLOW:
        return None
    if cards.follows(card_id, current, location):
        return {"ok": True, "text": "✓ Follows the Current card"}
    return None


def follows_text(codes, location: str) -> list[str]:
    """What may follow a card, in words (the Location Marker decides similar/dissimilar)."""
    other = "country" if location == "city" else "city"
    words = []
    for code in codes:
        if code == cards.ANY_TRAVEL:
            words.append("any Travel card")
        elif code == cards.SIMILAR:
            words.append(f"a {LOCATION_NAMES[location]} location (similar)")
        elif code == cards.DISSIMILAR:
            words.append(f"a {LOCATION_NAMES[other]} location (dissimilar)")
        elif code == cards.ANY_INFORMATION:
            words.append("any Information card")
        elif code == cards.ANY_ACTION:
            words.append("any Action card")
        elif code == cards.I_SAY_LISTED:
            words.append("I Say? (an I Say card played here earns a token)")
        elif code in cards.ROWS:
            words.append(cards.ROWS[code].title)
    return words


def game_page(context: PageContext) -> dict:
    """A member's view of an I Say, Holmes! table (the page kit's ``context``, whose
    players are the view's "seats"), arranged for its templates."""
    game, me, version, control = context.game, context.me, context.version, context.control
    seats, legal, by_type = context.seats, context.legal, context.by_type
    you = game.get("you")
    names = context.names(players="seats")
    current = game["current"]["card"]["id"] if game["current"] else None
    location = game["location"]
    pending = game["pending"]
    status = _status(game, names, me)
    log = _log(context.events, names, me) if context.events else {}
    last_case = _last_case(game, names, seats, log.get("untouched", False))
    page = {
        "version": version,
        "is_player": me is not None,
        "is_waited_on": me is not None and me in game["waiting_for"],
        "case": game["case"],
        "max_cases": game["max_cases"],
        "cases_closed": game["cases_closed"],
        "fast_play": game["fast_play"],
        "over": game["phase"] == "over",
        "status": status,
        "announce": _announce(game, status, last_case),
        "players": _players(game, seats, names),
        "current": _current(game, names, current, location),
        "pool": _pool(game),
        # Between cases and at the end every hand is back in the deck.
        "hand": _hand(you, current, location, by_type["play"], names, version, control)
        if you and current
        else None,
        "in_case": current is not None,
        "step": _step(game, you, names, me, bool(legal)),
        "window": _window(game, pending, names, me, by_type, version, control),
        "choice": _choice(game, pending, names, me, by_type, version, control),
        "accuse": _accuse(game, pending, names, me, by_type["accuse"], version, control),
        "moves": _moves(by_type, version, control),
        "arrests": log.get("arrests", []),
        "log": log.get("lines", []),
        "since": log.get("since"),
        "seen": _seen(you, game, names),
        "last_case": last_case,
        "result": _result(game, names, seats, me),
    }
    return page


# --- Status -----------------------------------------------------------------------------


def _status(game: dict, names: SeatNames, me) -> str:
    if game["phase"] == "over":
        return headline(game["result"], names)
    pending = game["pending"]
    turn = game["turn"]
    if pending is not None:
        kind = pending["kind"]
        waiting = pending["waiting_for"]
        if kind == "window":
            what = _window_sentence(pending, names)
            if me in waiting:
                return f"{what} Counter or allow it."
            return f"{what} Waiting for {names.many(waiting)} to answer."
        if kind == "choose":
            reason = CHOICE_VERBS[pending["reason"]].format(player=names(pending["player"]))
            if me in waiting:
                return (
                    "Your secret choice: "
                    + CHOICE_REASONS[pending["reason"]].format(player=names(pending["player"]))
                    + "."
                )
            return f"Waiting for {names.many(waiting)} to {reason}."
        if kind == "accuse":
            if pending["seat"] == me:
                return "Your hand holds no playable card: make an Impromptu Arrest."
            return f"{names(pending['seat'])} must make an Impromptu Arrest."
        if kind == "next_case":
            closed = case_closed(game["last_case"], names)
            if pending["seat"] == me:
                return f"{closed} Deal the next case when you are ready."
            return f"{closed} {names(pending['seat'])} deals the next case."
    seat = turn["seat"]
    step = turn["step"]
    if seat == me:
        if step == "drawn":
            return "Your turn: you drew a card."
        if step == "more":
            return "Your turn: you may play a second card, or end your turn."
        return "It is your turn."
    return f"It is {names.possessive(seat)} turn."


def _announce(game: dict, status: str, last_case: dict | None) -> str:
    if game["phase"] == "over":
        return status
    # The closed case's sentence once: the status may already start with it.
    if last_case and last_case["is_current"] and not status.startswith(last_case["headline"]):
        status = f"{last_case['headline']} {status}"
    return f"Case {game['case']}. {status}"


def _window_sentence(pending: dict, names: SeatNames) -> str:
    player = names(pending["player"])
    targets = names.many(pending["targets"], capital=False)
    if pending["instruction"] == "IMPROMPTU":
        return f"{player} accused {targets} in an Impromptu Arrest."
    title = card_title(pending["card"]) if pending["card"] else "a card"
    return f"{player} played {title} on {targets}."


# --- Players, the Current card, the pool ------------------------------------------------


def _tokens(seat: dict) -> list[dict]:
    """A seat's tokens as face-down tokens: a letter and a word each, values hidden."""
    shown = [
        {"kind": "telegram", "glyph": TOKEN_GLYPHS["telegram"], "label": "telegram"}
        for _ in range(seat["telegrams"])
    ]
    shown += [
        {"kind": kind, "glyph": TOKEN_GLYPHS[kind], "label": f"{TOKEN_NAMES[kind]} (I Say)"}
        for kind in seat["i_say"]
    ]
    shown += [
        {"kind": "book", "glyph": "C", "label": f"Case Closed: {name}"} for name in seat["books"]
    ]
    shown += [
        {"kind": "villain", "glyph": "V", "label": f"Villain: {name}"} for name in seat["villains"]
    ]
    return shown


def _players(game: dict, seats: dict, names: SeatNames) -> list[dict]:
    waiting = set(game["waiting_for"])
    holder = game["current"]["holder"] if game["current"] else None
    turn = game["turn"]["seat"] if game["phase"] != "over" and game["current"] else None
    result = []
    for seat in game["seats"]:
        number = seat["seat"]
        result.append(
            {
                **seat,
                "name": names.name(number),
                "seat_info": seats.get(number, {"colour": "grey", "letter": "?", "name": ""}),
                "is_you": number == names.me,
                "is_turn": number == turn,
                "is_waited_on": number in waiting,
                "holds_current": number == holder,
                "tokens": _tokens(seat),
                "token_count": seat["telegrams"]
                + len(seat["i_say"])
                + len(seat["books"])
                + len(seat["villains"]),
            }
        )
    return result


def _current(game: dict, names: SeatNames, current: str | None, location: str) -> dict | None:
    if current is None:
        return None
    holder = game["current"]["holder"]
    shown = card_view(current, location=location)
    return {
        "card": shown,
        "holder": names(holder),
        "holder_is_you": holder == names.me,
        "follows": shown["follows"],
        "lists_i_say": cards.lists_i_say(current),
        "location": LOCATION_NAMES[location],
        "travel": TRAVEL_NAMES.get(game["travel"], game["travel"]),
        "draw_count": game["draw_count"],
        "discard_count": len(game["discard"]),
        "discard_top": card_title(game["discard"][-1]["id"]) if game["discard"] else None,
    }


def _pool(game: dict) -> dict:
    pool = game["pool"]
    return {
        "telegrams": pool["telegrams"],
        "i_say": [
            {
                "kind": kind,
                "name": TOKEN_PLURALS[kind],
                "count": pool[kind],
                "glyph": TOKEN_GLYPHS[kind],
            }
            for kind in ("pipe", "hat", "glass")
        ],
        "books": pool["books"],
        "villains": pool["villains"],
    }


# --- The hand and its plays -------------------------------------------------------------


def _hand(you, current, location, plays, names: SeatNames, version, control) -> dict:
    plays_by_card = defaultdict(list)
    for action in plays:
        plays_by_card[action["card"]].append(action)
    drawn = (you.get("drawn") or {}).get("id")
    held = []
    for card in you["hand"]:
        shown = card_view(card["id"], current=current, location=location)
        shown["drawn"] = card["id"] == drawn
        shown["plays"] = _play_groups(
            card["id"], plays_by_card[card["id"]], names, version, control
        )
        shown["single_play"] = (
            shown["plays"][0]["controls"][0]
            if len(shown["plays"]) == 1 and len(shown["plays"][0]["controls"]) == 1
            else None
        )
        held.append(shown)
    # Playable cards first, then the ones that follow, then by case points.
    held.sort(key=lambda c: (not c["plays"], not (c["suits"] or {}).get("ok"), -c["cp"]))
    return {
        "cards": held,
        "count": len(held),
        "cp": sum(card["cp"] for card in held),
        "suitable": sum(1 for card in held if (card["suits"] or {}).get("ok")),
    }


def _play_label(card: str, action: dict, names: SeatNames) -> tuple[str, str]:
    """(group, extra) of one play: the target groups the buttons; the extra words say
    what else the play chooses (a token, a card to give, a villain), or nothing."""
    code = cards.row(card).instruction
    target = action.get("target")
    parts = []
    group = f"On {names(target, capital=False)}" if target is not None else ""
    if cards.is_i_say(card) and "token" in action:
        token = f"take a {TOKEN_NAMES[action['token']]} token"
        if "token_from" in action:
            token += f" from {names(action['token_from'], capital=False)}"
        parts.append(token)
    elif code == "GIFT" and "token" in action:
        gift = f"give a {TOKEN_NAMES[action['token']]} token"
        if "token_from" in action:
            gift += f" (now {names.possessive(action['token_from'])})"
        parts.append(gift)
    if code == "WIRE" and "token_from" in action:
        parts.append(f"a telegram from {names(action['token_from'], capital=False)}")
    if code == "GIVE":
        if "give" in action:
            gift = action["give"]
            parts.append(f"give {card_title(gift)} ({cards.cp(gift)} CP)")
        else:
            parts.append("give no card")
    if code == "DROP" and "villain" in action:
        parts.append(f"discard {card_title(action['villain'])}")
    return group, ", ".join(parts)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _play_groups(card: str, actions: list[dict], names: SeatNames, version, control) -> list[dict]:
    """A card's plays as buttons: one list when each target allows one play ("On Bob"),
    else a list for each target ("On Bob": "Take a pipe token", "Take a hat token")."""
    title = card_title(card)
    labelled = [(action, *_play_label(card, action, names)) for action in actions]
    groups: dict[str, list[tuple[dict, str]]] = defaultdict(list)
    for action, group, extra in labelled:
        groups[group].append((action, extra))
    flat = all(len(plays) == 1 for plays in groups.values())
    result: dict[str, list[dict]] = defaultdict(list)
    for index, (action, group, extra) in enumerate(labelled):
        whole = ", ".join(part for part in (group.lower(), extra) if part)
        describe = f"Play {title}" + (f", {whole}" if whole else "")
        if flat:
            label = _capital(", ".join(part for part in (group, extra) if part)) or "Play"
            key = ""
        else:
            label = _capital(extra) or "Play"
            key = group
        result[key].append(
            control(action, label, version, id=f"ish-play-{card}-{index}", describe=describe)
        )
    return [{"label": group, "controls": controls} for group, controls in result.items()]


def _step(game: dict, you, names: SeatNames, me, has_moves: bool) -> dict | None:
    """What the player on turn may do now, in a sentence, with the drawn card."""
    turn = game["turn"]
    if game["pending"] is not None or turn["seat"] != me or not has_moves or not you:
        return None
    step = turn["step"]
    drawn = you.get("drawn")
    if step == "drawn" and drawn:
        card = card_view(
            drawn["id"], current=game["current"]["card"]["id"], location=game["location"]
        )
        if (card["suits"] or {}).get("ok") and card["type"] != cards.I_SAY:
            help_text = f"You drew {card['title']}. It follows the Current card: play it."
        elif card["type"] == cards.I_SAY and (card["suits"] or {}).get("ok"):
            help_text = f"You drew {card['title']}. You may play it, or keep it."
        else:
            help_text = f"You drew {card['title']}. It does not follow: keep it."
        return {"help": help_text, "drawn": card}
    if step == "more":
        return {
            "help": "Deduction: you may play a second card (one that follows the new Current "
            "card, or an I Say card), or end your turn.",
            "drawn": None,
        }
    extra = (
        " You hold seven cards or more: you may play a second card after this one."
        if turn["deduction"]
        else ""
    )
    return {
        "help": "Play a card that follows the Current card, or an I Say card whose condition "
        "holds (the buttons are on your cards). With nothing that follows, draw." + extra,
        "drawn": None,
    }


# --- Windows, choices, accusations, other moves ---------------------------------------------


def _window(game, pending, names: SeatNames, me, by_type, version, control) -> dict | None:
    if pending is None or pending["kind"] != "window":
        return None
    impromptu = pending["instruction"] == "IMPROMPTU"
    card = card_view(pending["card"]) if pending["card"] else None
    if impromptu:
        effect = (
            "An arrest: a villain in the accused's hand closes the case; an innocent "
            "hand goes to the accuser, and the accused draws as many cards."
        )
        counter = "An Alibi or a Mastermind counters it."
    else:
        effect = counter = ""  # the card shows both
    details = []
    if pending.get("token"):
        token = TOKEN_NAMES.get(pending["token"], pending["token"])
        if pending["instruction"] == "GIFT":
            details.append(f"The token given: a {token}.")
    if pending.get("gift"):
        details.append("A card is offered with it (only its giver and receiver know which).")
    waiting = pending["waiting_for"]
    mine = me in waiting
    answers = []
    if mine:
        multi = len(pending["targets"]) > 1
        answers.append(
            _answer_control(
                control,
                by_type["allow"][0],
                "Allow",
                version,
                multi,
                id="ish-allow",
                describe="Allow it",
                primary=True,
            )
        )
        seen = set()
        for action in by_type["counter"]:
            title = card_title(action["card"])
            if title in seen:
                continue
            seen.add(title)
            answers.append(
                _answer_control(
                    control,
                    action,
                    f"Counter with {title}",
                    version,
                    multi,
                    id=f"ish-counter-{cards.row(action['card']).slug}",
                )
            )
    return {
        "sentence": _window_sentence(pending, names),
        "card": card,
        "effect": effect,
        "counter": counter,
        "details": details,
        "targets": names.many(pending["targets"]),
        "answered": [names(seat) for seat in pending["answered"]],
        "waiting": [names(seat) for seat in waiting],
        "is_target": me in pending["targets"],
        "mine": mine,
        "answers": answers,
        "no_counter": mine and len(answers) == 1,
        "multi": len(pending["targets"]) > 1,
    }


def _answer_control(control, action, label, version, multi: bool, **extra) -> dict:
    """An answer to a window or a choice. With one seat asked, nobody else can move the
    table on meanwhile, so the answer carries the version: a click on a page that was out
    of date is refused. With several, others' answers would make it stale: none."""
    made = control(action, label, version, **extra)
    made["version"] = None if multi else version
    return made


def _choice(game, pending, names: SeatNames, me, by_type, version, control) -> dict | None:
    if pending is None or pending["kind"] != "choose":
        return None
    waiting = pending["waiting_for"]
    mine = me in waiting and bool(by_type["choose"])
    player = names(pending["player"])
    options = []
    if mine:
        multi = len(pending["seats"]) > 1
        seen = set()
        for action in by_type["choose"]:
            title = card_title(action["card"])
            if title in seen:
                continue
            seen.add(title)
            options.append(
                _answer_control(
                    control,
                    action,
                    f"Choose {title}",
                    version,
                    multi,
                    id=f"ish-choose-{action['card']}",
                    card=card_view(action["card"]),
                )
            )
    reason = pending["reason"]
    return {
        "reason": reason,
        "sentence": CHOICE_REASONS[reason].format(player=player),
        "verb": CHOICE_VERBS[reason].format(player=player),
        "player": player,
        "waiting": [names(seat) for seat in waiting],
        "chosen": [names(seat) for seat in pending["chosen"]],
        "mine": mine,
        "options": options,
    }


def _accuse(game, pending, names: SeatNames, me, actions, version, control) -> dict | None:
    if pending is None or pending["kind"] != "accuse":
        return None
    counts = {seat["seat"]: seat["hand_count"] for seat in game["seats"]}
    return {
        "accuser": names(pending["seat"]),
        "mine": pending["seat"] == me,
        "countered": [names(seat) for seat in pending["countered"]],
        "controls": [
            control(
                action,
                f"Accuse {names(action['target'])}",
                version,
                id=f"ish-accuse-{action['target']}",
                describe=f"Accuse {names(action['target'])} "
                f"({counts.get(action['target'], 0)} cards)",
                count=counts.get(action["target"], 0),
            )
            for action in actions
        ],
    }


def _moves(by_type, version, control) -> list[dict]:
    moves = []
    if by_type["draw"]:
        moves.append(control(by_type["draw"][0], "Draw a card", version, id="ish-draw"))
    if by_type["keep"]:
        moves.append(control(by_type["keep"][0], "Keep the drawn card", version, id="ish-keep"))
    if by_type["end_turn"]:
        moves.append(control(by_type["end_turn"][0], "End my turn", version, id="ish-end-turn"))
    if by_type["next_case"]:  # only a game saved between two cases, before the rules dealt
        moves.append(control(by_type["next_case"][0], "Deal the next case", version))
    return moves


# --- What you have seen, arrests and the log --------------------------------------------


def _seen(you, game: dict, names: SeatNames) -> list[dict]:
    if not you:
        return []
    epochs = {seat["seat"]: seat["hand_epoch"] for seat in game["seats"]}
    notes = []
    for entry in reversed(you["seen"]):
        source = entry["from"]
        if source is None:
            where = "Into the Dense Fog"
        elif entry["how"] == "shown":
            where = f"You showed {names(source, capital=False)}"
        elif entry["how"] in ("give", "alibi", "mastermind", "swap"):
            where = f"Went to {names(source, capital=False)}"
        else:
            where = f"In {names.possessive(source)} hand"
        changed = (
            source is not None
            and entry["epoch"] is not None
            and (epochs.get(source, 0) != entry["epoch"])
        )
        notes.append(
            {
                "where": where,
                "how": SEEN_HOW.get(entry["how"], entry["how"]),
                "cards": [card_title(card["id"]) for card in entry["cards"]],
                "changed": changed and entry["how"] != "shown",
            }
        )
    return notes


def _log(events, names: SeatNames, me) -> dict:
    """The lines of this case's log (newest first) and its arrests, as this member may
    know them: the cards an arrest showed only to whom saw them. ``untouched``: nobody has
    moved yet in this case (the only card played is the opening one, played by itself)."""
    rows = events(LOG_EVENTS)
    start = max((i for i, (kind, _) in enumerate(rows) if kind == "case_started"), default=0)
    rows = rows[start:]
    untouched = all(
        kind == "case_started" or (kind == "played" and data.get("card") == cards.AFOOT)
        for kind, data in rows
    )
    lines, arrests = [], []
    last_seen: list[str] | None = None
    for kind, data in rows:
        if kind == "examined" and "cards" in data:
            last_seen = [card_title(card) for card in data["cards"]]
        text = tell(SENTENCES, kind, data, names)
        if kind == "arrest":
            arrests.append(_arrest(data, names, me, last_seen))
        if kind != "examined":
            last_seen = None
        if text:
            lines.append({"kind": kind, "text": text, "player": data.get("seat")})
    return {
        "since": since_your_last_move(lines, me),
        "lines": newest_first(lines, LOG_LENGTH),
        "arrests": arrests,
        "untouched": untouched,
    }


def _arrest(data: dict, names: SeatNames, me, seen: list[str] | None) -> dict:
    arrester, accused = data["seat"], data["accused"]
    guilty = data["verdict"] == "guilty"
    if guilty:
        outcome = f"Guilty: {', '.join(data['villains'])}. The case is closed."
    elif data["taken"]:
        outcome = (
            f"Innocent: {names(arrester)} took {names.possessive(accused)} "
            f"{data['taken']} cards, and {names(accused, capital=False)} drew as many."
        )
    else:
        outcome = "Innocent."
    return {
        "sentence": f"{names(arrester)} arrested {names(accused, capital=False)}.",
        "verdict": "Guilty" if guilty else "Innocent",
        "guilty": guilty,
        "outcome": outcome,
        "seen": seen if me in (arrester, accused) else None,
        "seen_note": (
            f"You saw {names.possessive(accused)} hand"
            if me == arrester
            else "Your hand, as it was shown"
        )
        if me in (arrester, accused)
        else "",
    }


# --- A case's scoring and the end -----------------------------------------------------------


def _last_case(game: dict, names: SeatNames, seats: dict, untouched: bool) -> dict | None:
    """How the last case closed. It is the news (``is_current``) until the next case's
    first move, and at the end; then it folds away beside the log."""
    last = game["last_case"]
    if not last:
        return None
    how = last["how"]
    closer = last["seat"]
    waiting_to_deal = (game["pending"] or {}).get("kind") == "next_case"
    result = {
        "case": last["case"],
        "how": how,
        "is_current": game["phase"] == "over" or waiting_to_deal or untouched,
        "rows": [],
        "headline": case_closed(last, names),
    }
    if how == "guilty":
        result["sentence"] = (
            f"Caught: {', '.join(last['villains'])}. {names(closer)} took the Case Closed "
            f"token {last['book']} (the grand total of {last['grand_total']} CP reaches its "
            f"threshold)."
        )
        result["book"] = last["book"]
        result["grand_total"] = last["grand_total"]
        result["rows"] = [
            {
                "seat_info": seats.get(seat["seat"], {"colour": "grey", "letter": "?"}),
                "name": names(seat["seat"]),
                "total": last["totals"][seat["seat"]],
                "is_closer": seat["seat"] == closer,
            }
            for seat in game["seats"]
        ]
    elif how == "escape":
        result["sentence"] = (
            f"The hand shown: {', '.join(last['hand'])}. {names(closer)} took the Villain "
            f"token{'s' if len(last['villains']) != 1 else ''} of {', '.join(last['villains'])}."
        )
    else:
        result["sentence"] = (
            f"It went cold because {COLD_REASONS.get(last.get('why'), 'nobody closed it')}. "
            "Nobody takes anything."
        )
    return result


def _result(game: dict, names: SeatNames, seats: dict, me) -> dict | None:
    result = game["result"]
    if not result:
        return None
    rows = []
    for seat in game["seats"]:
        number = seat["seat"]
        revealed = result["tokens"][number]
        tokens = [
            {"label": f"{book['name']} (Case Closed)", "vp": book["vp"]}
            for book in revealed["books"]
        ]
        tokens += [{"label": f"Villain: {v['name']}", "vp": v["vp"]} for v in revealed["villains"]]
        tokens += [
            {"label": f"{TOKEN_NAMES[t['type']].capitalize()} (I Say)", "vp": t["vp"]}
            for t in revealed["i_say"]
        ]
        for telegram in revealed["telegrams"]:
            parts = [f"{telegram['own']:+d} to its owner"]
            if telegram["left"]:
                parts.append(f"+{telegram['left']} to the left neighbour")
            if telegram["right"]:
                parts.append(f"+{telegram['right']} to the right neighbour")
            tokens.append({"label": "Telegram: " + ", ".join(parts), "vp": telegram["own"]})
        rows.append(
            {
                "seat": number,
                "seat_info": seats.get(number, {"colour": "grey", "letter": "?"}),
                "name": names.name(number),
                "is_you": number == me,
                "is_winner": number in result["winners"],
                "score": result["scores"][str(number)],
                "tie_break": result["tie_break"][str(number)],
                "tokens": tokens,
            }
        )
    rows.sort(key=lambda row: (-row["score"], [-v for v in row["tie_break"]], row["seat"]))
    place = 0
    previous = None
    for index, row in enumerate(rows, start=1):
        key = (row["score"], tuple(row["tie_break"]))
        if key != previous:
            place, previous = index, key
        row["place"] = place
    return {
        "sentence": headline(result, names),
        "reason": END_REASONS.get(result["reason"], ""),
        "rows": rows,
        "you_won": me in result["winners"],
    }
