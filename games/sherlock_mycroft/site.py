"""Sherlock & Mycroft on the site: a table of two (or one and the computer), set up from
its options alone; its page shows the board, the line, both players' areas and the
majorities, and offers the legal moves as character cards to open and buttons to press."""

from games.sherlock_mycroft.page import FROM_FIELD, GIVE_FIELD, TAKE_FIELD, game_page
from games.sherlock_mycroft.sentences import HEADLINE_FACTS, end_notice
from games.sites import GameSite, PageContext


class SherlockMycroftSite(GameSite):
    template = "sherlock_mycroft/_table.html"
    stylesheet = "sherlock_mycroft/table.css"
    # A move or a reservation names cards of the line and characters of the board as the
    # player saw them.
    versioned_actions = frozenset({"move", "reserve"})
    end_wording = staticmethod(end_notice)

    def action_from_form(self, action: dict, data) -> dict:
        """The button's action, with the radio choices the move form carries: which
        standing marker moves, and what Violet Hunter swaps. The rules check the result."""
        result = dict(action)
        if result.get("type") != "move":
            return result
        origin = data.get(FROM_FIELD)
        if isinstance(origin, str) and origin and result.get("from") is not None:
            result["from"] = origin[:40]
        ability = result.get("ability")
        if isinstance(ability, dict) and {"give", "take"} <= set(ability):
            ability = dict(ability)
            for key, field in (("give", GIVE_FIELD), ("take", TAKE_FIELD)):
                value = data.get(field)
                if isinstance(value, str) and value:
                    ability[key] = value[:40]
            result["ability"] = ability
        return result

    def end_facts(self, after: dict) -> dict:
        """The end's notice carries what the headline reads, so that it reads the same."""
        return {key: after["result"][key] for key in HEADLINE_FACTS} if after["result"] else {}

    def page(self, context: PageContext) -> dict:
        return game_page(context)
