"""The outbox's rows now belong to holmes_site (its 0001): accounts forgets the model, and
the table, its rows and its index stay where they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_api_tokens"),
        ("holmes_site", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="OutboxMessage")],
            database_operations=[],
        ),
    ]
