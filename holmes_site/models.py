from django.db import models


class OutboxMessage(models.Model):
    """A Celery task to run once the transaction that wrote this row has committed.

    The transactional outbox (holmes_site/outbox.py): every app's tasks (a move's
    notifications, judging and wake-ups, the review workflow's notices) are written here
    in the transaction that causes them, and enqueued on commit. When the broker is down at that
    moment the row stays undelivered, and the periodic `outbox_redeliver` task enqueues it
    again once Redis is back. Tasks mark their row delivered when they finish; they are
    idempotent, so a row enqueued twice (a slow worker, a redelivery) acts once.
    """

    task = models.CharField(max_length=120, help_text="The Celery task's name.")
    args = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    redelivered_at = models.DateTimeField(null=True, blank=True)
    redeliveries = models.PositiveIntegerField(default=0)

    class Meta:
        # The table it had when the model lived in accounts: moving the model to the
        # plumbing kept the table and its rows (holmes_site/migrations/0001).
        db_table = "accounts_outboxmessage"
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(delivered_at__isnull=True),
                name="outbox_undelivered",
            )
        ]

    def __str__(self) -> str:
        state = "delivered" if self.delivered_at else "waiting"
        return f"{self.task}{tuple(self.args)} ({state})"
