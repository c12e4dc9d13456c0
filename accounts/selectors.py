"""Reads for accounts."""

from django.utils import timezone

from .models import ApiToken, User, api_token_lifetime


def api_tokens_of(*, user: User) -> list[ApiToken]:
    """`user`'s API tokens that have not expired, newest first."""
    live = ApiToken.objects.filter(user=user, created_at__gt=timezone.now() - api_token_lifetime())
    return list(live.order_by("-created_at", "-pk"))
