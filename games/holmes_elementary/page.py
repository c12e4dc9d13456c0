"""The Elementary deck's table page: a member's view, arranged for the templates.

Everything here reads the member's view (the rules' view, the table's public facts, and
the events this member may see) and the member's own marks, so nothing it builds can hold
what the member may not see.
"""

from __future__ import annotations

import json
from collections import defaultdict

from games.holmes_elementary.rules.cards import (
    ABILITIES,
    CARD_NAMES,
    RANKS,
    SUIT_NAMES,
    SUITS,
    TARGETED_SUITS,
    card_id,
    rank_of,
    suit_of,
)
from games.holmes_elementary.rules.state import HAND_LIMIT, TOKENS_TO_WIN
from games.holmes_elementary.sentences import (
    LOG_EVENTS,
    SENTENCES,
    cards_text,
    headline,
    wrong_guess_notice,
)
from games.pages import (
    PageContext,
    SeatNames,
    log_entries,
    newest_first,
    result_panel,
    since_your_last_move,
    turn_sentence,
)

PHASES = {
    "action": "Action",
    "sleuth": "Sleuth",
    "deduction": "Deduction",
    "retire": "Retire",
    "over": "Game over",
}
PHASE_HELP = {
    "action": "Play one card for its ability, or go straight on: solve a case, guess a "
    "spot, or take another deduction move.",
    "sleuth": "Solve one case (seven cards: one of each suit, no two of the same rank), "
    "or go on to the deduction.",
    "deduction": "Guess a spot's rank, draw a card and discard one, look at the discard "
    "pile, or do nothing.",
    "retire": "Discard down to nine cards.",
}
PASS_LABELS = {
    "action": "Play no card",
    "sleuth": "Solve no case",
    "deduction": "Do nothing: end my turn",
}
# The marks a player may put on a grid cell by hand, in the order a click cycles them.
MARKS = {"": "no mark", "out": "marked ruled out", "maybe": "marked suspect"}
MARK_GLYPHS = {"": "", "out": "✕", "maybe": "?"}
# What the page knows of a grid cell by itself, from what the player has seen.
FACTS = {
    "spot": ("★", "the hidden card of this spot"),
    "hand": ("●", "in your hand, so not the hidden card"),
    "seen": ("○", "seen, so not the hidden card"),
    "named": ("⊘", "named in a wrong guess, so not the hidden card"),
    "excluded": ("·", "not the hidden card: the spot's card is known"),
    "": ("", "not seen yet"),
}
LOOKS = {"deck": "the top of the deck", "discard": "the discard pile"}
# The page shows the latest few events.
LOG_LENGTH = 14
VERSIONED_ACTIONS = frozenset(
    {"play", "solve", "guess", "draw_discard", "view_discard", "pass", "discard", "keep"}
)


def card(card_id_: str) -> dict:
    suit = suit_of(card_id_)
    return {
        "id": card_id_,
        "suit": suit,
        "suit_name": SUIT_NAMES[suit],
        "css": suit.lower(),
        "rank": rank_of(card_id_),
        "name": CARD_NAMES[card_id_],
        "short": f"{SUIT_NAMES[suit]} {rank_of(card_id_)}",
    }


def game_page(context: PageContext) -> dict:
    """A member's view of an Elementary deck table (the page kit's ``context``), arranged
    for its templates."""
    game, me, version, control = context.game, context.me, context.version, context.control
    legal, by_type = context.legal, context.by_type
    you = game.get("you")
    names = context.names()
    pending = game["pending"]
    my_choice = pending is not None and pending["player"] == me and bool(legal)
    my_turn = game["player"] == me and pending is None and bool(legal)
    status = _status(game, names, me)
    happened = context.happened(LOG_EVENTS)
    log = newest_first(log_entries(happened, SENTENCES, names), LOG_LENGTH)
    page = {
        "version": version,
        "is_player": me is not None,
        "round": game["round"],
        "max_rounds": game["max_rounds"],
        "phase": game["phase"],
        "phase_label": PHASES.get(game["phase"], game["phase"]),
        "phase_help": PHASE_HELP.get(game["phase"], "") if my_turn else "",
        "status": status,
        "announce": _announce(game, status),
        "my_turn": my_turn,
        "is_waited_on": me is not None and me in game["waiting_for"],
        "deck_count": game["deck_count"],
        "discard_count": game["discard_count"],
        "supply": game["supply"],
        "players": _players(game, context, names),
        "spots": _spots(game, names, you),
        "hand": _hand(you, by_type["play"], names, version, control) if you else None,
        "hand_count": len(you["hand"]) if you else 0,
        "hand_limit": HAND_LIMIT,
        "last_look": _last_look(you, names),
        "choice": _choice(pending, you, by_type, version, control) if my_choice else None,
        "moves": _moves(game, by_type, version, control, you) if my_turn else None,
        "grid": _grid(game, you) if you else None,
        "log": log,
        "since": since_your_last_move(reversed(log), me),
        "guess_notice": wrong_guess_notice(happened, me),
        "result": _result(game, names, context),
        "suits": [{"suit": s, "name": SUIT_NAMES[s], "css": s.lower()} for s in SUITS],
    }
    return page


