"""A worker loads at its start what a first move would load on the way (both entry
points call warm_up before they freeze what they loaded)."""

import subprocess
import sys

import pytest

from holmes_site.settings import BASE_DIR

# In a fresh interpreter: in the test process everything is loaded already.
PROBE = """
import sys
import holmes_site.{entry_point}  # noqa: F401  (calls warm_up)
from games import GAMES
from games.sites import get_site
from holmes_site.celery import app
from holmes_site.throttling import throttled_action_types

assert get_site.cache_info().currsize == len(GAMES), get_site.cache_info()
assert throttled_action_types.cache_info().currsize == 1
assert app.finalized
assert "channels_redis.pubsub" in sys.modules or "channels.layers" in sys.modules
from channels.layers import channel_layers
assert "default" in channel_layers.backends, "the channel layer was not built"
import gc
from holmes_site.gc_watch import _after_full_collection, _on_collection
assert _on_collection in gc.callbacks, "long collections are not logged"
assert _after_full_collection in gc.callbacks, "full collections do not freeze what they kept"
assert gc.get_freeze_count() > 0, "what the worker loaded is not frozen"
assert "play.api" in sys.modules, "the URLconf and its views were not imported"
# The move endpoint's schema examples come from playouts: worked out for the schema page,
# never while a worker starts.
from play.api_schema import _playout_samples
assert _playout_samples.cache_info().currsize == 0, "a worker's start played games"
print("warm")
"""


@pytest.mark.parametrize("entry_point", ["asgi", "wsgi"])
def test_each_entry_point_loads_views_game_sites_channel_layer_and_celery_at_start(entry_point):
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(entry_point=entry_point)],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={"DJANGO_SETTINGS_MODULE": "holmes_site.settings", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "warm"
