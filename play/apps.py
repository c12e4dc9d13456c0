from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tables, seats, the event log, the move write path, the API and live updates."""

    name = "play"
    verbose_name = "Play"

    def ready(self):
        from .waker import start_if_embedded

        start_if_embedded()
