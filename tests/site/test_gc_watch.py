"""A long garbage collection leaves a line in the log (holmes_site/gc_watch.py)."""

import gc
import logging

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
