from django.apps import AppConfig


class CasesConfig(AppConfig):
    """The case domain: cases and their versions, questions, location cards, zones."""

    name = "cases"
    verbose_name = "Cases"

    def ready(self):
        from holmes_site import metrics

        from .selectors import count_judgements_waiting

        metrics.add_reading(
            "holmes_judgements_pending",
            "Answer attempts waiting for their verdicts.",
            count_judgements_waiting,
        )
