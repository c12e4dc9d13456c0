"""How a worker's garbage collections are kept short, and a warning in the log for each
one that stops it for long anyway.

A collection runs in whichever thread allocated last and holds the interpreter while it
runs: every socket and request of the worker waits. A full (generation 2) collection
scans every object the collector tracks. The ASGI module moves what it loaded at start
out of its way (gc.freeze), but a busy worker holds much more: each open socket is a few
hundred objects (its protocol, consumer, scope, tasks), and at 1,000 tables a worker
holding 750 sockets spent 60-165 ms in each full collection, every few seconds, to free
2-4 thousand objects (the benchmark's collection log).

So each full collection freezes what it kept (`keep_full_collections_short`): what is
still tracked right after one is alive, and the next one scans only what was promoted
since. A frozen object that later becomes part of unreachable cycles (a closed socket's
objects refer to one another) is not freed by a frozen scan, so the frozen objects are
handed back (gc.unfreeze) and the next full collection scans, and frees, everything:
every FULL_SCAN_SECONDS, or sooner once the frozen set has grown to GROWTH_BEFORE_FULL_SCAN
times what the last complete scan kept. The growth bound keeps that one long collection
no longer than a full collection without freezing (it scans at most about twice what is
alive): a worker whose sockets come and go would otherwise pile up ten minutes of closed
sockets for it (a test process that kept the policy spent
1.1 s freeing 440,000 objects in one). Objects freed by their reference count (most of
them) go at once either way.
"""

import gc
import logging
import time

logger = logging.getLogger("holmes.gc")

LONG_PAUSE_SECONDS = 0.05  # as long as a slow move: worth a line in the log
FULL_SCAN_SECONDS = 600.0  # how long frozen garbage may wait to be freed, at most
GROWTH_BEFORE_FULL_SCAN = 2.0  # how much the frozen set may grow between complete scans

_started: tuple[float, float] | None = None  # the clock and this thread's CPU time
_next_full_scan = 0.0
_kept_by_last_full_scan: int | None = None  # frozen right after it; None until then


def _on_collection(phase: str, info: dict) -> None:
    global _started
    if phase == "start":
        _started = (time.perf_counter(), time.thread_time())
        return
    if _started is None:
        return
    (clock, cpu), _started = _started, None
    paused = time.perf_counter() - clock
    if paused >= LONG_PAUSE_SECONDS:
        # The CPU time tells the collection's own cost from the time the machine gave
        # the process's thread to others meanwhile (a busy machine stretches a pause).
        logger.warning(
            "A garbage collection of generation %s stopped the process for %.0f ms, "
            "%.0f ms of them its own work (%s objects collected).",
            info["generation"],
            paused * 1000,
            (time.thread_time() - cpu) * 1000,
            info["collected"],
        )


def _after_full_collection(phase: str, info: dict) -> None:
    global _next_full_scan, _kept_by_last_full_scan
    if phase != "stop" or info["generation"] != 2:
        return
    gc.freeze()  # survivors of a full collection: alive, out of the next one's way
    if _kept_by_last_full_scan is None:
        _kept_by_last_full_scan = gc.get_freeze_count()
    if _complete_scan_due():
        # Everything goes back: the next full collection scans it all and frees the
        # cycles that frozen objects left since the last time.
        gc.unfreeze()
        _next_full_scan = time.monotonic() + FULL_SCAN_SECONDS
        _kept_by_last_full_scan = None


def _complete_scan_due() -> bool:
    grown = gc.get_freeze_count() / _kept_by_last_full_scan
    return grown > GROWTH_BEFORE_FULL_SCAN or time.monotonic() >= _next_full_scan


def keep_full_collections_short() -> None:
    """Freeze what each full collection keeps, handing it all back for a complete scan
    every FULL_SCAN_SECONDS or once the frozen set has doubled (once per process, however
    often it is called)."""
    global _next_full_scan
    if _after_full_collection not in gc.callbacks:
        _next_full_scan = time.monotonic() + FULL_SCAN_SECONDS
        gc.callbacks.append(_after_full_collection)


def watch_collections() -> None:
    """Log collections that pause the process for LONG_PAUSE_SECONDS or more (once per
    process, however often it is called)."""
    if _on_collection not in gc.callbacks:
        gc.callbacks.append(_on_collection)
