"""Token authentication for the table websocket, for clients that are not browsers.

A browser's socket is authenticated by its session cookie (Channels' AuthMiddlewareStack).
A program that already speaks the API with a token (`Authorization: Token <key>`,
accounts/authentication.py) sends the same header on the websocket handshake; this
middleware, placed inside the session middleware, uses it when the session gave no user.
The token travels in a header, never in the URL, so it does not end up in access logs.
"""

from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser

from .socket_thread import in_socket_thread

SCHEME = b"token "


def token_from_headers(headers) -> str | None:
    """The key of an `Authorization: Token <key>` header, if there is one."""
    for name, value in headers:
        if name.lower() == b"authorization" and value[: len(SCHEME)].lower() == SCHEME:
            key = value[len(SCHEME) :].strip().decode("latin-1")
            return key or None
    return None


def user_for_token(key: str):
    """The active user whose API token this is, or AnonymousUser: for a key that is no
    token's, a token that expired or was revoked (a new password revokes them all), as
    the API checks them (accounts.services.api_token_use). Run on the sockets' database
    thread (play/socket_thread.py), as the rest of the socket's database work: with
    Channels' database_sync_to_async and `.first()`, the lookup cost 1.05 ms of the
    worker's CPU; 0.86 ms so (PostgreSQL, measured in one process)."""
    from accounts import services

    try:
        token = services.api_token_use(key=key)
    except services.ApiTokenExpired:
        return AnonymousUser()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    return token.user


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope, receive, send):
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            key = token_from_headers(scope.get("headers", []))
            if key:
                scope = dict(scope, user=await in_socket_thread(user_for_token, key=key))
        return await super().__call__(scope, receive, send)
