from django.apps import AppConfig


class HolmesSiteConfig(AppConfig):
    """The site's plumbing as an app of its own, below every other, for the one model the
    plumbing owns: the outbox's rows (holmes_site/outbox.py)."""

    name = "holmes_site"
    verbose_name = "Site plumbing"
