"""I Say, Holmes!: a card game of story-telling and arrests for 3 to 8 players. Keep the
story going with a suitable card, find out who holds a villain, arrest them, or let your
own villains escape."""

from games.base import Game, Option, Rules
from games.i_say_holmes import rules
from games.i_say_holmes.privacy import private_items
from games.i_say_holmes.rules.bot import bot_action
from games.i_say_holmes.rules.easy import easy_action
from games.i_say_holmes.rules.expert import expert_action
from games.i_say_holmes.rules.setup import (
    HARD_CASE_LIMIT,
    OLD_OPTION_NAMES,
    OPTION_DEFAULTS,
    SECONDS_LIMITS,
)


def _seconds(name: str, label: str, help: str) -> Option:
    return Option(
        name,
        label,
        help + " 0: no limit (a turn timer set for the table still applies).",
        default=OPTION_DEFAULTS[name],
        minimum=0,
        maximum=SECONDS_LIMITS[name],
        kind="int",
        zero="no limit",
    )


OPTIONS = (
    Option(
        "max_cases",
        "Number of cases",
        "The game ends after this many cases, or sooner when someone takes His Last Bow. "
        f"0: play until someone takes His Last Bow (at most {HARD_CASE_LIMIT} cases).",
        default=OPTION_DEFAULTS["max_cases"],
        minimum=0,
        maximum=HARD_CASE_LIMIT,
        kind="int",
        zero="until His Last Bow",
    ),
    Option(
        "fast_play",
        "Fast play",
        "Play any number of suitable cards in a turn; a Travel card ends it.",
        default=OPTION_DEFAULTS["fast_play"],
    ),
    _seconds(
        "window_seconds",
        "Seconds to answer a card played on you",
        "How long a player a card targets has to counter it or let it happen; the wait "
        "ends as soon as everyone has answered.",
    ),
    _seconds(
        "choice_seconds",
        "Seconds for a secret choice",
        "How long each player has to pick the card to show, pass or put into the fog.",
    ),
    _seconds(
        "turn_seconds",
        "Seconds for a turn",
        "How long a player has for each step of their turn and for an Impromptu Arrest.",
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
    renamed_options=OLD_OPTION_NAMES,
    bots={"easy": easy_action, "normal": bot_action, "expert": expert_action},
)
