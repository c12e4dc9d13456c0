from django.apps import AppConfig


class CasesConfig(AppConfig):
    """The case domain: cases and their versions, questions, location cards, zones."""

    name = "cases"
    verbose_name = "Cases"