# --- Status ---------------------------------------------------------------------------------


def _status(game: dict, names: SeatNames, me) -> str:
    if game["phase"] == "over":
        return headline(game["result"], names)
    pending = game["pending"]
    if pending is not None:
        who = pending["player"]
        if who == me:
            return _your_choice_sentence(pending, game, names)
        return f"Waiting for {names(who)} to {_choice_verb(pending)}."
    phase = PHASES.get(game["phase"], game["phase"])
    return turn_sentence(names, game["player"], f"{phase} phase")


def _choice_verb(pending: dict) -> str:
    count = pending["count"]
    cards = "a card" if count == 1 else f"{count} cards"
    return {
        "locale": "keep one of the cards drawn with a Locale card",
        "action": f"choose {cards} to discard (an Action card)",
        "deduction": "discard a card after drawing one",
        "retire": f"discard {cards} down to nine",
    }.get(pending["kind"], "choose")


def _your_choice_sentence(pending: dict, game: dict, names: SeatNames) -> str:
    count = pending["count"]
    cards = "one card" if count == 1 else f"{count} cards"
    if pending["kind"] == "locale":
        return "Your Locale card: keep one of the cards you drew; the others are discarded."
    if pending["kind"] == "action":
        actor = game["player"]
        who = names(actor) if actor is not None else "An opponent"
        return f"{who} played an Action card on you: choose {cards} to discard."
    if pending["kind"] == "deduction":
        return "You drew a card: now choose one card to discard."
    return f"You hold more than nine cards: choose {cards} to discard."


def _announce(game: dict, status: str) -> str:
    if game["phase"] == "over":
        return status
    return f"Round {game['round']}. {status}"


# --- Players, spots, hand -------------------------------------------------------------------


def _tokens(count: int) -> list[bool]:
    """Five slots (more if someone had more): filled for the tokens held."""
    return [slot < count for slot in range(max(TOKENS_TO_WIN, count))]


def _players(game: dict, context: PageContext, names: SeatNames) -> list[dict]:
    waiting = set(game["waiting_for"])
    result = []
    for player in game["players"]:
        seat = player["seat"]
        result.append(
            {
                **player,
                "name": names.name(seat),
                "seat_info": context.seat(seat),
                "is_you": seat == names.me,
                "is_turn": seat == game["player"],
                "is_waited_on": seat in waiting,
                "token_slots": _tokens(player["tokens"]),
                "correct_names": [SUIT_NAMES[s] for s in player["correct"]],
                "barred_names": [SUIT_NAMES[s] for s in player["barred"]],
            }
        )
    return result


def _spots(game: dict, names: SeatNames, you: dict | None) -> list[dict]:
    seen_spots = (you or {}).get("seen_spots") or {}
    spots = []
    for spot in game["spots"]:
        suit = spot["suit"]
        shown = spot["card"]
        private = seen_spots.get(suit)
        if not spot["open"]:
            state = f"Emptied by {names(spot['emptied_by'], capital=False)}"
        elif shown:
            state = "Revealed at the end"
        else:
            state = "Hidden"
        spots.append(
            {
                "suit": suit,
                "name": spot["name"],
                "css": suit.lower(),
                "open": spot["open"],
                "state": state,
                "card": card(shown["id"]) if shown else None,
                "seen_by_you": card(private) if private and not shown else None,
                "barred": [names(seat, capital=False) for seat in spot["barred"]],
                "barred_for_you": you is not None and you["seat"] in spot["barred"],
            }
        )
    return spots


