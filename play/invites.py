"""Who invites to what, for the log-in and sign-up pages whose `next` is an invite link
(accounts asks through accounts.hooks; play answers it in PlayConfig.ready)."""

from holmes_site.throttling import budget_spent, limit_reached

from .selectors import invite_code_in_path, invite_for_code


def invite_for_link(request, target: str) -> dict | None:
    """Who invites, for an invite link: naming the host tells a real code from a wrong
    one, so it spends the joining budget as the join page does (play/views.py): a wrong
    code counts, and once the budget is spent no code is looked up (the page is shown
    without the invite; following the link says the rest)."""
    code = invite_code_in_path(target)
    if code is None or budget_spent(request, "join"):
        return None
    invite = invite_for_code(code)
    if invite is None:
        limit_reached(request, "join")
    return invite
