"""A worker loads at its start what a first move would load on the way (the ASGI module
calls warm_up before it freezes what it loaded)."""

import subprocess
import sys

from holmes_site.settings import BASE_DIR

# In a fresh interpreter: in the test process everything is loaded already.
PROBE = """
import sys
import holmes_site.asgi  # noqa: F401  (calls warm_up)
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
print("warm")
"""


def test_the_asgi_module_loads_game_sites_channel_layer_and_celery_before_any_request():
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={"DJANGO_SETTINGS_MODULE": "holmes_site.settings", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "warm"
