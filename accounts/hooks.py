"""Two questions accounts asks of the tables, which sit above it, so that it imports none
of them (the layers in pyproject.toml): whether a display name is already someone else's
at one of a person's tables, and who invites to what through a link. Play answers them
when it starts (`PlayConfig.ready`); until then no name is taken and no link invites.
"""

from collections.abc import Callable

_answers: dict[str, Callable] = {}


def answered_by(*, name_taken_at_tables_of: Callable, invite_for_link: Callable) -> None:
    """Play's answers. Given again they replace the first (apps' `ready()` may run more
    than once in tests)."""
    _answers["name_taken_at_tables_of"] = name_taken_at_tables_of
    _answers["invite_for_link"] = invite_for_link


def name_taken_at_tables_of(*, user, name: str) -> str | None:
    """The public name, as shown, of someone else seated with `user` at a table that has
    not finished and called `name`; None when nobody is."""
    ask = _answers.get("name_taken_at_tables_of")
    return ask(user=user, name=name) if ask else None


def invite_for_link(request, target: str) -> dict | None:
    """Who invites to what, when `target` (a page's address) is an invite link: the log-in
    and sign-up pages say so. None for any other page, or a code that opens no table."""
    ask = _answers.get("invite_for_link")
    return ask(request, target) if ask else None
