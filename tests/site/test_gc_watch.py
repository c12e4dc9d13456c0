"""A long garbage collection leaves a line in the log, and full collections freeze what
they kept (holmes_site/gc_watch.py)."""

import gc
import logging
import time
import weakref

import pytest

from holmes_site import gc_watch


def test_a_collection_as_long_as_the_bar_is_logged_with_its_generation(monkeypatch, caplog):
    monkeypatch.setattr(gc_watch, "LONG_PAUSE_SECONDS", 0.0)
    gc_watch.watch_collections()
    gc_watch.watch_collections()  # once per process, however often it is called
    assert gc.callbacks.count(gc_watch._on_collection) == 1
    try:
        with caplog.at_level(logging.WARNING, logger="holmes.gc"):
            gc.collect(1)
        assert any(
            "garbage collection of generation 1 stopped the process" in record.getMessage()
            for record in caplog.records
        ), caplog.text
    finally:
        gc.callbacks.remove(gc_watch._on_collection)


def test_a_short_collection_is_not_logged(monkeypatch, caplog):
    monkeypatch.setattr(gc_watch, "LONG_PAUSE_SECONDS", 60.0)
    gc_watch.watch_collections()
    try:
        with caplog.at_level(logging.WARNING, logger="holmes.gc"):
            gc.collect(0)
        assert not [r for r in caplog.records if r.name == "holmes.gc"]
    finally:
        gc.callbacks.remove(gc_watch._on_collection)


# --- Full collections freeze what they kept ----------------------------------------------


class Cycle:
    """An object in a reference cycle: only the collector can free it."""

    def __init__(self):
        self.itself = self


def is_scanned(thing) -> bool:
    """Whether the next collections look at `thing` (frozen objects are in no generation)."""
    return any(tracked is thing for tracked in gc.get_objects())


@pytest.fixture
def freezing(monkeypatch):
    """The worker's policy, installed for one test and taken out after it, with the
    process's frozen objects handed back (tests/conftest.py keeps it out of the others).
    The next timed complete scan is an hour away."""
    gc_watch.keep_full_collections_short()
    gc_watch.keep_full_collections_short()  # once per process, however often it is called
    assert gc.callbacks.count(gc_watch._after_full_collection) == 1
    monkeypatch.setattr(gc_watch, "_next_full_scan", time.monotonic() + 3600)
    monkeypatch.setattr(gc_watch, "_kept_by_last_full_scan", None)
    yield
    gc.callbacks.remove(gc_watch._after_full_collection)
    gc.unfreeze()


def test_a_full_collection_freezes_what_it_kept(freezing):
    kept = Cycle()
    assert is_scanned(kept)
    gc.collect()
    assert gc.is_tracked(kept) and not is_scanned(kept)
    gc.collect(1)  # a younger collection freezes nothing
    young = Cycle()
    gc.collect(1)
    assert is_scanned(young)


def test_frozen_garbage_is_freed_once_everything_is_handed_back(freezing, monkeypatch):
    cycle = Cycle()
    freed = weakref.ref(cycle)
    gc.collect()  # kept, so frozen
    del cycle
    gc.collect()
    assert freed() is not None, "a frozen cycle is out of the collector's way"

    monkeypatch.setattr(gc_watch, "_next_full_scan", 0.0)  # the time for a complete scan
    gc.collect()  # hands everything back when it ends
    assert gc.get_freeze_count() == 0
    gc.collect()  # the complete scan
    assert freed() is None
    assert gc_watch._next_full_scan > 0.0, "the next complete scan is FULL_SCAN_SECONDS away"


@pytest.fixture
def only_explicit_collections():
    """No collection but the test's own: creating many objects would start some."""
    gc.disable()
    yield
    gc.enable()


def test_a_frozen_set_that_doubled_is_handed_back_before_its_time(
    freezing, only_explicit_collections
):
    gc.collect()  # freezes what is alive now: the measure of the next growth
    kept = gc_watch._kept_by_last_full_scan
    assert kept == gc.get_freeze_count() > 0

    garbage = [Cycle() for _ in range(kept // 2)]
    gc.collect()  # one and a half times as many frozen: not yet
    assert gc.get_freeze_count() > kept and gc_watch._kept_by_last_full_scan == kept
    freed = weakref.ref(garbage[0])
    garbage += [Cycle() for _ in range(kept)]
    gc.collect()  # more than twice as many: handed back at once
    assert gc.get_freeze_count() == 0
    del garbage
    gc.collect()  # the complete scan frees the sockets that closed meanwhile
    assert freed() is None
    assert gc_watch._kept_by_last_full_scan == gc.get_freeze_count()