def _hand(you: dict, plays: list[dict], names: SeatNames, version: int, control) -> list[dict]:
    """The hand by suit; each card with the plays it allows now (one per target)."""
    plays_by_card = defaultdict(list)
    for action in plays:
        plays_by_card[action["card"]].append(action)
    groups = []
    for suit in SUITS:
        cards = []
        for held in you["hand"]:
            if held["suit"] != suit:
                continue
            shown = card(held["id"])
            shown["plays"] = [
                _play_control(action, shown, names, version, control)
                for action in plays_by_card[held["id"]]
            ]
            shown["targeted"] = suit in TARGETED_SUITS
            cards.append(shown)
        if cards:
            groups.append(
                {
                    "suit": suit,
                    "name": SUIT_NAMES[suit],
                    "css": suit.lower(),
                    "ability": ABILITIES[suit],
                    "cards": cards,
                }
            )
    return groups


def _play_control(action: dict, shown: dict, names: SeatNames, version: int, control) -> dict:
    target = action.get("target")
    what = f"Play {shown['short']}, {shown['name']}"
    if target is None:
        return control(
            action, "Play", version, id=f"he-play-{shown['id']}", describe=f"{what} (Play)"
        )
    label = f"on {names(target)}"
    return control(
        action,
        label,
        version,
        id=f"he-play-{shown['id']}-{target}",
        describe=f"{what}, {label}",
    )


def _last_look(you: dict | None, names: SeatNames) -> dict | None:
    look = (you or {}).get("last_look")
    if not look:
        return None
    if look["kind"] == "hand":
        where = f"{names.possessive(look['target'])} hand"
    else:
        where = LOOKS.get(look["kind"], look["kind"])
    return {"where": where, "cards": [card(c) for c in look["cards"]]}


# --- Moves ----------------------------------------------------------------------------------


def _choice(pending: dict, you: dict, by_type: dict, version: int, control) -> dict:
    """The answer the player owes: a Locale card to keep, or cards to discard."""
    if pending["kind"] == "locale":
        return {
            "kind": "keep",
            "controls": [
                control(
                    action,
                    f"Keep {card(action['card'])['short']}",
                    version,
                    id=f"he-keep-{action['card']}",
                    describe=f"Keep {card(action['card'])['short']}, {CARD_NAMES[action['card']]}",
                    primary=True,
                    card=card(action["card"]),
                )
                for action in by_type["keep"]
            ],
        }
    count = pending["count"]
    if count == 1:
        return {
            "kind": "discard_one",
            "count": 1,
            "controls": [
                control(
                    action,
                    f"Discard {card(action['cards'][0])['short']}",
                    version,
                    id=f"he-discard-{action['cards'][0]}",
                    describe=f"Discard {card(action['cards'][0])['short']}, "
                    f"{CARD_NAMES[action['cards'][0]]}",
                    card=card(action["cards"][0]),
                )
                for action in by_type["discard"]
            ],
        }
    return {
        "kind": "discard_many",
        "count": count,
        "cards": [card(held["id"]) for held in you["hand"]],
        "form": control({"type": "discard"}, f"Discard these {count} cards", version),
    }


def _moves(game: dict, by_type: dict, version: int, control, you: dict) -> dict:
    solves = [
        control(
            action,
            "Solve this case",
            version,
            id=f"he-solve-{index}",
            describe=f"Solve the case {cards_text(action['cards'])}",
            primary=True,
            cards=[card(c) for c in action["cards"]],
        )
        for index, action in enumerate(by_type["solve"], start=1)
    ]
    guess_suits = []
    ranks = set()
    for action in by_type["guess"]:
        if action["suit"] not in guess_suits:
            guess_suits.append(action["suit"])
        ranks.add(action["rank"])
    grid = _grid(game, you)
    left = {row["suit"]: row["candidates"] for row in grid}
    other = []
    for action in by_type["draw_discard"]:
        other.append(
            control(action, "Draw a card, then discard one", version, id="he-draw-discard")
        )
    for action in by_type["view_discard"]:
        label = f"Look at the discard pile ({game['discard_count']} cards)"
        other.append(control(action, label, version, id="he-view-discard"))
    passes = [
        control(action, PASS_LABELS.get(game["phase"], "Pass"), version, id="he-pass")
        for action in by_type["pass"]
    ]
    return {
        "can_play": bool(by_type["play"]),
        "solves": solves,
        "guess": {
            "form": control({"type": "guess"}, "Guess", version, id="he-guess"),
            "suits": [
                {
                    "suit": suit,
                    "name": SUIT_NAMES[suit],
                    "left": len(left.get(suit, [])),
                }
                for suit in guess_suits
            ],
            "ranks": sorted(ranks),
        }
        if guess_suits
        else None,
        "other": other,
        "passes": passes,
    }


