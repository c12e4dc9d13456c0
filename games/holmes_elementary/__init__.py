"""The Elementary deck: a seven-suit card game of deduction for 2 to 6 players. Draw, play
abilities, solve cases of seven suits and seven ranks, and work out the hidden card of
each suit's spot; five case tokens win."""

from games.base import Game, Option, Rules
from games.holmes_elementary import rules
from games.holmes_elementary.privacy import private_items
from games.holmes_elementary.rules.bot import bot_action
from games.holmes_elementary.rules.bot_easy import easy_action
from games.holmes_elementary.rules.bot_expert import expert_action

FIRST_PLAYER_CHOICES = (
    ("0", "The host"),
    ("1", "Seat 2"),
    ("2", "Seat 3"),
    ("3", "Seat 4"),
    ("4", "Seat 5"),
    ("5", "Seat 6"),
    ("random", "At random"),
)

OPTIONS = (
    Option(
        "first_player",
        "First player",
        "Who takes the first turn (a seat the table does not have cannot start).",
        default="0",
        choices=FIRST_PLAYER_CHOICES,
    ),
    Option(
        "max_rounds",
        "Round limit",
        "The game ends after this many rounds if nobody has five case tokens; the most "
        "tokens win, then the most right guesses, then the fewest wrong ones.",
        default=40,
        minimum=1,
        maximum=200,
    ),
    Option(
        "discard_look",
        "Look at the discard pile",
        "In the Deduction phase a player may look through the discard pile in private.",
        default=True,
    ),
)


GAME = Game(
    name=rules.NAME,
    title="The Elementary deck",
    min_players=2,
    max_players=6,
    needs_case=False,
    rules=Rules.of(rules),
    site="games.holmes_elementary.site.HolmesElementarySite",
    private_items=private_items,
    options=OPTIONS,
    bots={"easy": easy_action, "normal": bot_action, "expert": expert_action},
)
