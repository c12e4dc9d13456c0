from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tables, seats, the event log, the move write path, the API and live updates."""

    name = "play"
    verbose_name = "Play"

    def ready(self):
        from accounts import hooks
        from holmes_site import metrics, throttling

        from .invites import invite_for_link
        from .selectors import answer_action_types, count_open_sockets, name_taken_at_tables_of
        from .waker import start_if_embedded

        # What accounts and the plumbing, below play, ask of the tables and the games.
        hooks.answered_by(
            name_taken_at_tables_of=name_taken_at_tables_of, invite_for_link=invite_for_link
        )
        throttling.answers_are(answer_action_types)

        metrics.add_reading(
            "holmes_open_sockets", "Websockets open on table pages.", count_open_sockets
        )
        start_if_embedded()
