"""The websocket's origin check: a socket opened by a page of this site only.

A browser sends the page's origin on every websocket handshake, and a socket carries the
session cookie whatever page opens it: so the origin must be exactly this site's, as
Django's CSRF check wants it of a form, i.e. the same scheme, host and port as the
request, or one of CSRF_TRUSTED_ORIGINS; and the host one of ALLOWED_HOSTS. (Channels'
AllowedHostsOriginValidator compared the host alone: http://localhost:8001 and
https://... passed for a site on http://localhost:8000.) The request's scheme is wss or
ws, or https where SECURE_PROXY_SSL_HEADER says a TLS proxy received it. A handshake
without an Origin (not a browser's) is refused too: programs send the site's origin.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)


def origin_allowed(scope) -> bool:
    headers = {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    origin, host = headers.get(b"origin"), headers.get(b"host")
    if not origin or not host:
        return False
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    scheme = "https" if _is_secure(scope, headers) else "http"
    given, expected = _origin_key(origin), _origin_key(f"{scheme}://{host}")
    return given is not None and given == expected


def _is_secure(scope, headers: dict) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, secure_value = proxy_header
        # Django names it as in request.META: HTTP_X_FORWARDED_PROTO → x-forwarded-proto.
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        given = headers.get(header, "")
        return given.split(",", 1)[0].strip() == secure_value
    return False


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port filled in; None if it is not one."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]
