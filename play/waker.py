"""The embedded wake-up loop: where Celery runs eagerly (`make run`), no worker waits for
a countdown and no backstop sweeps, so the development server runs the tables' wake-ups
(computer players' moves, turn timers) from a thread of its own."""

import logging
import os
import sys
import threading
import time

from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger(__name__)


def start_if_embedded() -> threading.Thread | None:
    """Start the loop if settings ask for it (`make run` does, and the browser tests'
    server), in the process that serves: not in runserver's reloading parent."""
    seconds = settings.HOLMES_EMBEDDED_WAKER_SECONDS
    reloader_parent = (
        sys.argv[1:2] == ["runserver"]
        and os.environ.get("RUN_MAIN") != "true"
        and "--noreload" not in sys.argv
    )
    if seconds <= 0 or reloader_parent:
        return None
    thread = threading.Thread(target=_loop, args=(seconds,), name="holmes-waker", daemon=True)
    thread.start()
    return thread


def _loop(seconds: float) -> None:
    from .services import tables_wake_due

    while True:
        time.sleep(seconds)
        close_old_connections()
        try:
            tables_wake_due()
        except Exception:  # a failed sweep must not end the loop; the next one retries
            logger.exception("The embedded wake-up sweep failed")