# --- The deduction grid ---------------------------------------------------------------------


def clean_marks(marks) -> dict:
    """The player's saved marks as the grid keeps them: ``{"grid": {card id: mark}}``,
    anything else dropped."""
    grid = (marks or {}).get("grid") if isinstance(marks, dict) else None
    if not isinstance(grid, dict):
        return {"grid": {}}
    valid = {card_id(s, r) for s in SUITS for r in RANKS}
    return {
        "grid": {
            key: value for key, value in grid.items() if key in valid and value in MARKS and value
        }
    }


def _grid(game: dict, you: dict) -> list[dict]:
    """One row per suit, one cell per rank: what the player's notes say of each card, and
    the player's own mark. A row's candidates are the ranks its hidden card may still be."""
    seen = set(you["seen"])
    hand = {held["id"] for held in you["hand"]}
    named = defaultdict(list)
    for guess in game["wrong_guesses"]:
        named[(guess["suit"], guess["rank"])].append(guess["player"])
    known = {spot["suit"]: spot["card"]["id"] for spot in game["spots"] if spot["card"]}
    for suit, hidden in (you.get("seen_spots") or {}).items():
        known.setdefault(suit, hidden)
    emptied = {spot["suit"] for spot in game["spots"] if not spot["open"]}
    barred = {spot["suit"] for spot in game["spots"] if you["seat"] in spot["barred"]}
    rows = []
    for suit in SUITS:
        cells = []
        candidates = []
        for rank in RANKS:
            cid = card_id(suit, rank)
            if known.get(suit) == cid:
                fact = "spot"
            elif cid in hand:
                fact = "hand"
            elif cid in seen:
                fact = "seen"
            elif (suit, rank) in named:
                fact = "named"
            elif suit in known:
                fact = "excluded"
            else:
                fact = ""
                candidates.append(rank)
            glyph, words = FACTS[fact]
            fact_text = f"{SUIT_NAMES[suit]} {rank}: {words}"
            cells.append(
                {
                    "id": cid,
                    "rank": rank,
                    "fact": fact,
                    "glyph": glyph,
                    "fact_text": fact_text,
                }
            )
        if suit in known:
            hidden = rank_of(known[suit])
            how = "emptied" if suit in emptied else "known"
            note = f"Hidden card: {hidden} ({how})"
            candidates = [hidden]
        elif len(candidates) == 1:
            note = f"Only {candidates[0]} is left"
        else:
            note = f"{len(candidates)} ranks left"
        rows.append(
            {
                "suit": suit,
                "name": SUIT_NAMES[suit],
                "css": suit.lower(),
                "cells": cells,
                "candidates": candidates,
                "note": note,
                "sure": len(candidates) == 1,
                "spot_note": "emptied"
                if suit in emptied
                else ("barred for you" if suit in barred else ""),
            }
        )
    return rows


def with_marks(rows: list[dict] | None, marks) -> list[dict] | None:
    """The grid's rows with the player's own marks (its notebook's) on their cells."""
    if rows is None:
        return None
    own = clean_marks(marks)["grid"]
    marked = []
    for row in rows:
        cells = []
        for cell in row["cells"]:
            mark = own.get(cell["id"], "")
            cells.append(
                {
                    **cell,
                    "mark": mark,
                    "mark_glyph": MARK_GLYPHS[mark],
                    "label": f"{cell['fact_text']}; {MARKS[mark]}",
                }
            )
        marked.append({**row, "cells": cells})
    return marked


def marks_json(marks) -> str:
    return json.dumps(clean_marks(marks), separators=(",", ":"))


def _result(game: dict, names: SeatNames, context: PageContext) -> dict | None:
    result = game["result"]
    if not result:
        return None
    players = {player["seat"]: player for player in game["players"]}
    ranking = []
    for place, seat in enumerate(result["ranking"], start=1):
        player = players[seat]
        ranking.append(
            {
                "place": place,
                "name": names.name(seat),
                "seat_info": context.seat(seat),
                "is_you": seat == names.me,
                "is_winner": seat in result["winners"],
                "tokens": result["tokens"][seat],
                "token_slots": _tokens(result["tokens"][seat]),
                "cases": player["cases"],
                "right": len(player["correct"]),
                "wrong": len(player["barred"]),
            }
        )
    return result_panel(headline(result, names), result["winners"], names.me, ranking)
