from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tables, seats, the event log, the move write path, the API and live updates."""

    name = "play"
    verbose_name = "Play"

    def ready(self):
        from holmes_site import metrics

        from .selectors import count_open_sockets
        from .waker import start_if_embedded

        metrics.add_reading(
            "holmes_open_sockets", "Websockets open on table pages.", count_open_sockets
        )
        start_if_embedded()
