"""A warning in the log for each garbage collection that stops a worker for long.

A collection runs in whichever thread allocated last and holds the interpreter while it
runs: every socket and request of the worker waits. The ASGI module moves what it loaded
at start out of the collector's way (gc.freeze), but what a busy worker holds (its
sockets, their views) is scanned by each full collection. When players see a stall, the
log says whether a collection was it.
"""

import gc
import logging
import time

logger = logging.getLogger("holmes.gc")

LONG_PAUSE_SECONDS = 0.05  # as long as a slow move: worth a line in the log

_started: float | None = None


def _on_collection(phase: str, info: dict) -> None:
    global _started
    if phase == "start":
        _started = time.perf_counter()
        return
    if _started is None:
        return
    paused, _started = time.perf_counter() - _started, None
    if paused >= LONG_PAUSE_SECONDS:
        logger.warning(
            "A garbage collection of generation %s stopped the process for %.0f ms "
            "(%s objects collected).",
            info["generation"],
            paused * 1000,
            info["collected"],
        )


def watch_collections() -> None:
    """Log collections that pause the process for LONG_PAUSE_SECONDS or more (once per
    process, however often it is called)."""
    if _on_collection not in gc.callbacks:
        gc.callbacks.append(_on_collection)
