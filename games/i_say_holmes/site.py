"""I Say, Holmes! on the site: a table from its options alone, and its page (your hand as
cards, the Current card and what may follow it, each player's hand size and tokens, the
open response window with its answers, arrests as you may know them, each case's scoring
and the final result)."""

from games.i_say_holmes.page import VERSIONED_ACTIONS, game_page
from games.i_say_holmes.sentences import case_closed_notice, end_notice
from games.sites import GameSite, PageContext


class ISayHolmesSite(GameSite):
    template = "i_say_holmes/_table.html"
    stylesheet = "i_say_holmes/table.css"
    versioned_actions = VERSIONED_ACTIONS

    def config(self, *, case_version, options: dict, host_seat: int) -> dict:
        """The stored options under the rules' names: a table created while they were
        called otherwise (``cases``) still starts."""
        return {"options": self.game.stored_options(options)}

    def end_facts(self, after: dict) -> dict:
        """The end's notice carries the result, so that it reads as the headline does."""
        return dict(after["result"])

    def notices(self, before, after, events):
        """Besides a new turn and the end: news of a case closed, unless it ended the game."""
        changes = super().notices(before, after, events)
        if self.game.rules.is_over(after):
            return changes
        for event in events:
            if event.type == "case_closed" and event.audience == "all":
                changes.append(("table_news", dict(event.data)))
        return changes

    def notice_text(self, kind, title, names, details):
        if kind == "table_news":
            return case_closed_notice(title, details, names)
        if kind == "game_over" and "scores" in details:  # a notice queued before: generic
            return end_notice(title, names, details)
        return super().notice_text(kind, title, names, details)

    def timer_label(self, view: dict) -> str:
        pending = (view.get("game") or {}).get("pending") or {}
        if pending.get("kind") == "window":
            return "Time to answer"
        if pending.get("kind") == "choose":
            return "Time to choose"
        return super().timer_label(view)

    def page(self, context: PageContext) -> dict:
        return game_page(context)
