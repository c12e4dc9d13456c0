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
from games.pages import since_your_last_move
from games.sites import seat_names
from games.words import counted

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
# The events the page tells, oldest first; the page shows the latest few.
LOG_EVENTS = (
    "turn_started",
    "played",
    "stole",
    "stolen_card",
    "hand_looked",
    "hand_shown",
    "deck_looked",
    "deck_top",
    "drew_cards",
    "discarded",
    "discarded_cards",
    "case_solved",
    "guessed",
    "spot_seen",
    "discard_viewed",
    "reshuffled",
    "timeout",
    "game_over",
)
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


def cards_text(cards) -> str:
    return ", ".join(f"{SUIT_NAMES[suit_of(c)]} {rank_of(c)}" for c in cards) or "no cards"


class Names:
    """How the page names seats: "you" for the member, else the seat's name now (a
    computer player's once the person who sat there has left)."""

    def __init__(self, names: dict[int, str], me: int | None):
        self.names = names
        self.me = me

    def __call__(self, seat, *, capital: bool = True) -> str:
        if seat == self.me:
            return "You" if capital else "you"
        return self.names.get(seat, "Somebody")

    def possessive(self, seat) -> str:
        return "your" if seat == self.me else f"{self.names.get(seat, 'somebody')}'s"

    def name(self, seat) -> str:
        """The seat's name, even for the member (beside a "(you)" tag)."""
        return self.names.get(seat, "Somebody")


def game_page(view: dict, seats: dict, events, control) -> dict:
    """A member's view of an Elementary deck table, arranged for its templates.
    ``control(action, label, version, **extra)`` builds a move's form (``GameSite``)."""
    game = view["game"]
    me = view["you"]["seat"]
    you = game.get("you")
    names = Names(seat_names(seats, game["players"]), me)
    version = view["version"]
    legal = game.get("legal_actions") or []
    by_type = defaultdict(list)
    for action in legal:
        by_type[action["type"]].append(action)
    pending = game["pending"]
    my_choice = pending is not None and pending["player"] == me and bool(legal)
    my_turn = game["player"] == me and pending is None and bool(legal)
    status = _status(game, names, me)
    happened = list(events(LOG_EVENTS)) if events else []
    log = _log(happened, names)
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
        "players": _players(game, seats, names),
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
        "guess_notice": _wrong_guess_notice(happened, me),
        "result": _result(game, names, seats),
        "suits": [{"suit": s, "name": SUIT_NAMES[s], "css": s.lower()} for s in SUITS],
    }
    return page


# --- Status ---------------------------------------------------------------------------------


def _status(game: dict, names: Names, me) -> str:
    if game["phase"] == "over":
        return _result_sentence(game, names)
    pending = game["pending"]
    if pending is not None:
        who = pending["player"]
        if who == me:
            return _your_choice_sentence(pending, game, names)
        return f"Waiting for {names(who)} to {_choice_verb(pending)}."
    current = game["player"]
    phase = PHASES.get(game["phase"], game["phase"])
    if current == me:
        return f"It is your turn: {phase} phase."
    return f"It is {names(current)}'s turn: {phase} phase."


def _choice_verb(pending: dict) -> str:
    count = pending["count"]
    cards = "a card" if count == 1 else f"{count} cards"
    return {
        "locale": "keep one of the cards drawn with a Locale card",
        "action": f"choose {cards} to discard (an Action card)",
        "deduction": "discard a card after drawing one",
        "retire": f"discard {cards} down to nine",
    }.get(pending["kind"], "choose")


def _your_choice_sentence(pending: dict, game: dict, names: Names) -> str:
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


def _players(game: dict, seats: dict, names: Names) -> list[dict]:
    waiting = set(game["waiting_for"])
    result = []
    for player in game["players"]:
        seat = player["seat"]
        result.append(
            {
                **player,
                "name": names.name(seat),
                "seat_info": seats.get(seat, {"colour": "grey", "letter": "?", "name": ""}),
                "is_you": seat == names.me,
                "is_turn": seat == game["player"],
                "is_waited_on": seat in waiting,
                "token_slots": _tokens(player["tokens"]),
                "correct_names": [SUIT_NAMES[s] for s in player["correct"]],
                "barred_names": [SUIT_NAMES[s] for s in player["barred"]],
            }
        )
    return result


def _spots(game: dict, names: Names, you: dict | None) -> list[dict]:
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


def _hand(you: dict, plays: list[dict], names: Names, version: int, control) -> list[dict]:
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


def _play_control(action: dict, shown: dict, names: Names, version: int, control) -> dict:
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


def _last_look(you: dict | None, names: Names) -> dict | None:
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


# --- What happened --------------------------------------------------------------------------


DISCARD_REASONS = {
    "help": "{who} lost 1 card at random (Help).",
    "action": "{who} discarded {cards} for an Action card.",
    "wrong_guess": "{who} threw away {their} whole hand ({cards}) after a wrong guess.",
    "deduction": "{who} drew a card and discarded one.",
    "retire": "{who} discarded {cards} down to nine.",
    "locale": "{who} discarded the other Locale cards ({cards}).",
}
DRAW_REASONS = {
    "investigate": "investigating",
    "mystery": "Mystery",
    "help": "Help",
    "locale": "Locale",
    "deduction": "the deduction",
}


def _count(count: int) -> str:
    return counted(count, "card")


def _log(happened: list[tuple[str, dict]], names: Names) -> list[dict]:
    lines = []
    for kind, data in happened:
        text = _log_line(kind, data, names)
        if text:
            lines.append({"kind": kind, "text": text, "player": data.get("player")})
    return list(reversed(lines[-LOG_LENGTH:]))


