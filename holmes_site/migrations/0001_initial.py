"""The outbox's rows move from accounts to the plumbing they belong to.

The table stays as it is (`accounts_outboxmessage`, with its rows and its index): only
Django's idea of which app owns the model changes, here and in accounts' 0008. A fresh
database gets the table from accounts' 0003, which runs first. The content type follows
the model, so that permissions given on it are kept.
"""

from django.db import migrations, models

TABLE = "accounts_outboxmessage"


def content_type_follows(apps, schema_editor, *, old: str, new: str):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label=new, model="outboxmessage").exists():
        ContentType.objects.using(db).filter(app_label=old, model="outboxmessage").update(
            app_label=new
        )


def to_holmes_site(apps, schema_editor):
    content_type_follows(apps, schema_editor, old="accounts", new="holmes_site")


def to_accounts(apps, schema_editor):
    content_type_follows(apps, schema_editor, old="holmes_site", new="accounts")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0003_outboxmessage"),  # the table
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="OutboxMessage",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "task",
                            models.CharField(help_text="The Celery task's name.", max_length=120),
                        ),
                        ("args", models.JSONField(blank=True, default=list)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("delivered_at", models.DateTimeField(blank=True, null=True)),
                        ("redelivered_at", models.DateTimeField(blank=True, null=True)),
                        ("redeliveries", models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        "db_table": TABLE,
                        "indexes": [
                            models.Index(
                                condition=models.Q(("delivered_at__isnull", True)),
                                fields=["created_at"],
                                name="outbox_undelivered",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(to_holmes_site, to_accounts, elidable=True),
    ]
