from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    """The structured case editor, the review workflow and the moderator queue."""

    name = "authoring"
    verbose_name = "Authoring"
