"""Counts and lists in words, the same on every page and in every game's sentences:
"1 card", "2 cards", "2 players", "2–4 players", "Alice, Bob and Carol".

Pure Python, so that a game's rules may word their refusals with it too.
"""

__all__ = ["capital", "counted", "names_sentence", "players_range"]

# Nouns whose plural is not the noun and an "s".
IRREGULAR_PLURALS = {"person": "people", "match": "matches"}


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """ "1 card", "0 cards", "3 case tokens"."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural or IRREGULAR_PLURALS.get(noun) or noun + 's'}"


def players_range(fewest: int, most: int) -> str:
    """ "1 player", "2 players", "2–4 players": a table's or a case's player counts."""
    if fewest == most:
        return counted(fewest, "player")
    return f"{fewest}–{most} players"


def capital(text: str) -> str:
    """The text with its first letter in capital, the rest as it is ("you won" -> "You
    won", where str.capitalize would lower a name's own capitals)."""
    return text[:1].upper() + text[1:]


def names_sentence(names: list[str]) -> str:
    """ "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
