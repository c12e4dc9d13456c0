"""The Elementary deck on the site: a table from its options alone, and its page (the hand
as cards, the seven spots, the legal moves, and a deduction grid the player can mark)."""

from games.holmes_elementary.page import VERSIONED_ACTIONS, game_page
from games.holmes_elementary.sentences import end_notice
from games.sites import GameSite, PageContext

# The most cards a discard form may name (a hand holds at most twelve).
MAX_FORM_CARDS = 20


class HolmesElementarySite(GameSite):
    template = "holmes_elementary/_table.html"
    stylesheet = "holmes_elementary/table.css"
    versioned_actions = VERSIONED_ACTIONS
    end_wording = staticmethod(end_notice)

    def action_from_form(self, action: dict, data) -> dict:
        """The offered move with what the player filled in: a guess's suit and rank
        (``param-suit``, ``param-rank``), or the cards ticked for a discard (``cards``)."""
        result = super().action_from_form(action, data)
        if result.get("type") == "discard" and "cards" not in result:
            picked = data.getlist("cards") if hasattr(data, "getlist") else data.get("cards", [])
            result["cards"] = [str(card) for card in picked][:MAX_FORM_CARDS]
        return result

    def progress(self, state: dict) -> dict:
        """The game counts rounds: My tables (and GET /api/tables/) say which is played."""
        return {**super().progress(state), "round": state["round"]}

    def end_facts(self, after: dict) -> dict:
        """The end's notice carries the outcome, so that it reads as the headline does."""
        return self.game.rules.outcome(after) or {}

    def page(self, context: PageContext) -> dict:
        return game_page(context)
