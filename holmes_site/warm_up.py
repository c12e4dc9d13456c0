"""Load at a worker's start what its first move would otherwise load on the way.

The URLconf (and with it every view module), game sites, the channel layer and Celery's
task registry are set up on first use: in a
fresh process the first move over a socket took 105 ms of CPU instead of 4, nearly all of
it imports (the channel layer's Redis client, every game's site to learn which actions
are throttled) and Celery finalizing its app for the first task a move sends. Done
here, before the entry point freezes what it loaded (holmes_site/asgi.py, wsgi.py), no
player waits for it, and the garbage collector never scans it.
"""


def warm_up() -> None:
    from channels.layers import get_channel_layer
    from django.urls import get_resolver

    from games import GAMES, get_rules
    from games.sites import get_site
    from holmes_site.celery import app as celery_app
    from holmes_site.throttling import throttled_action_types

    get_resolver().url_patterns  # noqa: B018  (imports the URLconf and every view)
    for name in GAMES:
        get_rules(name)
        get_site(name)
    throttled_action_types()
    get_channel_layer()  # built, not connected: it connects on its first message
    # Celery: its tasks registered, its result backend and its pool of broker connections
    # built (kombu connects when a task is first sent, not here).
    celery_app.finalize(auto=True)
    celery_app.backend  # noqa: B018  (built on first access)
    celery_app.producer_pool  # noqa: B018
