"""I Say, Holmes!: a card game of story-telling and arrests for 3 to 8 players. Keep the
story going with a suitable card, find out who holds a villain, arrest them, or let your
own villains escape."""

from games.base import Game, Option, Rules
from games.i_say_holmes import rules
from games.i_say_holmes.privacy import private_items
from games.i_say_holmes.rules.bot import bot_action
from games.i_say_holmes.rules.setup import DEFAULT_WINDOW_SECONDS, WINDOW_SECONDS_RANGE

OPTIONS = (
    Option(
        "cases",
        "Number of cases",
        "The game ends after this many cases, or sooner when someone takes His Last Bow. "
        "Left empty, the table size decides.",
        default=None,
        minimum=1,
        maximum=20,
        kind="int",
    ),
    Option(
        "window_seconds",
        "Seconds to respond",
        "How long targets have to counter or allow, and to make a secret choice.",
        default=DEFAULT_WINDOW_SECONDS,
        minimum=WINDOW_SECONDS_RANGE[0],
        maximum=WINDOW_SECONDS_RANGE[1],
    ),
    Option(
        "fast_play",
        "Fast play",
        "Play any number of suitable cards in a turn; a Travel card ends it.",
        default=False,
    ),
)

GAME = Game(
    name=rules.NAME,
    title="I Say, Holmes!",
    min_players=3,
    max_players=8,
    needs_case=False,
    rules=Rules.of(rules),
    site="games.i_say_holmes.site.ISayHolmesSite",
    private_items=private_items,
    options=OPTIONS,
    bot=bot_action,
)
