"""`{% load words %}`: games/words.py in templates.

`{{ hand|length|counted:"card" }}` → "1 card" / "5 cards";
`{{ lobby.min_players|players_range:lobby.max_players }}` → "2 players" / "2–4 players".
"""

from django import template

from games import words

register = template.Library()


@register.filter
def counted(count, noun: str) -> str:
    return words.counted(int(count), noun)


@register.filter
def players_range(fewest, most) -> str:
    return words.players_range(int(fewest), int(most))
