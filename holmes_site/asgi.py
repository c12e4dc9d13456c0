"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from channels.routing import ProtocolTypeRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")

# Django must be set up before anything imports models (the websocket routes will).
django_asgi_app = get_asgi_application()

application = ProtocolTypeRouter({"http": django_asgi_app})