# A seat's own moves: a wrong guess is told until the guesser's next one.
OWN_MOVES = {"played", "guessed", "case_solved", "discard_viewed", "stole", "hand_looked"}


def _wrong_guess_notice(happened: list[tuple[str, dict]], me) -> str:
    """The guesser's own wrong guess, said beside the status line until their next move:
    the log alone hid it below the game."""
    if me is None:
        return ""
    last = max(
        (
            i
            for i, (kind, data) in enumerate(happened)
            if kind in OWN_MOVES and data.get("player") == me
        ),
        default=None,
    )
    if last is None or happened[last][0] != "guessed" or happened[last][1].get("correct"):
        return ""
    guess = happened[last][1]
    suit = SUIT_NAMES.get(guess.get("suit"), "?")
    sentence = f"Your guess of {suit} {guess.get('rank')} was wrong"
    after = happened[last + 1 :]
    seen = next((data for kind, data in after if kind == "spot_seen"), None)
    thrown = next(
        (
            data
            for kind, data in after
            if kind == "discarded" and data.get("reason") == "wrong_guess"
        ),
        None,
    )
    if seen is not None:
        sentence += f": the {suit} spot holds {rank_of(seen['card'])} (only you saw it)"
    if thrown is not None:
        sentence += f", and your hand ({_count(thrown.get('count', 0))}) went to the discard"
    return sentence + ". You may not guess that spot again."


def _log_line(kind: str, data: dict, names: Names) -> str:
    who = names(data.get("player"))
    if kind == "turn_started":
        return f"Round {data.get('round')}: {names.possessive(data.get('player'))} turn."
    if kind == "played":
        shown = card(data["card"])
        target = data.get("target")
        on = f" on {names(target, capital=False)}" if target is not None else ""
        return f"{who} played {shown['short']}, {shown['name']}{on}."
    if kind == "stole":
        return f"{who} took a card at random from {names(data.get('target'), capital=False)}."
    if kind == "stolen_card":
        return f"The card taken: {cards_text([data['card']])}."
    if kind == "hand_looked":
        return f"{who} looked at {names.possessive(data.get('target'))} hand."
    if kind == "hand_shown":
        return f"You saw {names.possessive(data.get('target'))} hand: {cards_text(data['cards'])}."
    if kind == "deck_looked":
        return f"{who} looked at the top {_count(data.get('count', 0))} of the deck."
    if kind == "deck_top":
        return f"You saw the top of the deck: {cards_text(data['cards'])}."
    if kind == "drew_cards":
        why = DRAW_REASONS.get(data.get("reason"), data.get("reason"))
        return f"You drew {cards_text(data['cards'])} ({why})."
    if kind == "discarded":
        template = DISCARD_REASONS.get(data.get("reason"))
        if not template:
            return ""
        their = "your" if data.get("player") == names.me else "their"
        return template.format(who=who, cards=_count(data.get("count", 0)), their=their)
    if kind == "discarded_cards":
        return f"You discarded {cards_text(data['cards'])}."
    if kind == "case_solved":
        return (
            f"{who} solved a case with {cards_text(data['cards'])} "
            f"({counted(data.get('tokens', 0), 'case token')} now)."
        )
    if kind == "guessed":
        guess = f"{SUIT_NAMES.get(data.get('suit'), '?')} {data.get('rank')}"
        if data.get("correct"):
            return f"{who} guessed {guess}: right! The spot is emptied."
        return f"{who} guessed {guess}: wrong."
    if kind == "spot_seen":
        return (
            f"Only you saw it: the {SUIT_NAMES[data['suit']]} spot holds {rank_of(data['card'])}."
        )
    if kind == "discard_viewed":
        return f"{who} looked at the discard pile ({_count(data.get('count', 0))})."
    if kind == "reshuffled":
        return f"The discard pile ({_count(data.get('count', 0))}) was shuffled into a new deck."
    if kind == "timeout":
        return f"{who} ran out of time."
    if kind == "game_over":
        return "The game is over."
    return ""


# --- The end --------------------------------------------------------------------------------


def _result_sentence(game: dict, names: Names) -> str:
    result = game["result"]
    if not result:
        return "The game is over."
    winners = result["winners"]
    me = names.me
    if result["reason"] == "five_tokens":
        who = names(winners[0])
        if winners[0] == me:
            return "You won: five case tokens!"
        return f"{who} won with five case tokens."
    best = result["tokens"][winners[0]] if winners else 0
    tokens = "1 case token" if best == 1 else f"{best} case tokens"
    if len(winners) == 1:
        if winners[0] == me:
            return f"The round limit is reached: you won with {tokens}."
        return f"The round limit is reached: {names(winners[0])} won with {tokens}."
    listed = [names(seat, capital=False) for seat in winners]
    together = ", ".join(listed[:-1]) + " and " + listed[-1]
    return f"The round limit is reached: {together} share the win with {tokens} each."


def _result(game: dict, names: Names, seats: dict) -> dict | None:
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
                "seat_info": seats.get(seat, {"colour": "grey", "letter": "?", "name": ""}),
                "is_you": seat == names.me,
                "is_winner": seat in result["winners"],
                "tokens": result["tokens"][seat],
                "token_slots": _tokens(result["tokens"][seat]),
                "cases": player["cases"],
                "right": len(player["correct"]),
                "wrong": len(player["barred"]),
            }
        )
    return {
        "sentence": _result_sentence(game, names),
        "you_won": names.me in result["winners"],
        "ranking": ranking,
    }
