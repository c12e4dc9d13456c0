"""An applied move keeps its idempotency key on its first event, not in a row of its own
(play/models.py, TableEvent.request_key). Keys stored before stay where they are, and are
found there."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0005_table_fixed_digest"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableevent",
            name="request_key",
            field=models.CharField(blank=True, editable=False, max_length=120, null=True),
        ),
        migrations.AddIndex(
            model_name="tableevent",
            index=models.Index(
                condition=models.Q(("request_key__isnull", False)),
                fields=["table", "request_key"],
                name="event_request_key",
            ),
        ),
    ]
