"""WSGI entry point (gunicorn): HTTP only; websockets need the ASGI one (asgi.py)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")
application = get_wsgi_application()

# As in asgi.py: what is loaded by now lives as long as the process, so full collections
# need not scan it.
gc.freeze()
