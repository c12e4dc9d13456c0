"""The API's token authentication: DRF's `Authorization: Token <key>` header, checked
against accounts.ApiToken (tokens that expire, and end with a new password).

A token refused (expired, revoked, never issued, or its owner's account closed) answers
401 with `WWW-Authenticate: Token` and a sentence. DRF would make that a 403: it answers
401 only when the first authentication class names a scheme, and the first is the
session's, which names none. So the refusal is an exception of its own, not DRF's
AuthenticationFailed, and carries the header itself. A request with no credentials at
all still answers 403, as before.
"""

from datetime import UTC

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from . import services

NEW_TOKEN = "get a new one from POST /api/auth/token/"


class TokenRefused(exceptions.APIException):
    status_code = 401
    default_code = "authentication_failed"
    auth_header = "Token"


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's TokenAuthentication (its header parsing, and its place in the OpenAPI
    schema), with accounts.ApiToken behind it."""

    def authenticate_credentials(self, key):
        try:
            token = services.api_token_use(key=key)
        except services.ApiTokenExpired as expired:
            when = expired.token.expires_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
            raise TokenRefused(
                f"This API token expired at {when}: {NEW_TOKEN}.", code="token_expired"
            ) from None
        if token is None:
            raise TokenRefused(
                f"This API token is not valid (revoked, or never issued): {NEW_TOKEN}."
            )
        if not token.user.is_active:
            raise TokenRefused("The account of this API token is closed.")
        return token.user, token
