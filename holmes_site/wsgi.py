"""WSGI entry point (gunicorn): HTTP only; websockets need the ASGI one (asgi.py)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "holmes_site.settings")
application = get_wsgi_application()

from holmes_site.gc_watch import keep_full_collections_short, watch_collections  # noqa: E402
from holmes_site.warm_up import warm_up  # noqa: E402  (Django is set up by now)

warm_up()  # what the first request would load, loaded before anyone waits for it

# As in asgi.py: what is loaded by now lives as long as the process, so full collections
# need not scan it, and long ones are logged.
gc.freeze()
keep_full_collections_short()
watch_collections()
