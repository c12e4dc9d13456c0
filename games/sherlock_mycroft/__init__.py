"""Sherlock & Mycroft: a two-player duel. Over seven days the brothers send their action
markers to London's characters to gather clue cards; at the end, each kind of clue scores
for whoever holds more of it."""

from games.base import Game, Option, Rules
from games.sherlock_mycroft import rules
from games.sherlock_mycroft.privacy import private_items
from games.sherlock_mycroft.rules.bot import normal_bot
from games.sherlock_mycroft.rules.easy_bot import easy_bot
from games.sherlock_mycroft.rules.expert_bot import expert_bot

GAME = Game(
    name=rules.NAME,
    title="Sherlock & Mycroft",
    min_players=2,
    max_players=2,
    needs_case=False,
    rules=Rules.of(rules),
    site="games.sherlock_mycroft.site.SherlockMycroftSite",
    bots={"easy": easy_bot, "normal": normal_bot, "expert": expert_bot},
    private_items=private_items,
    options=(
        Option(
            "reserve_card",
            "Sherlock/Mycroft card",
            "Its holder may set a line clue aside after a move, to collect it later.",
        ),
        Option(
            "moriarty",
            "James Moriarty",
            "When drawn, each player twice gives up a visible clue or 2 markers.",
        ),
        Option(
            "moran",
            "Sebastian Moran",
            "When drawn, each player lays down a marker unused: two moves each that day.",
        ),
    ),
)
