"""Watson & Holmes: the case game. Players bid carriages for the locations of a case, read
their cards in private and race to answer its questions at 221B Baker Street."""

from games.base import Game, Option, Rules
from games.watson_holmes import rules
from games.watson_holmes.example import example_config
from games.watson_holmes.privacy import private_items

GAME = Game(
    name=rules.NAME,
    title="Watson & Holmes",
    min_players=1,
    max_players=7,
    needs_case=True,
    rules=Rules.of(rules),
    site="games.watson_holmes.site.WatsonHolmesSite",
    private_items=private_items,
    example_config=example_config,
    # No computer player: a person who leaves is passed by (rules/withdraw.py).
    withdraw=rules.withdraw,
    options=(
        Option("casebook", "Casebook", "Each player may reread the cards they have read."),
        Option("random_start", "Random start player", "Otherwise the host plays first."),
        Option("play_on", "Play on", "After a win, the others play on for the places."),
    ),
)
