from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tables, seats, the event log, the move write path, the API and live updates."""

    name = "play"
    verbose_name = "Play"
