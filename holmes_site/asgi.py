"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")

# Django must be set up before anything imports models (the websocket routes do).
django_asgi_app = get_asgi_application()

from holmes_site.gc_watch import keep_full_collections_short, watch_collections  # noqa: E402
from holmes_site.warm_up import warm_up  # noqa: E402
from holmes_site.ws_origin import SameOriginValidator  # noqa: E402
from play.routing import websocket_urlpatterns  # noqa: E402
from play.ws_auth import TokenAuthMiddleware  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Browsers by their session cookie; other clients by an API token header. Either
        # way from a page of this site: its scheme, host and port (holmes_site/ws_origin.py).
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

warm_up()  # what the first move would load, loaded before anyone waits for it

# Everything imported so far (Django, the apps, their modules) lives as long as the
# process: moved out of the collector's way, full collections, which stop every thread of
# the worker, scan only what requests and sockets created since; and each of them freezes
# what it kept in turn (holmes_site/gc_watch.py).
gc.freeze()
keep_full_collections_short()
watch_collections()
